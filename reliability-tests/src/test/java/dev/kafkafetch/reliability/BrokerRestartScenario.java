package dev.kafkafetch.reliability;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.kafka.clients.admin.NewTopic;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 2, shared by the single-node and the 3-broker runs: an in-process route consumes while records keep
 * coming; a broker is stopped mid-stream, kept down for a while (in CI 3 s, then 8 s: longer than the session
 * timeout), and started again. Only what the route had finished above the group's committed offsets at some moment of
 * a restart (from the stop until commits have succeeded twice after it: {@link CommitGap}) may be re-delivered, and
 * nothing is skipped. While the coordinator is away no commit succeeds, so that gap grows with what the route finishes
 * meanwhile; with a broker of three away, commits go on.
 */
abstract class BrokerRestartScenario extends ReliabilityITSupport {

    /** The cluster of the concrete test class (not the shared broker). */
    abstract EmbeddedKafkaCluster cluster();

    void run(String scenario, String variant, int replicationFactor,
             BiFunction<Integer, Random, Integer> brokerToStop, KafkaTestSupport k,
             String group)
            throws Exception {
        EmbeddedKafkaCluster cluster = cluster();
        int restarts = Knobs.get("brokerRestarts", 2, 8);
        int rate = Knobs.get("broker.rate", 200, 300);
        long seed = Knobs.seed();
        Random random = new Random(seed);
        String topic = KafkaTestSupport.uniqueName(scenario);
        NewTopic newTopic = new NewTopic(topic, 4, (short) replicationFactor);
        if (replicationFactor > 1) {
            newTopic.configs(Map.of("min.insync.replicas", "2"));
        }
        k.admin().createTopics(List.of(newTopic)).all().get(30, TimeUnit.SECONDS);
        assertThat(waitFor(Duration.ofSeconds(30), () -> !k.endOffsets(topic).isEmpty())).isTrue();

        String uri = uri(cluster.bootstrapServers(), topic, group, variant,
                "additionalProperties.reconnect.backoff.max.ms=1000");
        Finished finished = new Finished();
        IdProducer producer = closeLater(new IdProducer(cluster.bootstrapServers(), topic, scenario, KEYS));
        producer.startContinuous(rate);
        CamelContext context = startRoute("restart", uri, routeSleepMs(variant), finished);
        assertThat(waitFor(Duration.ofSeconds(60), () -> finished.count() >= 200)).as("consuming").isTrue();

        int faults = 0;
        long mayRunAgain = 0;
        List<String> perRestart = new java.util.ArrayList<>(); // the worst gap of each restart
        CommitGap gap = new CommitGap(k, group, topic, finished::count);
        StringBuilder stopped = new StringBuilder();
        for (int r = 0; r < restarts; r++) {
            sleep(500 + random.nextInt(2000));
            int index = brokerToStop.apply(r, random);
            // CI: a short outage, then one longer than the session timeout; soak: 1-13 s at random
            long downMs = Knobs.soak() ? 1000 + random.nextInt(12_000) : r % 2 == 0 ? 3000 : 8000;
            gap.startWindow();
            long committedBefore = committedSum(k, group, topic);
            cluster.stopBroker(index);
            faults++;
            stopped.append(stopped.length() == 0 ? "" : ",").append(index);
            sleep(downMs);
            cluster.startBroker(index);
            int before = finished.count();
            assertThat(waitFor(Duration.ofSeconds(90), () -> finished.count() >= before + 100))
                    .as("consuming again after restart %d", r).isTrue();
            assertThat(waitFor(Duration.ofSeconds(90), () -> committedSum(k, group, topic) > committedBefore))
                    .as("commits succeed again after restart %d", r).isTrue();
            long resumed = committedSum(k, group, topic);
            assertThat(waitFor(Duration.ofSeconds(90), () -> committedSum(k, group, topic) > resumed))
                    .as("commits go on after restart %d", r).isTrue();
            long worst = gap.endWindow();
            mayRunAgain += worst;
            perRestart.add(Long.toString(worst));
        }
        gap.close();
        sleep(1000);
        producer.stop();
        Map<String, IdProducer.Position> produced = producer.acked();
        awaitAll(finished, produced.keySet(), Duration.ofSeconds(Knobs.get("broker.drainSeconds", 120, 300)));
        List<Finish> all = finished.all();
        Reliability.of(scenario, variant, produced, all).faults(faults)
                .dupBound("sum-over-restarts(worst(finished-committed))=" + String.join("+", perRestart),
                        mayRunAgain)
                .note("seed=" + seed + " stoppedBrokerIndexes=" + stopped + " failedSends=" + producer.failed())
                .diagnostics(() -> offsets(k, group, topic) + "  tasks " + snapshots(context, "restart") + "\n")
                .verify();
        assertThat(waitFor(Duration.ofSeconds(30), () -> k.committedOffsets(group, topic).equals(k.endOffsets(topic))))
                .as("committed up to the end after the restarts").isTrue();
    }

    private static long committedSum(KafkaTestSupport k, String group, String topic) {
        return k.committedOffsets(group, topic).values().stream().mapToLong(Long::longValue).sum();
    }
}
