package dev.kafkafetch;

import java.util.HashMap;
import java.util.Map;

import dev.kafkafetch.error.PollOnError;
import dev.kafkafetch.security.KafkaAuthType;
import dev.kafkafetch.serde.DefaultKafkaHeaderDeserializer;
import dev.kafkafetch.serde.KafkaFetchHeaderFilterStrategy;
import dev.kafkafetch.serde.KafkaHeaderDeserializer;
import org.apache.camel.RuntimeCamelException;
import org.apache.camel.spi.HeaderFilterStrategy;
import org.apache.camel.spi.HeaderFilterStrategyAware;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriParams;
import org.apache.camel.support.jsse.SSLContextParameters;

/**
 * The options both schemes share: the group, the fetch tasks and their concurrency, poll, commit and stop times,
 * brokers and client identity, the Kafka client's fetch, request and backoff settings, deserializers and header
 * handling, pass-through client settings, the poll error strategy, and every security, TLS, Kerberos and OAuth option.
 * {@link KafkaFetchConfiguration} ({@code kafka-fetch}) and the share scheme's configuration extend it with their own
 * options, as camel-amqp's configuration extends camel-jms's; the catalog lists the options of both levels under each
 * scheme, and where a shared option means something particular to one scheme its text says so. The options whose
 * default or bounds differ (maxPollRecords, maxInFlightRecords, deadLetterTopic, ordering) are each scheme's own.
 * {@link SecuritySettings} reads the security options from here, whichever the scheme. Nothing is validated here:
 * each scheme checks its options when the route starts.
 */
@UriParams
public abstract class KafkaFetchClientConfiguration implements Cloneable, HeaderFilterStrategyAware {

    @UriParam(label = "consumer",
              description = "The group this route's fetch tasks belong to: a consumer group (kafka-fetch) or a share group (kafka-fetch-share). Required: kafka-fetch never invents a random group.")
    private String groupId;
    @UriParam(label = "consumer", defaultValue = "1",
              description = "The number of fetch tasks: each runs its own thread and its own Kafka consumer, a member of the group. In a share group (kafka-fetch-share) several members may read the same partition at once, and each of the consumersCount windows of maxConcurrency slots is fed by consumersPerWindow share consumers (tasks; 2 by default, 1 with ordering KEY).")
    private int consumersCount = 1;
    @UriParam(label = "consumer", defaultValue = "5000", javaType = "java.time.Duration",
              description = "The timeout used when polling the Kafka consumer while the fetch task holds no record in flight. A number of milliseconds or a duration such as 5s.")
    private Long pollTimeoutMs = 5000L;
    @UriParam(label = "consumer", defaultValue = "5000", javaType = "java.time.Duration",
              description = "The maximum time to wait for a synchronous commit: of offsets (kafka-fetch), or of acknowledgements, lock renewals and the last acknowledgements on stop included (kafka-fetch-share). Milliseconds, or a duration such as 5s.")
    private Long commitTimeoutMs = 5000L;
    @UriParam(label = "common", defaultValue = "30000",
              description = "Time in ms to wait, on stop, for records already in the route to finish before committing (kafka-fetch) or acknowledging (kafka-fetch-share) what finished and closing.")
    private int shutdownTimeout = 30000;
    @UriParam(label = "common", prefix = "additionalProperties.", multiValue = true,
              description = "Sets additional properties for the Kafka consumer (additionalProperties.xxx=yyy), for settings without an option of their own. Settings that would break the guarantees are refused: deserializer classes, enable.auto.commit=true, and for kafka-fetch-share the settings a share consumer refuses and the acknowledgement and acquire modes the component manages.")
    private Map<String, Object> additionalProperties = new HashMap<>();
    @UriParam(label = "consumer", defaultValue = "1",
              description = "How many records of one fetch task may be in the route at once. Larger values process slow routes in parallel beyond the partition count, in the order chosen by ordering.")
    private int maxConcurrency = 1;
    @UriParam(label = "common",
              description = "URL of the Kafka brokers to use. The format is host1:port1,host2:port2. Required.")
    private String brokers;
    @UriParam(label = "common",
              description = "The client id sent with each request to help trace calls. With consumersCount above 1, each fetch task appends a dash and its index.")
    private String clientId;
    @UriParam(label = "consumer", javaType = "java.time.Duration",
              description = "The maximum delay between invocations of poll() before the consumer is considered failed (Kafka's max.poll.interval.ms). kafka-fetch keeps polling while the route works, so slow routes do not need a large value.")
    private Integer maxPollIntervalMs;
    @UriParam(label = "consumer", defaultValue = "org.apache.kafka.common.serialization.StringDeserializer",
              description = "Deserializer class for the key. Runs on the fetch thread, per record: a record that fails to deserialize fails alone, at its partition and offset.")
    private String keyDeserializer = "org.apache.kafka.common.serialization.StringDeserializer";
    @UriParam(label = "consumer", defaultValue = "org.apache.kafka.common.serialization.StringDeserializer",
              description = "Deserializer class for the value. Runs on the fetch thread, per record: a record that fails to deserialize fails alone, at its partition and offset.")
    private String valueDeserializer = "org.apache.kafka.common.serialization.StringDeserializer";
    @UriParam(label = "consumer,advanced",
              description = "To use a custom KafkaHeaderDeserializer to deserialize kafka headers values (default: raw bytes).")
    private KafkaHeaderDeserializer headerDeserializer = new DefaultKafkaHeaderDeserializer();
    @UriParam(label = "common,advanced",
              description = "To use a custom HeaderFilterStrategy to filter Kafka record headers into Camel message headers.")
    private HeaderFilterStrategy headerFilterStrategy = new KafkaFetchHeaderFilterStrategy();
    @UriParam(label = "consumer", defaultValue = "ERROR_HANDLER",
              description = "What to do if poll() throws: DISCARD, ERROR_HANDLER, RECONNECT, RETRY or STOP. Authentication and authorization errors always stop the task. A component-level pollExceptionStrategy overrides it.")
    private PollOnError pollOnError = PollOnError.ERROR_HANDLER;
    @UriParam(label = "common", defaultValue = "300000",
              description = "The period of time in milliseconds after which we force a refresh of metadata even if we haven't seen any partition leadership changes to proactively discover any new brokers or partitions.")
    private Integer metadataMaxAgeMs = 300000;
    @UriParam(label = "common", defaultValue = "1000",
              description = "The maximum amount of time in milliseconds to wait when reconnecting to a broker that has repeatedly failed to connect. If provided, the backoff per host will increase exponentially for each consecutive connection failure, up to this maximum.")
    private Integer reconnectBackoffMaxMs = 1000;
    @UriParam(label = "common", defaultValue = "100",
              description = "The amount of time to wait before attempting to retry a failed request to a given topic partition. This avoids repeatedly sending requests in a tight loop under some failure scenarios.")
    private Integer retryBackoffMs = 100;
    @UriParam(label = "common", defaultValue = "1000",
              description = "The maximum amount of time in milliseconds to wait when retrying a request to the broker that has repeatedly failed. The backoff per client increases exponentially up to this maximum.")
    private Integer retryBackoffMaxMs = 1000;
    @UriParam(label = "consumer", defaultValue = "30000",
              description = "The configuration controls the maximum amount of time the client will wait for the response of a request. If the response is not received before the timeout elapses, the client will resend the request if necessary or fail the request if retries are exhausted.")
    private Integer consumerRequestTimeoutMs = 30000;
    @UriParam(label = "consumer", defaultValue = "true",
              description = "Automatically check the CRC32 of the records consumed. This ensures no on-the-wire or on-disk corruption to the messages occurred. This check adds some overhead, so it may be disabled in cases seeking extreme performance.")
    private Boolean checkCrcs = true;
    @UriParam(label = "consumer", defaultValue = "1",
              description = "The minimum amount of data the server should return for a fetch request. If insufficient data is available, the request will wait for that much data to accumulate before answering the request.")
    private Integer fetchMinBytes = 1;
    @UriParam(label = "consumer", defaultValue = "52428800",
              description = "The maximum amount of data the server should return for a fetch request. This is not an absolute maximum: if the first message in the first non-empty partition of the fetch is larger than this value, the message will still be returned to ensure that the consumer can make progress.")
    private Integer fetchMaxBytes = 52428800;
    @UriParam(label = "consumer", defaultValue = "500",
              description = "The maximum amount of time the server will block before answering the fetch request if there isn't enough data to immediately satisfy fetch.min.bytes.")
    private Integer fetchWaitMaxMs = 500;
    @UriParam(label = "consumer", defaultValue = "1048576",
              description = "The maximum amount of data per-partition the server will return. The maximum total memory used for a request will be #partitions * max.partition.fetch.bytes.")
    private Integer maxPartitionFetchBytes = 1048576;
    @UriParam(label = "consumer", defaultValue = "true",
              description = "Whether to eagerly validate that each broker host:port is valid and can be DNS resolved when the route starts. If the validation fails, the route fails to start naming the brokers option. Disabling this postpones the validation until the consumer is created, and the fetch task keeps re-creating it (createConsumerBackoff*).")
    private boolean preValidateHostAndPort = true;
    @UriParam(label = "schema",
              description = "URL of the schema registry servers to use (schema.registry.url for the deserializers). The format is host1:port1,host2:port2. This is known as schema.registry.url in multiple Schema registries documentation.")
    private String schemaRegistryURL;
    @UriParam(label = "schema,consumer",
              description = "This enables the use of a specific Avro reader for use with the Confluent Platform schema registry and the io.confluent.kafka.serializers.KafkaAvroDeserializer (specific.avro.reader=true for the deserializers).")
    private boolean specificAvroReader = false;
    @UriParam(label = "common,security", defaultValue = "PLAINTEXT",
              description = "Protocol used to communicate with brokers: PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL.")
    private String securityProtocol = "PLAINTEXT";
    @UriParam(label = "common,security", defaultValue = "GSSAPI",
              description = "The SASL mechanism used (e.g. PLAIN, SCRAM-SHA-512).")
    private String saslMechanism = "GSSAPI";
    @UriParam(label = "common,security", secret = true,
              description = "Kafka's sasl.jaas.config. Masked in logs, the endpoint URI and the dev console.")
    private String saslJaasConfig;
    @UriParam(label = "common,security",
              description = "Simplified authentication type to use, instead of setting securityProtocol, saslMechanism"
                            + " and saslJaasConfig by hand. PLAIN, SCRAM_SHA_256 and SCRAM_SHA_512 build the JAAS"
                            + " config from saslUsername and saslPassword and use SASL_SSL, or SASL_PLAINTEXT when"
                            + " securityProtocol is SASL_PLAINTEXT; SSL uses SSL; NONE uses PLAINTEXT (SSL when a key or"
                            + " trust store is set or securityProtocol is SSL). OAUTH builds it from the oauth* options with"
                            + " Kafka's OAuth login callback handler; AWS_MSK_IAM uses the IAM login module and its"
                            + " callback handler (aws-msk-iam-auth on the classpath); KERBEROS sets GSSAPI and uses the"
                            + " JVM's JAAS configuration. A saslJaasConfig, when set, is used instead of the built one.")
    private KafkaAuthType saslAuthType;
    @UriParam(label = "common,security",
              description = "Username for SASL authentication. Used when saslAuthType is set to PLAIN, SCRAM_SHA_256, or SCRAM_SHA_512.")
    private String saslUsername;
    @UriParam(label = "common,security", secret = true,
              description = "Password for SASL authentication. Used when saslAuthType is set to PLAIN, SCRAM_SHA_256, or SCRAM_SHA_512.")
    private String saslPassword;
    @UriParam(label = "common,security",
              description = "The location of the key store file. This is optional for the client and can be used for two-way authentication for the client.")
    private String sslKeystoreLocation;
    @UriParam(label = "common,security", secret = true,
              description = "The store password for the key store file. This is optional for the client and only needed if sslKeystoreLocation is configured. Key store password is not supported for PEM format.")
    private String sslKeystorePassword;
    @UriParam(label = "common,security", secret = true,
              description = "The password of the private key in the key store file or the PEM key specified in sslKeystoreKey. This is required for clients only if two-way authentication is configured.")
    private String sslKeyPassword;
    @UriParam(label = "common,security", defaultValue = "JKS",
              description = "The file format of the key store file. This is optional for the client. The default value is JKS")
    private String sslKeystoreType = "JKS";
    @UriParam(label = "common,security",
              description = "The location of the trust store file.")
    private String sslTruststoreLocation;
    @UriParam(label = "common,security", secret = true,
              description = "The password for the trust store file. If a password is not set, trust store file configured will still be used, but integrity checking is disabled. Trust store password is not supported for PEM format.")
    private String sslTruststorePassword;
    @UriParam(label = "common,security", defaultValue = "JKS",
              description = "The file format of the trust store file. The default value is JKS.")
    private String sslTruststoreType = "JKS";
    @UriParam(label = "common,security",
              description = "The SSL protocol used to generate the SSLContext. The default is TLSv1.3 when running with Java 11 or newer, TLSv1.2 otherwise.")
    private String sslProtocol;
    @UriParam(label = "common,security",
              description = "The list of protocols enabled for SSL connections. The default is TLSv1.2,TLSv1.3 when running with Java 11 or newer, TLSv1.2 otherwise.")
    private String sslEnabledProtocols;
    @UriParam(label = "common,security", defaultValue = "https",
              description = "The endpoint identification algorithm to validate server hostname using server certificate. Use none or false to disable server hostname verification.")
    private String sslEndpointAlgorithm = "https";
    @UriParam(label = "common,security", defaultValue = "SunX509",
              description = "The algorithm used by key manager factory for SSL connections. Default value is the key manager factory algorithm configured for the Java Virtual Machine.")
    private String sslKeymanagerAlgorithm = "SunX509";
    @UriParam(label = "common,security", defaultValue = "PKIX",
              description = "The algorithm used by trust manager factory for SSL connections. Default value is the trust manager factory algorithm configured for the Java Virtual Machine.")
    private String sslTrustmanagerAlgorithm = "PKIX";
    @UriParam(label = "common,security",
              description = "A list of cipher suites. This is a named combination of authentication, encryption, MAC and key exchange algorithm used to negotiate the security settings for a network connection using TLS or SSL network protocol. By default, all the available cipher suites are supported.")
    private String sslCipherSuites;
    @UriParam(label = "common,security",
              description = "The name of the security provider used for SSL connections. Default value is the default security provider of the JVM.")
    private String sslProvider;
    @UriParam(label = "common,security",
              description = "The Kerberos principal name that Kafka runs as. This can be defined either in Kafka's JAAS config or in Kafka's config.")
    private String saslKerberosServiceName;
    @UriParam(label = "common,security", defaultValue = "/usr/bin/kinit",
              description = "Kerberos kinit command path. Default is /usr/bin/kinit")
    private String kerberosInitCmd = "/usr/bin/kinit";
    @UriParam(label = "common,security", defaultValue = "60000",
              description = "Login thread sleep time between refresh attempts.")
    private Integer kerberosBeforeReloginMinTime = 60000;
    @UriParam(label = "common,security", defaultValue = "0.05",
              description = "Percentage of random jitter added to the renewal time.")
    private Double kerberosRenewJitter = 0.05;
    @UriParam(label = "common,security", defaultValue = "0.8",
              description = "Login thread will sleep until the specified window factor of time from last refresh to ticket's expiry has been reached, at which time it will try to renew the ticket.")
    private Double kerberosRenewWindowFactor = 0.8;
    @UriParam(label = "common,security", defaultValue = "DEFAULT",
              description = "A list of rules for mapping from principal names to short names (typically operating system usernames). The rules are evaluated in order, and the first rule that matches a principal name is used to map it to a short name. Any later rules in the list are ignored. By default, principal names of the form {username}/{hostname}@{REALM} are mapped to {username}. Multiple values can be separated by comma")
    private String kerberosPrincipalToLocalRules;
    @UriParam(label = "common,security",
              description = "Location of the kerberos config file (set as the JVM's java.security.krb5.conf when the consumer starts, as camel-kafka does).")
    private String kerberosConfigLocation;
    @UriParam(label = "common,security",
              description = "OAuth client ID. Used when saslAuthType is set to OAUTH.")
    private String oauthClientId;
    @UriParam(label = "common,security", secret = true,
              description = "OAuth client secret. Used when saslAuthType is set to OAUTH.")
    private String oauthClientSecret;
    @UriParam(label = "common,security",
              description = "OAuth token endpoint URI. Used when saslAuthType is set to OAUTH.")
    private String oauthTokenEndpointUri;
    @UriParam(label = "common,security",
              description = "OAuth scope. Used when saslAuthType is set to OAUTH.")
    private String oauthScope;
    @UriParam(label = "common,security",
              description = "SSL configuration using a Camel SSLContextParameters object. If configured, it's applied before the other SSL endpoint parameters. NOTE: Kafka only supports loading keystore from file locations, so prefix the location with file: in the KeyStoreParameters.resource option.")
    private SSLContextParameters sslContextParameters;

    /**
     * A copy for one endpoint: the same values, with a map of additional properties of its own (the objects such as
     * deserializers and strategies are shared, as camel-kafka shares them).
     */
    public KafkaFetchClientConfiguration copy() {
        try {
            KafkaFetchClientConfiguration copy = (KafkaFetchClientConfiguration) clone();
            copy.additionalProperties = additionalProperties == null ? new HashMap<>()
                    : new HashMap<>(additionalProperties);
            return copy;
        } catch (CloneNotSupportedException e) {
            throw new RuntimeCamelException(e);
        }
    }

    public String getBrokers() {
        return brokers;
    }

    public void setBrokers(String brokers) {
        this.brokers = brokers;
    }

    public String getClientId() {
        return clientId;
    }

    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    public Integer getMaxPollIntervalMs() {
        return maxPollIntervalMs;
    }

    public void setMaxPollIntervalMs(Integer maxPollIntervalMs) {
        this.maxPollIntervalMs = maxPollIntervalMs;
    }

    public String getKeyDeserializer() {
        return keyDeserializer;
    }

    public void setKeyDeserializer(String keyDeserializer) {
        this.keyDeserializer = keyDeserializer;
    }

    public String getValueDeserializer() {
        return valueDeserializer;
    }

    public void setValueDeserializer(String valueDeserializer) {
        this.valueDeserializer = valueDeserializer;
    }

    public KafkaHeaderDeserializer getHeaderDeserializer() {
        return headerDeserializer;
    }

    public void setHeaderDeserializer(KafkaHeaderDeserializer headerDeserializer) {
        this.headerDeserializer = headerDeserializer;
    }

    public HeaderFilterStrategy getHeaderFilterStrategy() {
        return headerFilterStrategy;
    }

    public void setHeaderFilterStrategy(HeaderFilterStrategy headerFilterStrategy) {
        this.headerFilterStrategy = headerFilterStrategy;
    }

    public PollOnError getPollOnError() {
        return pollOnError;
    }

    public void setPollOnError(PollOnError pollOnError) {
        this.pollOnError = pollOnError;
    }

    public Integer getMetadataMaxAgeMs() {
        return metadataMaxAgeMs;
    }

    public void setMetadataMaxAgeMs(Integer metadataMaxAgeMs) {
        this.metadataMaxAgeMs = metadataMaxAgeMs;
    }

    public Integer getReconnectBackoffMaxMs() {
        return reconnectBackoffMaxMs;
    }

    public void setReconnectBackoffMaxMs(Integer reconnectBackoffMaxMs) {
        this.reconnectBackoffMaxMs = reconnectBackoffMaxMs;
    }

    public Integer getRetryBackoffMs() {
        return retryBackoffMs;
    }

    public void setRetryBackoffMs(Integer retryBackoffMs) {
        this.retryBackoffMs = retryBackoffMs;
    }

    public Integer getRetryBackoffMaxMs() {
        return retryBackoffMaxMs;
    }

    public void setRetryBackoffMaxMs(Integer retryBackoffMaxMs) {
        this.retryBackoffMaxMs = retryBackoffMaxMs;
    }

    public Integer getConsumerRequestTimeoutMs() {
        return consumerRequestTimeoutMs;
    }

    public void setConsumerRequestTimeoutMs(Integer consumerRequestTimeoutMs) {
        this.consumerRequestTimeoutMs = consumerRequestTimeoutMs;
    }

    public Boolean getCheckCrcs() {
        return checkCrcs;
    }

    public void setCheckCrcs(Boolean checkCrcs) {
        this.checkCrcs = checkCrcs;
    }

    public Integer getFetchMinBytes() {
        return fetchMinBytes;
    }

    public void setFetchMinBytes(Integer fetchMinBytes) {
        this.fetchMinBytes = fetchMinBytes;
    }

    public Integer getFetchMaxBytes() {
        return fetchMaxBytes;
    }

    public void setFetchMaxBytes(Integer fetchMaxBytes) {
        this.fetchMaxBytes = fetchMaxBytes;
    }

    public Integer getFetchWaitMaxMs() {
        return fetchWaitMaxMs;
    }

    public void setFetchWaitMaxMs(Integer fetchWaitMaxMs) {
        this.fetchWaitMaxMs = fetchWaitMaxMs;
    }

    public Integer getMaxPartitionFetchBytes() {
        return maxPartitionFetchBytes;
    }

    public void setMaxPartitionFetchBytes(Integer maxPartitionFetchBytes) {
        this.maxPartitionFetchBytes = maxPartitionFetchBytes;
    }

    public boolean isPreValidateHostAndPort() {
        return preValidateHostAndPort;
    }

    public void setPreValidateHostAndPort(boolean preValidateHostAndPort) {
        this.preValidateHostAndPort = preValidateHostAndPort;
    }

    public String getSchemaRegistryURL() {
        return schemaRegistryURL;
    }

    public void setSchemaRegistryURL(String schemaRegistryURL) {
        this.schemaRegistryURL = schemaRegistryURL;
    }

    public boolean isSpecificAvroReader() {
        return specificAvroReader;
    }

    public void setSpecificAvroReader(boolean specificAvroReader) {
        this.specificAvroReader = specificAvroReader;
    }

    public String getSecurityProtocol() {
        return securityProtocol;
    }

    public void setSecurityProtocol(String securityProtocol) {
        this.securityProtocol = securityProtocol;
    }

    public String getSaslMechanism() {
        return saslMechanism;
    }

    public void setSaslMechanism(String saslMechanism) {
        this.saslMechanism = saslMechanism;
    }

    public String getSaslJaasConfig() {
        return saslJaasConfig;
    }

    public void setSaslJaasConfig(String saslJaasConfig) {
        this.saslJaasConfig = saslJaasConfig;
    }

    public KafkaAuthType getSaslAuthType() {
        return saslAuthType;
    }

    public void setSaslAuthType(KafkaAuthType saslAuthType) {
        this.saslAuthType = saslAuthType;
    }

    public String getSaslUsername() {
        return saslUsername;
    }

    public void setSaslUsername(String saslUsername) {
        this.saslUsername = saslUsername;
    }

    public String getSaslPassword() {
        return saslPassword;
    }

    public void setSaslPassword(String saslPassword) {
        this.saslPassword = saslPassword;
    }

    public String getSslKeystoreLocation() {
        return sslKeystoreLocation;
    }

    public void setSslKeystoreLocation(String sslKeystoreLocation) {
        this.sslKeystoreLocation = sslKeystoreLocation;
    }

    public String getSslKeystorePassword() {
        return sslKeystorePassword;
    }

    public void setSslKeystorePassword(String sslKeystorePassword) {
        this.sslKeystorePassword = sslKeystorePassword;
    }

    public String getSslKeyPassword() {
        return sslKeyPassword;
    }

    public void setSslKeyPassword(String sslKeyPassword) {
        this.sslKeyPassword = sslKeyPassword;
    }

    public String getSslKeystoreType() {
        return sslKeystoreType;
    }

    public void setSslKeystoreType(String sslKeystoreType) {
        this.sslKeystoreType = sslKeystoreType;
    }

    public String getSslTruststoreLocation() {
        return sslTruststoreLocation;
    }

    public void setSslTruststoreLocation(String sslTruststoreLocation) {
        this.sslTruststoreLocation = sslTruststoreLocation;
    }

    public String getSslTruststorePassword() {
        return sslTruststorePassword;
    }

    public void setSslTruststorePassword(String sslTruststorePassword) {
        this.sslTruststorePassword = sslTruststorePassword;
    }

    public String getSslTruststoreType() {
        return sslTruststoreType;
    }

    public void setSslTruststoreType(String sslTruststoreType) {
        this.sslTruststoreType = sslTruststoreType;
    }

    public String getSslProtocol() {
        return sslProtocol;
    }

    public void setSslProtocol(String sslProtocol) {
        this.sslProtocol = sslProtocol;
    }

    public String getSslEnabledProtocols() {
        return sslEnabledProtocols;
    }

    public void setSslEnabledProtocols(String sslEnabledProtocols) {
        this.sslEnabledProtocols = sslEnabledProtocols;
    }

    public String getSslEndpointAlgorithm() {
        return sslEndpointAlgorithm;
    }

    public void setSslEndpointAlgorithm(String sslEndpointAlgorithm) {
        this.sslEndpointAlgorithm = sslEndpointAlgorithm;
    }

    public String getSslKeymanagerAlgorithm() {
        return sslKeymanagerAlgorithm;
    }

    public void setSslKeymanagerAlgorithm(String sslKeymanagerAlgorithm) {
        this.sslKeymanagerAlgorithm = sslKeymanagerAlgorithm;
    }

    public String getSslTrustmanagerAlgorithm() {
        return sslTrustmanagerAlgorithm;
    }

    public void setSslTrustmanagerAlgorithm(String sslTrustmanagerAlgorithm) {
        this.sslTrustmanagerAlgorithm = sslTrustmanagerAlgorithm;
    }

    public String getSslCipherSuites() {
        return sslCipherSuites;
    }

    public void setSslCipherSuites(String sslCipherSuites) {
        this.sslCipherSuites = sslCipherSuites;
    }

    public String getSslProvider() {
        return sslProvider;
    }

    public void setSslProvider(String sslProvider) {
        this.sslProvider = sslProvider;
    }

    public String getSaslKerberosServiceName() {
        return saslKerberosServiceName;
    }

    public void setSaslKerberosServiceName(String saslKerberosServiceName) {
        this.saslKerberosServiceName = saslKerberosServiceName;
    }

    public String getKerberosInitCmd() {
        return kerberosInitCmd;
    }

    public void setKerberosInitCmd(String kerberosInitCmd) {
        this.kerberosInitCmd = kerberosInitCmd;
    }

    public Integer getKerberosBeforeReloginMinTime() {
        return kerberosBeforeReloginMinTime;
    }

    public void setKerberosBeforeReloginMinTime(Integer kerberosBeforeReloginMinTime) {
        this.kerberosBeforeReloginMinTime = kerberosBeforeReloginMinTime;
    }

    public Double getKerberosRenewJitter() {
        return kerberosRenewJitter;
    }

    public void setKerberosRenewJitter(Double kerberosRenewJitter) {
        this.kerberosRenewJitter = kerberosRenewJitter;
    }

    public Double getKerberosRenewWindowFactor() {
        return kerberosRenewWindowFactor;
    }

    public void setKerberosRenewWindowFactor(Double kerberosRenewWindowFactor) {
        this.kerberosRenewWindowFactor = kerberosRenewWindowFactor;
    }

    public String getKerberosPrincipalToLocalRules() {
        return kerberosPrincipalToLocalRules;
    }

    public void setKerberosPrincipalToLocalRules(String kerberosPrincipalToLocalRules) {
        this.kerberosPrincipalToLocalRules = kerberosPrincipalToLocalRules;
    }

    public String getKerberosConfigLocation() {
        return kerberosConfigLocation;
    }

    public void setKerberosConfigLocation(String kerberosConfigLocation) {
        this.kerberosConfigLocation = kerberosConfigLocation;
    }

    public String getOauthClientId() {
        return oauthClientId;
    }

    public void setOauthClientId(String oauthClientId) {
        this.oauthClientId = oauthClientId;
    }

    public String getOauthClientSecret() {
        return oauthClientSecret;
    }

    public void setOauthClientSecret(String oauthClientSecret) {
        this.oauthClientSecret = oauthClientSecret;
    }

    public String getOauthTokenEndpointUri() {
        return oauthTokenEndpointUri;
    }

    public void setOauthTokenEndpointUri(String oauthTokenEndpointUri) {
        this.oauthTokenEndpointUri = oauthTokenEndpointUri;
    }

    public String getOauthScope() {
        return oauthScope;
    }

    public void setOauthScope(String oauthScope) {
        this.oauthScope = oauthScope;
    }

    public SSLContextParameters getSslContextParameters() {
        return sslContextParameters;
    }

    public void setSslContextParameters(SSLContextParameters sslContextParameters) {
        this.sslContextParameters = sslContextParameters;
    }

    public String getGroupId() {
        return groupId;
    }

    public void setGroupId(String groupId) {
        this.groupId = groupId;
    }

    public int getConsumersCount() {
        return consumersCount;
    }

    public void setConsumersCount(int consumersCount) {
        this.consumersCount = consumersCount;
    }

    public Long getPollTimeoutMs() {
        return pollTimeoutMs;
    }

    public void setPollTimeoutMs(Long pollTimeoutMs) {
        this.pollTimeoutMs = pollTimeoutMs;
    }

    public Long getCommitTimeoutMs() {
        return commitTimeoutMs;
    }

    public void setCommitTimeoutMs(Long commitTimeoutMs) {
        this.commitTimeoutMs = commitTimeoutMs;
    }

    public int getShutdownTimeout() {
        return shutdownTimeout;
    }

    public void setShutdownTimeout(int shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
    }

    public Map<String, Object> getAdditionalProperties() {
        return additionalProperties;
    }

    public void setAdditionalProperties(Map<String, Object> additionalProperties) {
        this.additionalProperties = additionalProperties;
    }

    public int getMaxConcurrency() {
        return maxConcurrency;
    }

    public void setMaxConcurrency(int maxConcurrency) {
        this.maxConcurrency = maxConcurrency;
    }
}
