package dev.kafkafetch.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 3: a rebalance storm. Three consumer instances (three CamelContexts in this JVM, one group) while records
 * keep coming; every few seconds one of them joins or leaves (a graceful stop). Every rebalance revokes partitions:
 * what is finished is committed, what is queued is dropped and re-delivered to the new owner. With
 * {@code maxConcurrency=1} records finish in offset order, so everything finished is committable and nothing may be
 * duplicated; with a wide KEY window, records finished behind an unfinished one are named finished by the revoke's
 * offset map, so only records still running when a revoke stopped waiting may run again (at most {@code maxConcurrency}
 * per member per rebalance).
 */
class RebalanceStormIT extends ReliabilityITSupport {

    private static final int MEMBERS = 3;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { SERIAL, PARALLEL })
    void rebalanceStormLosesNothing(String variant) throws Exception {
        int changes = Knobs.get("stormChanges", 10, 80);
        int rate = Knobs.get("storm.rate", 200, 300);
        long seed = Knobs.seed();
        Random random = new Random(seed);
        String topic = KafkaTestSupport.uniqueName("storm");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 6);
        String uri = uri(KAFKA.bootstrapServers(), topic, group, variant, null);
        Finished finished = new Finished();
        IdProducer producer = closeLater(new IdProducer(KAFKA.bootstrapServers(), topic, "storm", KEYS));
        producer.startContinuous(rate);

        CamelContext[] members = new CamelContext[MEMBERS];
        members[0] = startRoute("storm-0", uri, routeSleepMs(variant), finished);
        members[1] = startRoute("storm-1", uri, routeSleepMs(variant), finished);
        assertThat(waitFor(Duration.ofSeconds(60), () -> finished.count() >= 100)).as("consuming").isTrue();

        int faults = 0;
        int joins = 0;
        int leaves = 0;
        for (int c = 0; c < changes; c++) {
            sleep(1500 + random.nextInt(2000));
            List<Integer> running = new ArrayList<>();
            List<Integer> idle = new ArrayList<>();
            for (int i = 0; i < MEMBERS; i++) {
                (members[i] != null ? running : idle).add(i);
            }
            boolean join = running.size() == 1 || !idle.isEmpty() && random.nextBoolean();
            if (join) {
                int i = idle.get(random.nextInt(idle.size()));
                members[i] = startRoute("storm-" + i, uri, routeSleepMs(variant), finished);
                joins++;
            } else {
                int i = running.get(random.nextInt(running.size()));
                members[i].stop();
                members[i] = null;
                leaves++;
            }
            faults++;
        }
        sleep(1000);
        producer.stop();
        Map<String, IdProducer.Position> produced = producer.acked();
        awaitAll(finished, produced.keySet(), Duration.ofSeconds(Knobs.get("storm.drainSeconds", 90, 300)));

        List<Finish> all = finished.all();
        boolean serial = maxConcurrency(variant) == 1;
        Reliability verdict = Reliability.of("rebalance-storm", variant, produced, all).faults(faults)
                .note("seed=" + seed + " joins=" + joins + " leaves=" + leaves + " failedSends=" + producer.failed())
                .diagnostics(() -> offsets(kafka, group, topic) + members(members));
        if (serial) {
            verdict.dupBound("0(revoke/stop-commits-all-finished;maxConcurrency=1-finishes-in-offset-order)", 0);
        } else {
            // a revoke commits every finished record (offset and offset map): only records still running when a
            // revoke gave up waiting for them may run again, at most maxConcurrency per member per change
            int mc = maxConcurrency(variant);
            verdict.dupBound("rebalances*members*maxConcurrency=" + faults + "*" + MEMBERS + "*" + mc,
                    (long) faults * MEMBERS * mc);
        }
        verdict.verify();
        assertThat(waitFor(Duration.ofSeconds(30), () -> kafka.committedOffsets(group, topic)
                .equals(kafka.endOffsets(topic)))).as("committed up to the end after the storm").isTrue();
    }

    private static String members(CamelContext[] members) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < members.length; i++) {
            if (members[i] != null) {
                sb.append("  member ").append(i).append(' ').append(snapshots(members[i], "storm-" + i)).append('\n');
            }
        }
        return sb.toString();
    }
}
