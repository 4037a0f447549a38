package dev.kafkafetch;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.kafkafetch.error.PollExceptionStrategy;
import org.apache.camel.Endpoint;
import org.apache.camel.SSLContextParametersAware;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.annotations.Component;
import org.apache.camel.support.HealthCheckComponent;
import org.apache.camel.support.PropertyBindingSupport;
import org.apache.camel.util.PropertiesHelper;

/**
 * The {@code kafka-fetch-share} component: consumes Kafka topics through share groups (KIP-932) with the fetch tasks,
 * parallel dispatcher, dead letters, console and health checks of {@code kafka-fetch}.
 * <p>
 * It holds a {@link KafkaFetchShareConfiguration} ({@code camel.component.kafka-fetch-share.<option>}); each endpoint
 * gets a copy, and the URI's options override it. The options of {@code kafka-fetch} that a share group cannot have
 * (offsets, commits, seeks, assignors, static membership, per-consumer session settings, batching,
 * breakOnFirstError, retry topics...) are refused when the endpoint is created, with a message that names the option
 * and says what to use instead.
 */
@Component("kafka-fetch-share")
public class KafkaFetchShareComponent extends HealthCheckComponent implements SSLContextParametersAware {

    /** kafka-fetch options a share endpoint refuses, and why. */
    static final Map<String, String> REFUSED_OPTIONS = refusedOptions();

    @Metadata(description = "Options every kafka-fetch-share endpoint starts from; an endpoint's own options"
                            + " override them.")
    private KafkaFetchShareConfiguration configuration = new KafkaFetchShareConfiguration();
    @Metadata(label = "security", defaultValue = "false",
              description = "Enable usage of global SSL context parameters: an endpoint without sslContextParameters"
                            + " uses the CamelContext's.")
    private boolean useGlobalSslContextParameters;
    @Metadata(label = "consumer,advanced", defaultValue = "5000",
              description = "The delay in milliseconds to wait before trying again to create the share consumer.")
    private long createConsumerBackoffInterval = 5000;
    @Metadata(label = "consumer,advanced",
              description = "Maximum attempts to create the share consumer, before eventually giving up and failing."
                            + " 0 (the default) retries forever.")
    private int createConsumerBackoffMaxAttempts;
    @Metadata(label = "consumer,advanced", defaultValue = "5000",
              description = "The delay in milliseconds to wait before trying again to subscribe.")
    private long subscribeConsumerBackoffInterval = 5000;
    @Metadata(label = "consumer,advanced",
              description = "Maximum number of attempts to subscribe, before eventually giving up and failing. 0 (the"
                            + " default) retries forever.")
    private int subscribeConsumerBackoffMaxAttempts;
    @Metadata(autowired = true, label = "advanced",
              description = "Factory creating the KafkaShareConsumers (each fetch task's, again after a reconnect)"
                            + " and the dead-letter producers, to wrap or instrument them. Autowired when the registry"
                            + " holds exactly one.")
    private KafkaClientFactory kafkaClientFactory;
    @Metadata(label = "consumer,advanced",
              description = "A custom strategy deciding what a fetch task does when poll() throws; overrides every"
                            + " endpoint's pollOnError.")
    private PollExceptionStrategy pollExceptionStrategy;

    @Override
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters) throws Exception {
        if (remaining == null || remaining.isBlank()) {
            throw new IllegalArgumentException(
                    "kafka-fetch-share: the topic is missing, e.g. kafka-fetch-share:orders?brokers=...&groupId=...");
        }
        for (String name : parameters.keySet()) {
            String why = REFUSED_OPTIONS.get(name);
            if (why != null) {
                throw new IllegalArgumentException("kafka-fetch-share option " + name + " is refused: " + why);
            }
        }
        Map<String, Object> endpointAdditional = PropertiesHelper.extractProperties(parameters,
                "additionalProperties.");
        KafkaFetchShareEndpoint endpoint = new KafkaFetchShareEndpoint(uri, this);
        endpoint.setConfiguration(getConfiguration().copy());
        endpoint.setTopic(remaining);
        setProperties(endpoint, parameters);
        if (endpoint.getConfiguration().getSslContextParameters() == null) {
            endpoint.getConfiguration().setSslContextParameters(retrieveGlobalSslContextParameters());
        }
        if (!endpointAdditional.isEmpty()) {
            Map<String, Object> resolved = new HashMap<>();
            PropertyBindingSupport.bindProperties(getCamelContext(), resolved, endpointAdditional);
            endpoint.getConfiguration().getAdditionalProperties().putAll(resolved);
        }
        return endpoint;
    }

    private static Map<String, String> refusedOptions() {
        Map<String, String> m = new LinkedHashMap<>();
        String groupConfig = " (a share group setting: kafka-configs --entity-type groups, or"
                             + " Admin.incrementalAlterConfigs)";
        String noOffsets = "a share group commits no offsets: each record is acknowledged on its own when it finishes";
        m.put("autoOffsetReset", "where a share group starts is the group config share.auto.offset.reset"
                                 + groupConfig);
        m.put("autoCommitEnable", noOffsets);
        m.put("autoCommitIntervalMs", noOffsets);
        m.put("allowManualCommit", noOffsets);
        m.put("kafkaManualCommitFactory", noOffsets);
        m.put("offsetMap", noOffsets);
        m.put("offsetRepository", noOffsets);
        m.put("seekTo", "a share group has no positions to seek");
        m.put("groupInstanceId", "share groups have no static membership");
        m.put("isolationLevel", "the group config share.isolation.level decides" + groupConfig);
        m.put("partitionAssignor", "the broker assigns a share group's partitions");
        m.put("groupRemoteAssignor", "the broker assigns a share group's partitions");
        m.put("groupProtocol", "share groups have their own protocol");
        m.put("sessionTimeoutMs", "the group config share.session.timeout.ms decides" + groupConfig);
        m.put("heartbeatIntervalMs", "the group config share.heartbeat.interval.ms decides" + groupConfig);
        m.put("revokeTimeoutMs", "share group members are not revoked partitions they work on");
        m.put("topicIsPattern", "a share consumer subscribes to topic names only");
        m.put("interceptorClasses", "a share consumer takes no interceptors");
        String perRecord = "each record is acknowledged on its own; a failed one is released for redelivery"
                           + " (maxDeliveryAttempts), then dead-lettered";
        m.put("batching", perRecord);
        m.put("batchingIntervalMs", perRecord);
        m.put("breakOnFirstError", perRecord);
        m.put("breakOnFirstErrorMaxAttempts", perRecord);
        m.put("retryDelays", "the broker redelivers released records: use maxDeliveryAttempts");
        m.put("retryTopicPattern", "the broker redelivers released records: use maxDeliveryAttempts");
        m.put("createRetryTopics", "the broker redelivers released records: use maxDeliveryAttempts");
        m.put("stallTimeoutMs", "not supported by kafka-fetch-share yet: a running record keeps its lock renewed");
        m.put("metricsPerPartition", "share fetch tasks are not assigned partitions of their own");
        return Map.copyOf(m);
    }

    @Override
    public boolean isUseGlobalSslContextParameters() {
        return useGlobalSslContextParameters;
    }

    @Override
    public void setUseGlobalSslContextParameters(boolean useGlobalSslContextParameters) {
        this.useGlobalSslContextParameters = useGlobalSslContextParameters;
    }

    public KafkaFetchShareConfiguration getConfiguration() {
        return configuration;
    }

    public void setConfiguration(KafkaFetchShareConfiguration configuration) {
        this.configuration = configuration;
    }

    public long getCreateConsumerBackoffInterval() {
        return createConsumerBackoffInterval;
    }

    public void setCreateConsumerBackoffInterval(long createConsumerBackoffInterval) {
        this.createConsumerBackoffInterval = createConsumerBackoffInterval;
    }

    public int getCreateConsumerBackoffMaxAttempts() {
        return createConsumerBackoffMaxAttempts;
    }

    public void setCreateConsumerBackoffMaxAttempts(int createConsumerBackoffMaxAttempts) {
        this.createConsumerBackoffMaxAttempts = createConsumerBackoffMaxAttempts;
    }

    public long getSubscribeConsumerBackoffInterval() {
        return subscribeConsumerBackoffInterval;
    }

    public void setSubscribeConsumerBackoffInterval(long subscribeConsumerBackoffInterval) {
        this.subscribeConsumerBackoffInterval = subscribeConsumerBackoffInterval;
    }

    public int getSubscribeConsumerBackoffMaxAttempts() {
        return subscribeConsumerBackoffMaxAttempts;
    }

    public void setSubscribeConsumerBackoffMaxAttempts(int subscribeConsumerBackoffMaxAttempts) {
        this.subscribeConsumerBackoffMaxAttempts = subscribeConsumerBackoffMaxAttempts;
    }

    public KafkaClientFactory getKafkaClientFactory() {
        return kafkaClientFactory;
    }

    public void setKafkaClientFactory(KafkaClientFactory kafkaClientFactory) {
        this.kafkaClientFactory = kafkaClientFactory;
    }

    public PollExceptionStrategy getPollExceptionStrategy() {
        return pollExceptionStrategy;
    }

    public void setPollExceptionStrategy(PollExceptionStrategy pollExceptionStrategy) {
        this.pollExceptionStrategy = pollExceptionStrategy;
    }
}
