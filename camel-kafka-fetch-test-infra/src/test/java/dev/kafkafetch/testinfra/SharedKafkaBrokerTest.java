package dev.kafkafetch.testinfra;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class SharedKafkaBrokerTest {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.shared();

    static KafkaTestSupport kafka;

    @BeforeAll
    static void setUp() {
        kafka = new KafkaTestSupport(KAFKA.bootstrapServers());
    }

    @AfterAll
    static void tearDown() {
        kafka.close();
    }

    @Test
    void sharedBrokerIsOneEmbeddedNodeAndTheSameInstanceEverywhere(KafkaService injected) {
        assertThat(KafkaServices.instanceType()).isEqualTo(KafkaServices.TYPE_EMBEDDED);
        assertThat(injected).isSameAs(KafkaServices.shared()).isSameAs(KAFKA.service())
                .isInstanceOf(EmbeddedKafkaCluster.class);
        assertThat(injected.brokerCount()).isEqualTo(1);
        assertThat(injected.bootstrapServers()).matches("localhost:\\d+");
    }

    @Test
    void createsATopicWithThreePartitions() {
        String topic = KafkaTestSupport.uniqueName("three");
        kafka.createTopic(topic, 3);
        assertThat(kafka.endOffsets(topic)).containsOnlyKeys(
                new TopicPartition(topic, 0), new TopicPartition(topic, 1), new TopicPartition(topic, 2))
                .containsValues(0L);
    }

    @Test
    void produceIdsAndReadAllRoundTrip() {
        String topic = KafkaTestSupport.uniqueName("roundtrip");
        kafka.createTopic(topic, 3);
        List<String> ids = kafka.produceIds(topic, 300, "rt", 7);

        assertThat(ids).hasSize(300).startsWith("id-rt-0", "id-rt-1").endsWith("id-rt-299");
        List<ConsumerRecord<String, String>> records = kafka.readAll(topic, Duration.ofSeconds(20));
        assertThat(records).extracting(ConsumerRecord::value).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(records)
                .allSatisfy(r -> assertThat(r.key()).isEqualTo("k" + (Integer.parseInt(r.value().substring(6)) % 7)));
        // the default partitioner spreads the 7 keys; one key always lands on one partition, in produce order
        assertThat(records.stream().map(ConsumerRecord::partition).distinct().count()).isGreaterThan(1);
        Map<String, List<Integer>> partitionsByKey = records.stream().collect(
                Collectors.groupingBy(ConsumerRecord::key,
                        Collectors.mapping(ConsumerRecord::partition, Collectors.toList())));
        assertThat(partitionsByKey.values()).allSatisfy(ps -> assertThat(ps.stream().distinct()).hasSize(1));
        assertThat(kafka.endOffsets(topic).values().stream().mapToLong(Long::longValue).sum()).isEqualTo(300);
    }

    @Test
    void producesHeadersExplicitPartitionsAndRawBytes(KafkaTestSupport injectedSupport) {
        String topic = KafkaTestSupport.uniqueName("raw");
        injectedSupport.createTopic(topic, 2);
        injectedSupport.produce(topic, 1, "key", "value", Map.of("h", "hv".getBytes(StandardCharsets.UTF_8)));
        injectedSupport.produce(topic, null, null, null, null);
        injectedSupport.produceBytes(topic, 0, null, new byte[] { (byte) 0xff, 0x00 });

        List<ConsumerRecord<String, String>> records = injectedSupport.readAll(topic, Duration.ofSeconds(20));
        assertThat(records).hasSize(3);
        ConsumerRecord<String, String> withHeader = records.stream().filter(r -> "key".equals(r.key())).findFirst()
                .orElseThrow();
        assertThat(withHeader.partition()).isEqualTo(1);
        assertThat(withHeader.value()).isEqualTo("value");
        assertThat(withHeader.headers().lastHeader("h").value()).asString(StandardCharsets.UTF_8).isEqualTo("hv");
    }

    @ParameterizedTest
    @ValueSource(strings = { "classic", "consumer" })
    void committedOffsetsReadsAGroupsCommit(String groupProtocol) {
        String topic = KafkaTestSupport.uniqueName("commits");
        String group = KafkaTestSupport.uniqueName("group");
        kafka.createTopic(topic, 3);
        kafka.produceIds(topic, 30, "c", 5);
        assertThat(kafka.committedOffsets(group, topic)).isEmpty();

        Map<String, Object> conf = new HashMap<>();
        conf.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        conf.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        conf.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, groupProtocol);
        conf.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        conf.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        if ("classic".equals(groupProtocol)) {
            conf.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6000);
            conf.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500);
        }
        int read = 0;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(conf, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (read < 30 && System.nanoTime() < deadline) {
                read += consumer.poll(Duration.ofMillis(200)).count();
            }
            consumer.commitSync(Duration.ofSeconds(10));
        }
        assertThat(read).isEqualTo(30);
        assertThat(kafka.committedOffsets(group, topic)).isEqualTo(kafka.endOffsets(topic));
    }

    @Test
    void uniqueNamesAreValidAndDistinct() {
        String a = KafkaTestSupport.uniqueName("my topic/1");
        String b = KafkaTestSupport.uniqueName("my topic/1");
        assertThat(a).isNotEqualTo(b).startsWith("my-topic-1-").matches("[a-zA-Z0-9._-]+");
    }
}
