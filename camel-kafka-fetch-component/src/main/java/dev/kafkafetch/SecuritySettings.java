package dev.kafkafetch;

import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

import dev.kafkafetch.security.KafkaAuthType;
import org.apache.camel.CamelContext;
import org.apache.camel.support.ResourceHelper;
import org.apache.camel.support.jsse.KeyManagersParameters;
import org.apache.camel.support.jsse.KeyStoreParameters;
import org.apache.camel.support.jsse.SSLContextParameters;
import org.apache.camel.support.jsse.TrustManagersParameters;
import org.apache.camel.util.StringHelper;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;

import static dev.kafkafetch.OptionChecks.blankToNull;
import static dev.kafkafetch.OptionChecks.putIfSet;

/**
 * The security settings of the Kafka clients (consumers and dead-letter producer alike): securityProtocol,
 * saslMechanism, saslJaasConfig, the ssl* options or an {@code sslContextParameters}, the kerberos* options, or what
 * the saslAuthType shorthand derives, as camel-kafka 4.22 maps them: a SASL type uses SASL_SSL unless securityProtocol
 * is SASL_PLAINTEXT; PLAIN and SCRAM build the JAAS line from saslUsername/saslPassword, OAUTH from the oauth* options
 * (with the OAuth login callback handler and token endpoint), AWS_MSK_IAM the IAM login module (with its callback
 * handler); KERBEROS sets GSSAPI and leaves the JAAS config to the JVM's login configuration. An explicit
 * saslJaasConfig wins over the built one.
 * <p>
 * Guarantee: a missing or contradictory setting is refused with a message that names the option and never quotes a
 * secret value (docs/design.md §4.7, §4.8).
 */
public final class SecuritySettings {

    static final String OAUTH_CALLBACK_HANDLER = "org.apache.kafka.common.security.oauthbearer"
                                                 + ".OAuthBearerLoginCallbackHandler";
    static final String AWS_MSK_IAM_CALLBACK_HANDLER = "software.amazon.msk.auth.iam.IAMClientCallbackHandler";
    private static final Set<String> SECURITY_PROTOCOLS = Set.of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL");

    private final OptionChecks checks;
    private final KafkaFetchClientConfiguration o;
    private final CamelContext context;

    /** @param checks names the scheme in every refusal */
    public SecuritySettings(OptionChecks checks, KafkaFetchClientConfiguration configuration, CamelContext context) {
        this.checks = checks;
        this.o = configuration;
        this.context = context;
    }

    public Properties build() {
        String protocol = checks.oneOf("securityProtocol", o.getSecurityProtocol(), SECURITY_PROTOCOLS);
        String mechanism = blankToNull(o.getSaslMechanism());
        String jaas = blankToNull(o.getSaslJaasConfig());
        KafkaAuthType auth = o.getSaslAuthType();
        refuseUnused(auth);
        Properties p = new Properties();
        if (auth != null && auth.isSasl()) {
            if (jaas == null) {
                jaas = jaasConfig(auth, p);
            }
            protocol = "SASL_PLAINTEXT".equals(protocol) ? "SASL_PLAINTEXT" : "SASL_SSL";
            mechanism = auth.mechanism();
        } else if (auth == KafkaAuthType.SSL) {
            protocol = "SSL";
        } else if (auth == KafkaAuthType.NONE) {
            boolean stores = blankToNull(o.getSslKeystoreLocation()) != null
                             || blankToNull(o.getSslTruststoreLocation()) != null
                             || o.getSslContextParameters() != null;
            protocol = stores || "SSL".equals(protocol) ? "SSL" : "PLAINTEXT";
        }

        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, protocol);
        putIfSet(p, SaslConfigs.SASL_MECHANISM, mechanism);
        putIfSet(p, SaslConfigs.SASL_JAAS_CONFIG, jaas);
        if (protocol.startsWith("SASL_")) {
            putIfSet(p, SaslConfigs.SASL_KERBEROS_SERVICE_NAME, blankToNull(o.getSaslKerberosServiceName()));
            putIfSet(p, SaslConfigs.SASL_KERBEROS_KINIT_CMD, blankToNull(o.getKerberosInitCmd()));
            putIfSet(p, SaslConfigs.SASL_KERBEROS_MIN_TIME_BEFORE_RELOGIN, o.getKerberosBeforeReloginMinTime());
            putIfSet(p, SaslConfigs.SASL_KERBEROS_TICKET_RENEW_JITTER, o.getKerberosRenewJitter());
            putIfSet(p, SaslConfigs.SASL_KERBEROS_TICKET_RENEW_WINDOW_FACTOR, o.getKerberosRenewWindowFactor());
            putIfSet(p, "sasl.kerberos.principal.to.local.rules", blankToNull(o.getKerberosPrincipalToLocalRules()));
        }
        if (o.getSslContextParameters() != null) {
            fromContextParameters(p, o.getSslContextParameters());
        } else {
            fromSslOptions(p);
        }
        return p;
    }

    /** Options that only a saslAuthType uses are refused without it, rather than silently ignored. */
    private void refuseUnused(KafkaAuthType auth) {
        if (auth == null || !auth.usesCredentials()) {
            String given = o.getSaslUsername() != null ? "saslUsername"
                    : o.getSaslPassword() != null ? "saslPassword" : null;
            if (given != null) {
                throw checks.invalid(given, "is only used with saslAuthType"
                                            + " PLAIN, SCRAM_SHA_256 or SCRAM_SHA_512 (saslAuthType is "
                                            + (auth == null ? "not set" : auth) + ")");
            }
        }
        if (auth != KafkaAuthType.OAUTH) {
            String given = o.getOauthClientId() != null ? "oauthClientId"
                    : o.getOauthClientSecret() != null ? "oauthClientSecret"
                            : o.getOauthTokenEndpointUri() != null ? "oauthTokenEndpointUri"
                                    : o.getOauthScope() != null ? "oauthScope" : null;
            if (given != null) {
                throw checks.invalid(given, "is only used with saslAuthType"
                                            + " OAUTH (saslAuthType is " + (auth == null ? "not set" : auth)
                                            + ")");
            }
        }
    }

    /** The JAAS line camel-kafka builds for a SASL saslAuthType (null for KERBEROS), and its extra client settings. */
    private String jaasConfig(KafkaAuthType auth, Properties extra) {
        switch (auth) {
            case PLAIN, SCRAM_SHA_256, SCRAM_SHA_512 -> {
                String username = require("saslUsername", o.getSaslUsername(), auth).trim();
                String password = o.getSaslPassword();
                if (password == null || password.isEmpty()) {
                    throw checks.invalid("saslPassword", "is required with saslAuthType="
                                                         + auth + " (or set saslJaasConfig)");
                }
                return auth.jaasConfig(username, password);
            }
            case OAUTH -> {
                String clientId = require("oauthClientId", o.getOauthClientId(), auth);
                String secret = o.getOauthClientSecret();
                if (secret == null || secret.isEmpty()) {
                    throw checks.invalid("oauthClientSecret", "is required with"
                                                              + " saslAuthType=OAUTH (or set saslJaasConfig)");
                }
                String tokenEndpoint = require("oauthTokenEndpointUri", o.getOauthTokenEndpointUri(), auth);
                extraUnlessGiven(extra, SaslConfigs.SASL_LOGIN_CALLBACK_HANDLER_CLASS, OAUTH_CALLBACK_HANDLER);
                extraUnlessGiven(extra, SaslConfigs.SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL, tokenEndpoint.trim());
                return KafkaAuthType.oauthJaasConfig(clientId.trim(), secret, blankToNull(o.getOauthScope()));
            }
            case AWS_MSK_IAM -> {
                extraUnlessGiven(extra, SaslConfigs.SASL_CLIENT_CALLBACK_HANDLER_CLASS, AWS_MSK_IAM_CALLBACK_HANDLER);
                return KafkaAuthType.AWS_MSK_IAM_JAAS_CONFIG;
            }
            default -> {
                return null; // KERBEROS: the JVM's JAAS login configuration (java.security.auth.login.config)
            }
        }
    }

    /** As camel-kafka: additionalProperties win over the settings a saslAuthType adds. */
    private void extraUnlessGiven(Properties extra, String key, String value) {
        if (o.getAdditionalProperties() == null || !o.getAdditionalProperties().containsKey(key)) {
            extra.put(key, value);
        }
    }

    private String require(String option, String value, KafkaAuthType auth) {
        if (value == null || value.isBlank()) {
            throw checks.invalid(option, "is required with saslAuthType="
                                         + auth + " (or set saslJaasConfig)");
        }
        return value;
    }

    private void fromSslOptions(Properties p) {
        putIfSet(p, SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, o.getSslKeystoreLocation());
        putIfSet(p, SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, o.getSslKeystorePassword());
        putIfSet(p, SslConfigs.SSL_KEY_PASSWORD_CONFIG, o.getSslKeyPassword());
        putIfSet(p, SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, upper(o.getSslKeystoreType()));
        putIfSet(p, SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, o.getSslTruststoreLocation());
        putIfSet(p, SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, o.getSslTruststorePassword());
        putIfSet(p, SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, upper(o.getSslTruststoreType()));
        putIfSet(p, SslConfigs.SSL_PROTOCOL_CONFIG, o.getSslProtocol());
        putIfSet(p, SslConfigs.SSL_ENABLED_PROTOCOLS_CONFIG, o.getSslEnabledProtocols());
        putIfSet(p, SslConfigs.SSL_KEYMANAGER_ALGORITHM_CONFIG, o.getSslKeymanagerAlgorithm());
        putIfSet(p, SslConfigs.SSL_TRUSTMANAGER_ALGORITHM_CONFIG, o.getSslTrustmanagerAlgorithm());
        putIfSet(p, SslConfigs.SSL_CIPHER_SUITES_CONFIG, o.getSslCipherSuites());
        putIfSet(p, SslConfigs.SSL_PROVIDER_CONFIG, o.getSslProvider());
        String endpointAlgorithm = o.getSslEndpointAlgorithm();
        if (endpointAlgorithm != null) {
            String a = endpointAlgorithm.trim();
            // as camel-kafka: none or false turns hostname verification off (Kafka's empty value)
            p.put(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG,
                    a.equalsIgnoreCase("none") || a.equalsIgnoreCase("false") ? "" : a);
        }
    }

    /**
     * camel-kafka's mapping of an {@link SSLContextParameters}: protocol, provider, cipher suites, enabled protocols,
     * key and trust managers' algorithm, store location (Kafka reads files: a {@code file:} prefix is dropped), type and
     * password. Kafka cannot use a context built in memory, so only what it can read from a file is taken over; the
     * endpoint identification algorithm stays the sslEndpointAlgorithm option.
     */
    private void fromContextParameters(Properties p, SSLContextParameters scp) {
        putIfSet(p, SslConfigs.SSL_PROTOCOL_CONFIG, resolve(scp.getSecureSocketProtocol()));
        putIfSet(p, SslConfigs.SSL_PROVIDER_CONFIG, resolve(scp.getProvider()));
        if (scp.getCipherSuites() != null) {
            putIfSet(p, SslConfigs.SSL_CIPHER_SUITES_CONFIG, joined(scp.getCipherSuites().getCipherSuite()));
        }
        if (scp.getSecureSocketProtocols() != null) {
            putIfSet(p, SslConfigs.SSL_ENABLED_PROTOCOLS_CONFIG,
                    joined(scp.getSecureSocketProtocols().getSecureSocketProtocol()));
        }
        KeyManagersParameters keyManagers = scp.getKeyManagers();
        if (keyManagers != null) {
            putIfSet(p, SslConfigs.SSL_KEYMANAGER_ALGORITHM_CONFIG, resolve(keyManagers.getAlgorithm()));
            putIfSet(p, SslConfigs.SSL_KEY_PASSWORD_CONFIG, resolve(keyManagers.getKeyPassword()));
            KeyStoreParameters store = keyManagers.getKeyStore();
            if (store != null) {
                putIfSet(p, SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, upper(resolve(store.getType())));
                putIfSet(p, SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, location(store));
                putIfSet(p, SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, resolve(store.getPassword()));
            }
        }
        TrustManagersParameters trustManagers = scp.getTrustManagers();
        if (trustManagers != null) {
            putIfSet(p, SslConfigs.SSL_TRUSTMANAGER_ALGORITHM_CONFIG, resolve(trustManagers.getAlgorithm()));
            KeyStoreParameters store = trustManagers.getKeyStore();
            if (store != null) {
                putIfSet(p, SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, resolve(store.getType()));
                putIfSet(p, SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, location(store));
                putIfSet(p, SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, resolve(store.getPassword()));
            }
        }
        String endpointAlgorithm = o.getSslEndpointAlgorithm();
        if (endpointAlgorithm != null) {
            String a = endpointAlgorithm.trim();
            p.put(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG,
                    a.equalsIgnoreCase("none") || a.equalsIgnoreCase("false") ? "" : a);
        }
    }

    private String location(KeyStoreParameters store) {
        String location = resolve(store.getResource());
        if (location == null) {
            throw checks.invalid("sslContextParameters", ": Kafka reads key and trust"
                                                         + " stores from files, so each KeyStoreParameters needs a resource"
                                                         + " (file:/path/to/store)");
        }
        return ResourceHelper.hasScheme(location) ? StringHelper.after(location, ":") : location;
    }

    private String resolve(String value) {
        return value == null ? null : context.resolvePropertyPlaceholders(value);
    }

    private static String joined(List<String> values) {
        return values == null || values.isEmpty() ? null : String.join(",", values);
    }

    private static String upper(String value) {
        return value == null ? null : value.toUpperCase(Locale.ROOT);
    }
}
