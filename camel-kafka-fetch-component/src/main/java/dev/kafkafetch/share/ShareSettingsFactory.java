package dev.kafkafetch.share;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import dev.kafkafetch.ConsumerSettingsFactory;
import dev.kafkafetch.dispatch.Ordering;
import org.apache.kafka.clients.consumer.ConsumerConfig;

import static dev.kafkafetch.OptionChecks.blankToNull;

/**
 * Turns a {@code kafka-fetch-share} endpoint's options into {@link ShareSettings}, refusing bad input with an
 * {@link IllegalArgumentException} whose message names the option: missing brokers or groupId, non-positive counts and
 * timeouts, ordering PARTITION, deserializer classes that cannot be loaded, and client settings a share consumer
 * refuses or that would break the acknowledgement guarantees (the acknowledgement and acquire modes are the
 * component's).
 */
final class ShareSettingsFactory extends ConsumerSettingsFactory {

    /** Client settings refused in additionalProperties, and why. */
    static final Map<String, String> REFUSED_CLIENT_SETTINGS = refusedClientSettings();

    private final KafkaFetchShareEndpoint e;
    private final KafkaFetchShareConfiguration o;

    ShareSettingsFactory(KafkaFetchShareEndpoint endpoint) {
        super("kafka-fetch-share", endpoint.getConfiguration(), endpoint.getCamelContext());
        this.e = endpoint;
        this.o = endpoint.getConfiguration();
    }

    ShareSettings build() {
        ClientOptions client = checkClientOptions();
        checks.positive("maxInFlightRecords", o.getMaxInFlightRecords());
        checks.positive("maxDeliveryAttempts", o.getMaxDeliveryAttempts());
        checks.notNegative("stallTimeoutMs", o.getStallTimeoutMs());
        Ordering ordering = o.getOrdering();
        if (ordering == null || ordering == Ordering.PARTITION) {
            throw checks.invalid("ordering", "must be UNORDERED or KEY, was "
                                             + ordering + ": a share group delivers one partition's records to"
                                             + " several members at once, so no partition order can hold");
        }
        int consumersPerWindow = consumersPerWindow(ordering);
        int maxPollRecords = o.getMaxPollRecords() != null
                ? (int) checks.positive("maxPollRecords", o.getMaxPollRecords())
                : defaultMaxPollRecords(o.getMaxConcurrency(), consumersPerWindow, o.getMaxInFlightRecords());
        if (o.getMaxInFlightRecords() < maxPollRecords) {
            throw checks.invalid("maxInFlightRecords", "("
                                                       + o.getMaxInFlightRecords()
                                                       + ") must be at least maxPollRecords ("
                                                       + maxPollRecords + "): one poll must fit");
        }
        Class<?> keyDeserializer = deserializer("keyDeserializer", o.getKeyDeserializer());
        Class<?> valueDeserializer = deserializer("valueDeserializer", o.getValueDeserializer());

        List<String> topics = topicNames(e.getTopic());
        String dlt = blankToNull(o.getDeadLetterTopic());
        if (dlt != null && topics.contains(dlt)) {
            throw checks.invalid("deadLetterTopic", "(" + dlt
                                                    + ") must not be a topic this endpoint consumes");
        }

        // shared by the share consumers, the dead-letter producer and the admin client
        Properties common = commonProperties(client.brokers());

        Properties props = consumerProperties(client, common);
        props.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        props.put(ConsumerConfig.SHARE_ACQUIRE_MODE_CONFIG, "record_limit");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(maxPollRecords));
        Map<String, Object> extra = o.getAdditionalProperties();
        if (extra != null) {
            for (Map.Entry<String, Object> entry : extra.entrySet()) {
                String key = entry.getKey();
                if (entry.getValue() == null) {
                    continue;
                }
                String why = REFUSED_CLIENT_SETTINGS.get(key);
                if (why != null) {
                    throw checks.invalid("additionalProperties." + key, "is refused: " + why);
                }
                putAdditional(props, common, key, entry.getValue());
            }
        }

        KafkaFetchShareComponent c = e.getComponent();
        return new ShareSettings(client.groupId(), props, common, keyDeserializer, valueDeserializer,
                List.copyOf(topics),
                client.pollTimeoutMs(), maxPollRecords, o.getMaxInFlightRecords(), o.getMaxConcurrency(),
                consumersPerWindow, ordering,
                o.getMaxDeliveryAttempts(), dlt, o.getStallTimeoutMs(), client.commitTimeoutMs(),
                o.getShutdownTimeout(),
                c.getCreateConsumerBackoffMaxAttempts(), c.getCreateConsumerBackoffInterval(),
                c.getSubscribeConsumerBackoffMaxAttempts(), c.getSubscribeConsumerBackoffInterval(), masker(props));
    }

    /**
     * Two share consumers per window by default, so one acquires while the other's records run (measured:
     * src/benchmarks/share-2026-12-02.md); one with KEY.
     */
    static final int DEFAULT_CONSUMERS_PER_WINDOW = 2;

    /**
     * consumersPerWindow: {@link #DEFAULT_CONSUMERS_PER_WINDOW} unless set, 1 with KEY; positive, and 1 with KEY, as the
     * dispatchers of one window keep key order each on its own, not across them.
     */
    private int consumersPerWindow(Ordering ordering) {
        if (o.getConsumersPerWindow() == null) {
            return ordering == Ordering.KEY ? 1 : DEFAULT_CONSUMERS_PER_WINDOW;
        }
        int n = (int) checks.positive("consumersPerWindow", o.getConsumersPerWindow());
        if (n > 1 && ordering == Ordering.KEY) {
            throw checks.invalid("consumersPerWindow", "(" + n + ") must be 1 with ordering KEY: the records of one"
                                                       + " key that two consumers hold could run at once");
        }
        return n;
    }

    /** Rounds of maxConcurrency a window's share consumers hold together by default. */
    static final int DEFAULT_WINDOW_ROUNDS = 2;

    /**
     * Two rounds of the window's slots, split over its consumers (one round each with the default two), within
     * maxInFlightRecords: while one consumer's records run, the other's next round is acquired and ready, and a waiting
     * backlog spreads over the members that join a moment apart (ShareSpreadIT: with four or sixteen rounds per poll,
     * two of four members took all of a 400-record backlog). At the end of a burst a window then has at most about one
     * round more than the others to finish (two rounds per consumer left a window up to four rounds behind the others:
     * 80-85 % of the slots on a 400-record burst, src/benchmarks/share-2026-12-04.md; one round per consumer:
     * src/benchmarks/share-2026-12-04-full.md).
     */
    static int defaultMaxPollRecords(int maxConcurrency, int consumersPerWindow, int maxInFlightRecords) {
        long perConsumer = ((long) DEFAULT_WINDOW_ROUNDS * maxConcurrency + consumersPerWindow - 1)
                           / consumersPerWindow;
        return (int) Math.min(perConsumer, maxInFlightRecords);
    }

    private static Map<String, String> refusedClientSettings() {
        Map<String, String> m = new LinkedHashMap<>();
        String groupConfig = "it is a share group setting (kafka-configs --entity-type groups, or"
                             + " Admin.incrementalAlterConfigs), not a consumer's";
        m.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "where a share group starts is the group config"
                                                       + " share.auto.offset.reset; " + groupConfig);
        m.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "a share consumer commits no offsets; each record is"
                                                        + " acknowledged when it finishes");
        m.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "share groups have no static membership");
        m.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "the group config share.isolation.level decides; "
                                                     + groupConfig);
        m.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, "the broker assigns a share group's partitions");
        m.put(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, "the broker assigns a share group's partitions");
        m.put(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, "a share consumer takes no interceptors");
        m.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "the group config share.session.timeout.ms decides; "
                                                        + groupConfig);
        m.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "the group config share.heartbeat.interval.ms decides; "
                                                           + groupConfig);
        m.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "share groups have their own protocol");
        m.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "kafka-fetch-share acknowledges every record"
                                                                + " explicitly, as its outcome is decided");
        m.put(ConsumerConfig.SHARE_ACQUIRE_MODE_CONFIG, "kafka-fetch-share acquires at most maxPollRecords records"
                                                        + " per poll (record_limit), so none waits with a running"
                                                        + " lock before it is handed out");
        m.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, "use keyDeserializer");
        m.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, "use valueDeserializer");
        return Map.copyOf(m);
    }
}
