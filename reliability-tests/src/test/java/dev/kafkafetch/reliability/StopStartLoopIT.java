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
 * Scenario 6: graceful stop and start of the route in a loop while records keep coming (Camel's route controller).
 * A graceful stop lets running records finish and commits what finished: only records finished above the offsets
 * committed after each stop may run again (read from the run; with {@code maxConcurrency=1} none, with a wide KEY
 * window those finished behind a not-yet-started one, which the offset map names, so in practice none either).
 */
class StopStartLoopIT extends ReliabilityITSupport {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { SERIAL, PARALLEL })
    void stopStartLoopLosesNothing(String variant) throws Exception {
        int cycles = Knobs.get("stopStartCycles", 6, 60);
        int rate = Knobs.get("stopStart.rate", 200, 300);
        long seed = Knobs.seed();
        Random random = new Random(seed);
        String topic = KafkaTestSupport.uniqueName("stopstart");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 4);
        Finished finished = new Finished();
        IdProducer producer = closeLater(new IdProducer(KAFKA.bootstrapServers(), topic, "stopstart", KEYS));
        producer.startContinuous(rate);
        CamelContext context = startRoute("loop", uri(KAFKA.bootstrapServers(), topic, group, variant, null),
                routeSleepMs(variant), finished);
        int faults = 0;
        List<String> perStop = new ArrayList<>(); // finished-committed after each stop
        long mayRunAgain = 0;
        for (int c = 0; c < cycles; c++) {
            int before = finished.count();
            assertThat(waitFor(Duration.ofSeconds(60), () -> finished.count() >= before + 20))
                    .as("consuming in cycle %d", c).isTrue();
            sleep(200 + random.nextInt(1500));
            context.getRouteController().stopRoute("loop");
            faults++;
            // the stop let running records finish and committed: only records finished above the committed offsets
            // (named by the offset map, so not routed again, unless a map did not fit) may run again
            long committed = kafka.committedOffsets(group, topic).values().stream().mapToLong(Long::longValue).sum();
            long distinct = finished.distinctCount();
            mayRunAgain += distinct - committed;
            perStop.add(distinct + "-" + committed);
            sleep(100 + random.nextInt(900));
            context.getRouteController().startRoute("loop");
        }
        sleep(1000);
        producer.stop();
        Map<String, IdProducer.Position> produced = producer.acked();
        awaitAll(finished, produced.keySet(), Duration.ofSeconds(Knobs.get("stopStart.drainSeconds", 90, 300)));

        Reliability verdict = Reliability.of("stop-start-loop", variant, produced, finished.all()).faults(faults)
                .note("seed=" + seed + " failedSends=" + producer.failed())
                .diagnostics(() -> offsets(kafka, group, topic) + "  tasks " + snapshots(context, "loop") + "\n");
        verdict.dupBound("sum-over-stops(finishedAtStop-committedAtStop)=" + String.join("+", perStop), mayRunAgain);
        verdict.verify();
        assertThat(waitFor(Duration.ofSeconds(15), () -> kafka.committedOffsets(group, topic)
                .equals(kafka.endOffsets(topic)))).as("committed up to the end").isTrue();
    }
}
