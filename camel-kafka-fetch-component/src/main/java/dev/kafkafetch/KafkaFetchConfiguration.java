package dev.kafkafetch;

import java.util.HashMap;
import java.util.Map;

import dev.kafkafetch.commit.DefaultKafkaManualCommitFactory;
import dev.kafkafetch.commit.KafkaManualCommitFactory;
import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.error.PollOnError;
import dev.kafkafetch.security.KafkaAuthType;
import dev.kafkafetch.serde.DefaultKafkaHeaderDeserializer;
import dev.kafkafetch.serde.KafkaFetchHeaderFilterStrategy;
import dev.kafkafetch.serde.KafkaHeaderDeserializer;
import dev.kafkafetch.task.SeekPolicy;
import org.apache.camel.RuntimeCamelException;
import org.apache.camel.spi.HeaderFilterStrategy;
import org.apache.camel.spi.HeaderFilterStrategyAware;
import org.apache.camel.spi.StateRepository;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriParams;
import org.apache.camel.support.jsse.SSLContextParameters;

/**
 * Every option of a {@code kafka-fetch} endpoint, as camel-kafka's {@code KafkaConfiguration} holds them: the component
 * keeps one instance (set once per application with {@code camel.component.kafka-fetch.<option>}) and each endpoint
 * gets a {@link #copy()} of it, on which the endpoint URI's options are set, so an endpoint value overrides the
 * component's. Nothing is validated here: {@link EndpointSettings} checks every option when the route starts.
 */
@UriParams
public class KafkaFetchConfiguration implements Cloneable, HeaderFilterStrategyAware {

    @UriParam(label = "common",
              description = "URL of the Kafka brokers to use. The format is host1:port1,host2:port2. Required.")
    private String brokers;
    @UriParam(label = "common",
              description = "The client id sent with each request to help trace calls. With consumersCount above 1, each fetch task appends a dash and its index.")
    private String clientId;
    @UriParam(label = "consumer",
              description = "The consumer group this route's fetch tasks belong to. Required: kafka-fetch never invents a random group.")
    private String groupId;
    @UriParam(label = "consumer",
              description = "A unique identifier of the consumer instance (static membership). With consumersCount above 1, each fetch task appends a dash and its index.")
    private String groupInstanceId;
    @UriParam(label = "consumer", defaultValue = "1",
              description = "The number of fetch tasks: each runs its own thread and its own KafkaConsumer in the group.")
    private int consumersCount = 1;
    @UriParam(label = "consumer", defaultValue = "latest", enums = "latest,earliest,none",
              description = "What to do when there is no committed offset: earliest, latest, or none (fail).")
    private String autoOffsetReset = "latest";
    @UriParam(label = "consumer", defaultValue = "true",
              description = "Whether the component commits finished offsets by itself (every autoCommitIntervalMs, on revoke and on shutdown). Kafka's own enable.auto.commit is never used: it would commit records that are not processed yet.")
    private boolean autoCommitEnable = true;
    @UriParam(label = "consumer", defaultValue = "5000",
              description = "How often, in ms, finished offsets are committed.")
    private Integer autoCommitIntervalMs = 5000;
    @UriParam(label = "consumer", defaultValue = "500",
              description = "The maximum number of records returned in a single call to poll().")
    private Integer maxPollRecords = 500;
    @UriParam(label = "consumer", javaType = "java.time.Duration",
              description = "The maximum delay between invocations of poll() before the consumer is considered failed (Kafka's max.poll.interval.ms). kafka-fetch keeps polling while the route works, so slow routes do not need a large value.")
    private Integer maxPollIntervalMs;
    @UriParam(label = "consumer", defaultValue = "5000", javaType = "java.time.Duration",
              description = "The timeout used when polling the KafkaConsumer (while no record is in flight). A number of milliseconds or a duration such as 5s.")
    private Long pollTimeoutMs = 5000L;
    @UriParam(label = "consumer", defaultValue = "45000",
              description = "The timeout used to detect failures when using Kafka's group management facilities.")
    private Integer sessionTimeoutMs = 45000;
    @UriParam(label = "consumer", defaultValue = "3000",
              description = "The expected time between heartbeats to the consumer coordinator.")
    private Integer heartbeatIntervalMs = 3000;
    @UriParam(label = "consumer", defaultValue = "classic", enums = "classic,consumer",
              description = "The consumer group protocol: classic, or consumer (KIP-848).")
    private String groupProtocol = "classic";
    @UriParam(label = "consumer,advanced",
              description = "The server-side assignor to use when groupProtocol is consumer.")
    private String groupRemoteAssignor;
    @UriParam(label = "consumer", defaultValue = "org.apache.kafka.clients.consumer.RangeAssignor",
              description = "The class name of the partition assignment strategy (classic protocol).")
    private String partitionAssignor = "org.apache.kafka.clients.consumer.RangeAssignor";
    @UriParam(label = "consumer",
              description = "Start from the BEGINNING or the END of each partition on the consumer's first assignment (not on later rebalances), whatever was committed.")
    private SeekPolicy seekTo;
    @UriParam(label = "consumer", defaultValue = "false",
              description = "Whether the topic is a regular expression to subscribe to.")
    private boolean topicIsPattern = false;
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
    @UriParam(label = "consumer,advanced", defaultValue = "read_uncommitted", enums = "read_uncommitted,read_committed",
              description = "How to read transactionally written records.")
    private String isolationLevel = "read_uncommitted";
    @UriParam(label = "consumer", defaultValue = "5000", javaType = "java.time.Duration",
              description = "The maximum time to wait for a synchronous commit (milliseconds, or a duration such as 5s).")
    private Long commitTimeoutMs = 5000L;
    @UriParam(label = "common", defaultValue = "30000",
              description = "Time in ms to wait, on stop, for records already in the route to finish before committing and closing.")
    private int shutdownTimeout = 30000;
    @UriParam(label = "common", prefix = "additionalProperties.", multiValue = true,
              description = "Sets additional properties for the Kafka consumer (additionalProperties.xxx=yyy), for settings without an option of their own.")
    private Map<String, Object> additionalProperties = new HashMap<>();
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
                            + " trust store is set or securityProtocol is SSL). OAUTH, AWS_MSK_IAM and KERBEROS need"
                            + " saslJaasConfig. A saslJaasConfig, when set, is used instead of the built one.")
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
    @UriParam(label = "consumer", defaultValue = "1",
              description = "How many records of one fetch task may be in the route at once. Larger values process slow routes in parallel beyond the partition count, in the order chosen by ordering.")
    private int maxConcurrency = 1;
    @UriParam(label = "consumer", defaultValue = "PARTITION",
              description = "Which records may run at the same time: PARTITION (one at a time per partition), KEY (one at a time per key within a partition; null keys are all different) or UNORDERED.")
    private Ordering ordering = Ordering.PARTITION;
    @UriParam(label = "consumer", defaultValue = "5000",
              description = "The most records one fetch task holds since its committable offsets: unfinished ones, and finished ones waiting behind an unfinished one. Before one more poll could pass it, the task pauses its partitions (and keeps polling) instead of buffering; this also bounds what a crash re-delivers. Must be at least maxPollRecords.")
    private int maxInFlightRecords = 5000;
    @UriParam(label = "consumer,advanced", defaultValue = "10000",
              description = "On a rebalance, how long to wait for the revoked partitions' records already in the route before committing what finished; the rest is re-delivered to the new owner.")
    private long revokeTimeoutMs = 10000;
    @UriParam(label = "consumer", defaultValue = "0",
              description = "A record still in the route after this many ms is reported as stalled (WARN with the thread's stack, metric); with a deadLetterTopic it is dead-lettered so its partition moves on. 0 = off.")
    private long stallTimeoutMs = 0;
    @UriParam(label = "consumer",
              description = "Topic receiving the records that are still failed after Camel's error handler (and stalled ones), with provenance headers. A record counts as finished once the broker acknowledged its dead letter.")
    private String deadLetterTopic;
    @UriParam(label = "consumer",
              description = "Non-blocking retries: a comma list of increasing durations (e.g. 1s,30s,5m). A record still failed after Camel's error handler goes to retry topic 1, 2, ... in turn and is routed again from there once its delay passed (its retry topic's partition is paused meanwhile; nothing sleeps); after the last one it goes to the deadLetterTopic, or is logged and skipped. The route consumes its own retry topics. A retried record leaves its partition's and key's order. Not with breakOnFirstError.")
    private String retryDelays;
    @UriParam(label = "consumer,advanced", defaultValue = "{topic}.retry-{n}",
              description = "The names of the retry topics: {topic} is the source topic, {n} the retry number (1, 2, ...).")
    private String retryTopicPattern = "{topic}.retry-{n}";
    @UriParam(label = "consumer,advanced", defaultValue = "true",
              description = "Whether missing retry topics are created at route start (with their source topic's partition count); when false a missing one fails the route's start.")
    private boolean createRetryTopics = true;
    @UriParam(label = "consumer", defaultValue = "true",
              description = "Whether each commit also names, in its metadata, the records finished above the committed offset (they finish out of order with maxConcurrency above 1), so that a new owner of the partition or a restarted route does not route them again. Applies to the component's own commits (autoCommitEnable=true). A map that does not fit the broker's offset.metadata.max.bytes is left out; metadata that is not such a map is ignored.")
    private boolean offsetMap = true;
    @UriParam(label = "consumer,advanced", defaultValue = "false",
              description = "Whether to publish per-partition Micrometer meters (kafka.fetch.partition.lag, kafka.fetch.partition.in.flight, kafka.fetch.partition.held, tagged with topic and partition) besides the per fetch task ones. Off by default to keep the number of series small. Meters are registered only when Micrometer is on the classpath and a MeterRegistry is in the Camel registry.")
    private boolean metricsPerPartition = false;

    @UriParam(label = "consumer", defaultValue = "false",
              description = "When a record's exchange is still failed after Camel's error handler: start nothing more of its partition, drop that partition's records polled after it, seek back to it and poll again, without leaving the group. Other partitions go on. With batching, every partition of the failed batch is sought back and the batch is delivered again whole. See breakOnFirstErrorMaxAttempts.")
    private boolean breakOnFirstError = false;
    @UriParam(label = "consumer", defaultValue = "0",
              description = "With breakOnFirstError, how many times a record (or batch) is delivered before it is handled as without breakOnFirstError (dead-lettered, or logged and skipped). 0 = no limit: a record that always fails stops its partition, as camel-kafka does for single records (camel-kafka moves past a failed batch; kafka-fetch retries it too). Every retry is logged at WARN with its topic, partition and offset.")
    private int breakOnFirstErrorMaxAttempts = 0;
    @UriParam(label = "consumer", defaultValue = "false",
              description = "Whether to put a KafkaManualCommit in header CamelKafkaManualCommit. Its commit() may be called from any thread; the fetch thread commits, never past an unfinished record of the partition.")
    private boolean allowManualCommit = false;
    @UriParam(label = "consumer,advanced",
              description = "Factory of the KafkaManualCommit instances: synchronous (default, waits for the broker) or DefaultKafkaManualAsyncCommitFactory.")
    private KafkaManualCommitFactory kafkaManualCommitFactory = new DefaultKafkaManualCommitFactory();
    @UriParam(label = "consumer", defaultValue = "ERROR_HANDLER",
              description = "What to do if poll() throws: DISCARD, ERROR_HANDLER, RECONNECT, RETRY or STOP. Authentication and authorization errors always stop the task. A component-level pollExceptionStrategy overrides it.")
    private PollOnError pollOnError = PollOnError.ERROR_HANDLER;
    @UriParam(label = "consumer", defaultValue = "false",
              description = "Whether to process records in batches: one exchange per poll (or per batchingIntervalMs), whose body is the List of per-record exchanges. A batch finishes, fails and commits as a whole.")
    private boolean batching = false;
    @UriParam(label = "consumer",
              description = "In batching mode, collect records over polls and complete the batch after this many ms (counted from its first record) or when maxPollRecords records are collected, whichever comes first. Without it, one batch per poll.")
    private Integer batchingIntervalMs;

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
    @UriParam(label = "common,monitoring",
              description = "Sets interceptors for the Kafka consumer (comma-separated ConsumerInterceptor class names). They see every record as polled, with byte[] key and value (kafka-fetch deserializes per record later), and every offset kafka-fetch commits, which is never past an unfinished record.")
    private String interceptorClasses;
    @UriParam(label = "consumer", defaultValue = "true",
              description = "Automatically check the CRC32 of the records consumed. This ensures no on-the-wire or on-disk corruption to the messages occurred. This check adds some overhead, so it may be disabled in cases seeking extreme performance.")
    private Boolean checkCrcs = true;
    @UriParam(label = "consumer", defaultValue = "30000",
              description = "The configuration controls the maximum amount of time the client will wait for the response of a request. If the response is not received before the timeout elapses, the client will resend the request if necessary or fail the request if retries are exhausted.")
    private Integer consumerRequestTimeoutMs = 30000;
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
    @UriParam(label = "consumer",
              description = "The offset repository to use to locally store the offset of each partition of the topic (key topic/partition, value the last finished offset, as camel-kafka writes it). kafka-fetch writes it at each commit with the committable offset, never past an unfinished record, and on each assignment starts a partition it holds a value for right after that value. Commits to Kafka go on as configured; with autoCommitEnable=false only manual commits reach the repository.")
    private StateRepository<String, String> offsetRepository;
    @UriParam(label = "consumer", defaultValue = "true",
              description = "Whether to eagerly validate that each broker host:port is valid and can be DNS resolved when the route starts. If the validation fails, the route fails to start naming the brokers option. Disabling this postpones the validation until the consumer is created, and the fetch task keeps re-creating it (createConsumerBackoff*).")
    private boolean preValidateHostAndPort = true;
    @UriParam(label = "schema,consumer",
              description = "This enables the use of a specific Avro reader for use with the Confluent Platform schema registry and the io.confluent.kafka.serializers.KafkaAvroDeserializer (specific.avro.reader=true for the deserializers).")
    private boolean specificAvroReader = false;
    @UriParam(label = "schema",
              description = "URL of the schema registry servers to use (schema.registry.url for the deserializers). The format is host1:port1,host2:port2. This is known as schema.registry.url in multiple Schema registries documentation.")
    private String schemaRegistryURL;
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
    public KafkaFetchConfiguration copy() {
        try {
            KafkaFetchConfiguration copy = (KafkaFetchConfiguration) clone();
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

    public String getGroupId() {
        return groupId;
    }

    public void setGroupId(String groupId) {
        this.groupId = groupId;
    }

    public String getGroupInstanceId() {
        return groupInstanceId;
    }

    public void setGroupInstanceId(String groupInstanceId) {
        this.groupInstanceId = groupInstanceId;
    }

    public int getConsumersCount() {
        return consumersCount;
    }

    public void setConsumersCount(int consumersCount) {
        this.consumersCount = consumersCount;
    }

    public String getAutoOffsetReset() {
        return autoOffsetReset;
    }

    public void setAutoOffsetReset(String autoOffsetReset) {
        this.autoOffsetReset = autoOffsetReset;
    }

    public boolean isAutoCommitEnable() {
        return autoCommitEnable;
    }

    public void setAutoCommitEnable(boolean autoCommitEnable) {
        this.autoCommitEnable = autoCommitEnable;
    }

    public Integer getAutoCommitIntervalMs() {
        return autoCommitIntervalMs;
    }

    public void setAutoCommitIntervalMs(Integer autoCommitIntervalMs) {
        this.autoCommitIntervalMs = autoCommitIntervalMs;
    }

    public Integer getMaxPollRecords() {
        return maxPollRecords;
    }

    public void setMaxPollRecords(Integer maxPollRecords) {
        this.maxPollRecords = maxPollRecords;
    }

    public Integer getMaxPollIntervalMs() {
        return maxPollIntervalMs;
    }

    public void setMaxPollIntervalMs(Integer maxPollIntervalMs) {
        this.maxPollIntervalMs = maxPollIntervalMs;
    }

    public Long getPollTimeoutMs() {
        return pollTimeoutMs;
    }

    public void setPollTimeoutMs(Long pollTimeoutMs) {
        this.pollTimeoutMs = pollTimeoutMs;
    }

    public Integer getSessionTimeoutMs() {
        return sessionTimeoutMs;
    }

    public void setSessionTimeoutMs(Integer sessionTimeoutMs) {
        this.sessionTimeoutMs = sessionTimeoutMs;
    }

    public Integer getHeartbeatIntervalMs() {
        return heartbeatIntervalMs;
    }

    public void setHeartbeatIntervalMs(Integer heartbeatIntervalMs) {
        this.heartbeatIntervalMs = heartbeatIntervalMs;
    }

    public String getGroupProtocol() {
        return groupProtocol;
    }

    public void setGroupProtocol(String groupProtocol) {
        this.groupProtocol = groupProtocol;
    }

    public String getGroupRemoteAssignor() {
        return groupRemoteAssignor;
    }

    public void setGroupRemoteAssignor(String groupRemoteAssignor) {
        this.groupRemoteAssignor = groupRemoteAssignor;
    }

    public String getPartitionAssignor() {
        return partitionAssignor;
    }

    public void setPartitionAssignor(String partitionAssignor) {
        this.partitionAssignor = partitionAssignor;
    }

    public SeekPolicy getSeekTo() {
        return seekTo;
    }

    public void setSeekTo(SeekPolicy seekTo) {
        this.seekTo = seekTo;
    }

    public boolean isTopicIsPattern() {
        return topicIsPattern;
    }

    public void setTopicIsPattern(boolean topicIsPattern) {
        this.topicIsPattern = topicIsPattern;
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

    public String getIsolationLevel() {
        return isolationLevel;
    }

    public void setIsolationLevel(String isolationLevel) {
        this.isolationLevel = isolationLevel;
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

    public int getMaxConcurrency() {
        return maxConcurrency;
    }

    public void setMaxConcurrency(int maxConcurrency) {
        this.maxConcurrency = maxConcurrency;
    }

    public Ordering getOrdering() {
        return ordering;
    }

    public void setOrdering(Ordering ordering) {
        this.ordering = ordering;
    }

    public int getMaxInFlightRecords() {
        return maxInFlightRecords;
    }

    public void setMaxInFlightRecords(int maxInFlightRecords) {
        this.maxInFlightRecords = maxInFlightRecords;
    }

    public long getRevokeTimeoutMs() {
        return revokeTimeoutMs;
    }

    public void setRevokeTimeoutMs(long revokeTimeoutMs) {
        this.revokeTimeoutMs = revokeTimeoutMs;
    }

    public long getStallTimeoutMs() {
        return stallTimeoutMs;
    }

    public void setStallTimeoutMs(long stallTimeoutMs) {
        this.stallTimeoutMs = stallTimeoutMs;
    }

    public String getRetryDelays() {
        return retryDelays;
    }

    public void setRetryDelays(String retryDelays) {
        this.retryDelays = retryDelays;
    }

    public String getRetryTopicPattern() {
        return retryTopicPattern;
    }

    public void setRetryTopicPattern(String retryTopicPattern) {
        this.retryTopicPattern = retryTopicPattern;
    }

    public boolean isCreateRetryTopics() {
        return createRetryTopics;
    }

    public void setCreateRetryTopics(boolean createRetryTopics) {
        this.createRetryTopics = createRetryTopics;
    }

    public boolean isOffsetMap() {
        return offsetMap;
    }

    public void setOffsetMap(boolean offsetMap) {
        this.offsetMap = offsetMap;
    }

    public boolean isMetricsPerPartition() {
        return metricsPerPartition;
    }

    public void setMetricsPerPartition(boolean metricsPerPartition) {
        this.metricsPerPartition = metricsPerPartition;
    }

    public String getDeadLetterTopic() {
        return deadLetterTopic;
    }

    public void setDeadLetterTopic(String deadLetterTopic) {
        this.deadLetterTopic = deadLetterTopic;
    }

    public boolean isBreakOnFirstError() {
        return breakOnFirstError;
    }

    public void setBreakOnFirstError(boolean breakOnFirstError) {
        this.breakOnFirstError = breakOnFirstError;
    }

    public int getBreakOnFirstErrorMaxAttempts() {
        return breakOnFirstErrorMaxAttempts;
    }

    public void setBreakOnFirstErrorMaxAttempts(int breakOnFirstErrorMaxAttempts) {
        this.breakOnFirstErrorMaxAttempts = breakOnFirstErrorMaxAttempts;
    }

    public boolean isAllowManualCommit() {
        return allowManualCommit;
    }

    public void setAllowManualCommit(boolean allowManualCommit) {
        this.allowManualCommit = allowManualCommit;
    }

    public KafkaManualCommitFactory getKafkaManualCommitFactory() {
        return kafkaManualCommitFactory;
    }

    public void setKafkaManualCommitFactory(KafkaManualCommitFactory kafkaManualCommitFactory) {
        this.kafkaManualCommitFactory = kafkaManualCommitFactory;
    }

    public PollOnError getPollOnError() {
        return pollOnError;
    }

    public void setPollOnError(PollOnError pollOnError) {
        this.pollOnError = pollOnError;
    }

    public boolean isBatching() {
        return batching;
    }

    public void setBatching(boolean batching) {
        this.batching = batching;
    }

    public Integer getBatchingIntervalMs() {
        return batchingIntervalMs;
    }

    public void setBatchingIntervalMs(Integer batchingIntervalMs) {
        this.batchingIntervalMs = batchingIntervalMs;
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

    public String getInterceptorClasses() {
        return interceptorClasses;
    }

    public void setInterceptorClasses(String interceptorClasses) {
        this.interceptorClasses = interceptorClasses;
    }

    public Boolean getCheckCrcs() {
        return checkCrcs;
    }

    public void setCheckCrcs(Boolean checkCrcs) {
        this.checkCrcs = checkCrcs;
    }

    public Integer getConsumerRequestTimeoutMs() {
        return consumerRequestTimeoutMs;
    }

    public void setConsumerRequestTimeoutMs(Integer consumerRequestTimeoutMs) {
        this.consumerRequestTimeoutMs = consumerRequestTimeoutMs;
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

    public StateRepository<String, String> getOffsetRepository() {
        return offsetRepository;
    }

    public void setOffsetRepository(StateRepository<String, String> offsetRepository) {
        this.offsetRepository = offsetRepository;
    }

    public boolean isPreValidateHostAndPort() {
        return preValidateHostAndPort;
    }

    public void setPreValidateHostAndPort(boolean preValidateHostAndPort) {
        this.preValidateHostAndPort = preValidateHostAndPort;
    }

    public boolean isSpecificAvroReader() {
        return specificAvroReader;
    }

    public void setSpecificAvroReader(boolean specificAvroReader) {
        this.specificAvroReader = specificAvroReader;
    }

    public String getSchemaRegistryURL() {
        return schemaRegistryURL;
    }

    public void setSchemaRegistryURL(String schemaRegistryURL) {
        this.schemaRegistryURL = schemaRegistryURL;
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
}
