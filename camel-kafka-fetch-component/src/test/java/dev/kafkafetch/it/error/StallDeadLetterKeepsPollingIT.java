package dev.kafkafetch.it.error;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Dead letters of stalled records are sent where a blocking send cannot delay the next poll. The dead-letter topic
 * does not exist yet on a broker that does not create topics on demand, so each send waits for metadata (up to the
 * producer's max.block.ms, 60 s): three stalls must not stop the fetch thread from polling (its poll gap stays far
 * below maxPollIntervalMs) nor cost it its group membership, and the stalled records stay unfinished, never committed
 * past, until the topic exists and their dead letters are acknowledged. Then nothing is lost.
 */
class StallDeadLetterKeepsPollingIT extends KafkaFetchITSupport {

    private static final long MAX_POLL_INTERVAL_MS = 10_000;

    @Test
    void stalledRecordsAreDeadLetteredWithoutBlockingThePollLoop() throws Exception {
        EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().config("auto.create.topics.enable", "false")
                .start();
        CountDownLatch release = new CountDownLatch(1);
        CamelContext context = null;
        try (KafkaTestSupport broker = new KafkaTestSupport(cluster.bootstrapServers())) {
            String topic = KafkaTestSupport.uniqueName("stall-dlt");
            String dlt = topic + ".dlt";
            String group = KafkaTestSupport.uniqueName("g");
            broker.createTopic(topic, 3);
            List<String> produced = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                for (int p = 0; p < 3; p++) {
                    String id = "id-" + p + "-" + i;
                    broker.produce(topic, p, "k" + i, id, null);
                    produced.add(id);
                }
            }
            Set<String> stuck = Set.of("id-0-3", "id-1-3", "id-2-3");
            CountDownLatch stuckRunning = new CountDownLatch(3);
            Recorder done = new Recorder();
            String options = "brokers=" + cluster.bootstrapServers() + "&stallTimeoutMs=1000&deadLetterTopic=" + dlt
                             + "&maxPollIntervalMs=" + MAX_POLL_INTERVAL_MS + "&maxConcurrency=3"
                             + "&shutdownTimeout=3000";
            context = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from(uri(topic, group, options)).routeId("r")
                            .process(e -> {
                                if (stuck.contains(e.getMessage().getBody(String.class))) {
                                    stuckRunning.countDown();
                                    release.await(); // never finishes on its own
                                }
                            })
                            .process(done);
                }
            });
            KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
            assertThat(stuckRunning.await(30, TimeUnit.SECONDS)).isTrue();
            int generation = consumer.taskSnapshots().get(0).generation();

            // the three records stall (1 s) and their dead letters cannot be sent; the fetch thread must keep polling
            AtomicLong maxGap = new AtomicLong();
            AtomicInteger generationChanges = new AtomicInteger();
            sample(consumer, Duration.ofSeconds(7), generation, maxGap, generationChanges);
            TaskSnapshot meanwhile = consumer.taskSnapshots().get(0);
            assertThat(maxGap.get()).as("longest time since the last poll, in ms (maxPollIntervalMs %d)",
                    MAX_POLL_INTERVAL_MS).isLessThan(MAX_POLL_INTERVAL_MS / 4);
            assertThat(generationChanges.get()).as("samples that saw another group generation").isZero();
            assertThat(meanwhile.recordsStalled()).as("stalls reported").isEqualTo(3);
            Map<TopicPartition, Long> committed = broker.committedOffsets(group, topic);
            assertThat(committed.values()).as("committed offsets while the dead letters are pending")
                    .allMatch(offset -> offset <= 3);

            // the topic appears: the dead letters are acknowledged, the stalled records count as finished
            broker.createTopic(dlt, 1);
            List<String> deadLettered = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
                deadLettered.clear();
                for (ConsumerRecord<String, String> r : broker.readAll(dlt, Duration.ofSeconds(5))) {
                    deadLettered.add(r.value());
                }
                return deadLettered.size() >= 3;
            });
            assertThat(deadLettered).containsExactlyInAnyOrderElementsOf(stuck);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
                    broker.committedOffsets(group, topic)).isEqualTo(broker.endOffsets(topic)));
            Set<String> lost = new TreeSet<>(produced);
            lost.removeAll(done.ids());
            lost.removeAll(new HashSet<>(deadLettered));
            assertThat(lost).as("lost").isEmpty();
            assertThat(consumer.taskSnapshots().get(0).generation()).as("generation").isEqualTo(generation);
        } finally {
            release.countDown();
            if (context != null) {
                context.stop();
            }
            cluster.close();
        }
    }

    /** Samples the task's snapshot every 100 ms for {@code duration}: the longest poll gap, generation changes. */
    private static void sample(KafkaFetchConsumer consumer, Duration duration, int generation, AtomicLong maxGap,
                               AtomicInteger generationChanges)
            throws InterruptedException {
        long end = System.currentTimeMillis() + duration.toMillis();
        while (System.currentTimeMillis() < end) {
            TaskSnapshot s = consumer.taskSnapshots().get(0);
            if (s.lastPollTime() > 0) {
                maxGap.accumulateAndGet(System.currentTimeMillis() - s.lastPollTime(), Math::max);
            }
            if (s.generation() != generation) {
                generationChanges.incrementAndGet();
            }
            Thread.sleep(100);
        }
    }
}
