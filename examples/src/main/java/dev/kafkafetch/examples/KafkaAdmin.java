package dev.kafkafetch.examples;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;

/** The few admin calls the example makes: create its topics if missing, and compare committed with end offsets. */
final class KafkaAdmin implements AutoCloseable {

    private static final long TIMEOUT_SECONDS = 30;

    private final Admin admin;

    KafkaAdmin(String brokers) {
        Map<String, Object> conf = new HashMap<>();
        conf.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
        conf.put(AdminClientConfig.CLIENT_ID_CONFIG, "kafka-fetch-example-admin");
        conf.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        conf.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        this.admin = Admin.create(conf);
    }

    /** Creates each topic that does not exist yet (replication factor 1 on one broker, else the broker default). */
    List<String> createMissingTopics(List<String> topics, int partitions, boolean singleBroker) throws Exception {
        Set<String> existing = get(admin.listTopics().names());
        List<NewTopic> missing = new ArrayList<>();
        for (String topic : topics) {
            if (!existing.contains(topic)) {
                missing.add(singleBroker ? new NewTopic(topic, partitions, (short) 1)
                        : new NewTopic(topic, java.util.Optional.of(partitions), java.util.Optional.empty()));
            }
        }
        List<String> created = new ArrayList<>();
        for (Map.Entry<String, org.apache.kafka.common.KafkaFuture<Void>> e : admin.createTopics(missing).values()
                .entrySet()) {
            try {
                get(e.getValue());
                created.add(e.getKey());
            } catch (ExecutionException ex) {
                if (!(ex.getCause() instanceof TopicExistsException)) {
                    throw ex;
                }
            }
        }
        return created;
    }

    /** Sum over the partitions of {@code topic} of (committed offset of {@code groupId}, end offset). */
    long[] committedAndEnd(String groupId, String topic) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = get(
                admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata());
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        get(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic).partitions()
                .forEach(p -> request.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        long end = 0;
        long done = 0;
        for (var e : get(admin.listOffsets(request).all()).entrySet()) {
            end += e.getValue().offset();
            OffsetAndMetadata c = committed.get(e.getKey());
            done += c == null ? 0 : c.offset();
        }
        return new long[] { done, end };
    }

    @Override
    public void close() {
        admin.close(java.time.Duration.ofSeconds(10));
    }

    private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future) throws Exception {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not answer within " + TIMEOUT_SECONDS + " s", e);
        }
    }
}
