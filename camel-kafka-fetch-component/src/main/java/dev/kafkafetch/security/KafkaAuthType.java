package dev.kafkafetch.security;

/**
 * The {@code saslAuthType} shorthand, with camel-kafka 4.22's values and meaning. kafka-fetch derives the security
 * protocol, the SASL mechanism and the JAAS line as camel-kafka does: for {@link #PLAIN}, {@link #SCRAM_SHA_256} and
 * {@link #SCRAM_SHA_512} from {@code saslUsername}/{@code saslPassword}, for {@link #OAUTH} from the {@code oauth*}
 * options, for {@link #AWS_MSK_IAM} the IAM login module; {@link #KERBEROS} uses the JVM's JAAS configuration unless
 * {@code saslJaasConfig} is set; {@link #NONE} and {@link #SSL} only choose the security protocol.
 */
public enum KafkaAuthType {

    /** No authentication: PLAINTEXT, or SSL when a key or trust store is configured or securityProtocol is SSL. */
    NONE(null, null),
    /** SASL/PLAIN with username and password. */
    PLAIN("PLAIN", "org.apache.kafka.common.security.plain.PlainLoginModule"),
    /** SASL/SCRAM-SHA-256 with username and password. */
    SCRAM_SHA_256("SCRAM-SHA-256", "org.apache.kafka.common.security.scram.ScramLoginModule"),
    /** SASL/SCRAM-SHA-512 with username and password. */
    SCRAM_SHA_512("SCRAM-SHA-512", "org.apache.kafka.common.security.scram.ScramLoginModule"),
    /** TLS only (client certificate authentication when a key store is configured). */
    SSL(null, null),
    /** SASL/OAUTHBEARER with oauthClientId, oauthClientSecret, oauthTokenEndpointUri (and oauthScope). */
    OAUTH("OAUTHBEARER", null),
    /** AWS MSK IAM (needs the aws-msk-iam-auth library on the classpath). */
    AWS_MSK_IAM("AWS_MSK_IAM", null),
    /** SASL/GSSAPI (Kerberos), with the JVM's JAAS configuration unless saslJaasConfig is set. */
    KERBEROS("GSSAPI", null);

    /** The JAAS line camel-kafka uses for {@link #AWS_MSK_IAM}. */
    public static final String AWS_MSK_IAM_JAAS_CONFIG = "software.amazon.msk.auth.iam.IAMLoginModule required;";
    private static final String OAUTH_LOGIN_MODULE = "org.apache.kafka.common.security.oauthbearer"
                                                     + ".OAuthBearerLoginModule";

    private final String mechanism;
    private final String credentialsLoginModule;

    KafkaAuthType(String mechanism, String credentialsLoginModule) {
        this.mechanism = mechanism;
        this.credentialsLoginModule = credentialsLoginModule;
    }

    /** Kafka's {@code sasl.mechanism} for this type; null when it is not a SASL type. */
    public String mechanism() {
        return mechanism;
    }

    /** Whether this type authenticates with SASL. */
    public boolean isSasl() {
        return mechanism != null;
    }

    /** Whether kafka-fetch builds the JAAS line of this type from saslUsername and saslPassword. */
    public boolean usesCredentials() {
        return credentialsLoginModule != null;
    }

    /**
     * The {@code sasl.jaas.config} line for a username and password (backslashes and double quotes escaped).
     *
     * @throws IllegalStateException if this type does not use credentials
     */
    public String jaasConfig(String username, String password) {
        if (credentialsLoginModule == null) {
            throw new IllegalStateException(name() + " does not authenticate with a username and password");
        }
        return credentialsLoginModule + " required username=\"" + escape(username) + "\" password=\""
               + escape(password) + "\";";
    }

    /** The {@code sasl.jaas.config} line camel-kafka builds for {@link #OAUTH} (scope may be null). */
    public static String oauthJaasConfig(String clientId, String clientSecret, String scope) {
        return OAUTH_LOGIN_MODULE + " required clientId=\"" + escape(clientId) + "\" clientSecret=\""
               + escape(clientSecret) + "\"" + (scope == null ? "" : " scope=\"" + escape(scope) + "\"") + ";";
    }

    private static String escape(String value) {
        StringBuilder sb = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' || c == '"') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }
}
