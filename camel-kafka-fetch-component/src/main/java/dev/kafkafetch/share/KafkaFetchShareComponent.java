package dev.kafkafetch.share;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.kafkafetch.AbstractKafkaFetchComponent;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.annotations.Component;

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
public class KafkaFetchShareComponent
        extends AbstractKafkaFetchComponent<KafkaFetchShareConfiguration, KafkaFetchShareEndpoint> {

    /** kafka-fetch options a share endpoint refuses, and why. */
    static final Map<String, String> REFUSED_OPTIONS = refusedOptions();

    @Metadata(description = "Options every kafka-fetch-share endpoint starts from; an endpoint's own options"
                            + " override them.")
    private KafkaFetchShareConfiguration configuration = new KafkaFetchShareConfiguration();

    public KafkaFetchShareComponent() {
        super("kafka-fetch-share");
    }

    @Override
    protected void refuseOptions(Map<String, Object> parameters) {
        for (String name : parameters.keySet()) {
            String why = REFUSED_OPTIONS.get(name);
            if (why != null) {
                throw new IllegalArgumentException("kafka-fetch-share option " + name + " is refused: " + why);
            }
        }
    }

    @Override
    protected KafkaFetchShareEndpoint newEndpoint(String uri, String topic,
                                                  KafkaFetchShareConfiguration configuration) {
        KafkaFetchShareEndpoint endpoint = new KafkaFetchShareEndpoint(uri, this);
        endpoint.setConfiguration(configuration);
        endpoint.setTopic(topic);
        return endpoint;
    }

    @Override
    protected String exampleUri() {
        return "kafka-fetch-share:orders?brokers=...&groupId=...";
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
        m.put("finishedCommitIntervalMs", noOffsets);
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
        m.put("metricsPerPartition", "share fetch tasks are not assigned partitions of their own");
        return Map.copyOf(m);
    }

    @Override
    public KafkaFetchShareConfiguration getConfiguration() {
        return configuration;
    }

    public void setConfiguration(KafkaFetchShareConfiguration configuration) {
        this.configuration = configuration;
    }
}
