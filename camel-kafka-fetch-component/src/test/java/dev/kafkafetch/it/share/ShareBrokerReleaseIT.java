package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the broker (Kafka 4.3.1) does with a record a member gives back, by explicit RELEASE or by closing with the
 * record unacknowledged: before the group's last delivery both make it available again with its delivery counted
 * (the next delivery is number 2); on the last delivery both archive it (neither comes back). So no way of giving a
 * record back saves it on its last delivery (the broker's {@code SharePartition.releaseAcquiredRecords} moves it with
 * the delivery count unchanged, and a move to AVAILABLE at the limit becomes ARCHIVED): the share fetch task must run
 * such a record, never give it back. If a Kafka upgrade changes this, this test says so.
 */
class ShareBrokerReleaseIT extends ShareITSupport {

    @Test
    void givingBackARecordOnItsLastDeliveryArchivesIt() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-release");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 0);
        deliveryLimit(group, 2);
        kafka.produce(topic, 0, "k", "released", null);
        kafka.produce(topic, 0, "k", "closed", null);

        // delivery 1 of both: one released explicitly, one left unacknowledged for the close
        List<String> log = new ArrayList<>();
        try (KafkaShareConsumer<String, String> c = plainConsumer(group, topic)) {
            for (ConsumerRecord<String, String> r : pollAll(c, 2)) {
                log.add(r.value() + "@" + r.deliveryCount().orElse((short) 0));
                if (r.value().equals("released")) {
                    c.acknowledge(r, AcknowledgeType.RELEASE);
                }
            }
            c.commitSync();
        }
        // delivery 2 (the last) of both, the same way
        try (KafkaShareConsumer<String, String> c = plainConsumer(group, topic)) {
            for (ConsumerRecord<String, String> r : pollAll(c, 2)) {
                log.add(r.value() + "@" + r.deliveryCount().orElse((short) 0));
                if (r.value().equals("released")) {
                    c.acknowledge(r, AcknowledgeType.RELEASE);
                }
            }
            c.commitSync();
        }
        // what comes back now
        try (KafkaShareConsumer<String, String> c = plainConsumer(group, topic)) {
            long until = System.currentTimeMillis() + 6000;
            while (System.currentTimeMillis() < until) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                    log.add(r.value() + "@" + r.deliveryCount().orElse((short) 0));
                    c.acknowledge(r, AcknowledgeType.ACCEPT);
                }
                c.commitSync();
            }
        }
        System.out.println("share broker release: " + log);
        assertThat(log).containsExactlyInAnyOrder("released@1", "closed@1", "released@2", "closed@2");
    }

    private static List<ConsumerRecord<String, String>> pollAll(KafkaShareConsumer<String, String> c, int n) {
        List<ConsumerRecord<String, String>> got = new ArrayList<>();
        long until = System.currentTimeMillis() + 20_000;
        while (got.size() < n && System.currentTimeMillis() < until) {
            c.poll(Duration.ofMillis(500)).forEach(got::add);
        }
        assertThat(got).as("records polled").hasSize(n);
        return got;
    }
}
