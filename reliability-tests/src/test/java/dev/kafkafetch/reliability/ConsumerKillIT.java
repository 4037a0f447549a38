package dev.kafkafetch.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 1: the consumer JVM is killed with SIGKILL at random moments while records keep coming, and a new one is
 * started in the same group each time. Only what the killed JVM finished above the offsets committed at its kill may be
 * routed again (read from the run: the finished records and the committed offsets at each kill), commits must advance
 * between the kills, and nothing is ever skipped.
 */
class ConsumerKillIT extends ReliabilityITSupport {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { SERIAL, PARALLEL })
    void sigkilledConsumersLoseNothing(String variant) throws Exception {
        int kills = Knobs.get("kills", 5, 40);
        int rate = Knobs.get("kill.rate", 150, 300);
        long seed = Knobs.seed();
        Random random = new Random(seed);
        String topic = KafkaTestSupport.uniqueName("kill");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 4);
        Path dir = Files.createTempDirectory("reliability-kill");
        Path out = dir.resolve("finished.ids");
        String uri = uri(KAFKA.bootstrapServers(), topic, group, variant, null);
        int sleepMs = routeSleepMs(variant);

        IdProducer producer = closeLater(new IdProducer(KAFKA.bootstrapServers(), topic, "kill", KEYS));
        producer.startContinuous(rate);
        List<ChildConsumer> children = new ArrayList<>();
        int faults = 0;
        List<String> perKill = new ArrayList<>(); // finished-committed at each kill
        long mayRunAgain = 0;
        long committedAtFirstKill = -1;
        long committedAtLastKill = -1;
        try {
            for (int i = 0; i < kills; i++) {
                long sizeBefore = Files.exists(out) ? Files.size(out) : 0;
                ChildConsumer child = ChildConsumer.start(uri, out, sleepMs, dir.resolve("child-" + i + ".log"));
                children.add(child);
                // kill only once this JVM is really consuming, then at a random moment of its run
                boolean consuming = waitFor(Duration.ofSeconds(60),
                        () -> Files.exists(out) && sizeOf(out) > sizeBefore);
                assertThat(consuming).as("child %d started consuming; its log: %s", i, child.log()).isTrue();
                sleep(random.nextInt(3000));
                long committed = committedSum(group, topic); // just before the kill: at most what was committed
                child.kill();
                faults++;
                // every record below the committed offsets was finished (a commit never passes an unfinished one), so
                // only the records finished above them may run again
                long finishedAtKill = ids(out).size();
                mayRunAgain += finishedAtKill - committed;
                perKill.add(finishedAtKill + "-" + committed);
                committedAtFirstKill = committedAtFirstKill < 0 ? committed : committedAtFirstKill;
                committedAtLastKill = committed;
            }
            producer.stop();
            ChildConsumer last = ChildConsumer.start(uri, out, sleepMs, dir.resolve("child-last.log"));
            children.add(last);
            Map<String, IdProducer.Position> produced = producer.acked();
            waitFor(Duration.ofSeconds(Knobs.get("kill.drainSeconds", 120, 600)),
                    () -> ids(out).containsAll(produced.keySet()));
            last.kill(); // after the run: not a fault (everything is finished)

            assertThat(committedAtLastKill).as("commits advanced between the kills (%s)", perKill)
                    .isGreaterThan(committedAtFirstKill);
            List<Finish> finished = ChildConsumer.read(out);
            Reliability.of("consumer-sigkill", variant, produced, finished).faults(faults)
                    .dupBound("sum-over-kills(finishedAtKill-committedAtKill)=" + String.join("+", perKill),
                            mayRunAgain)
                    .note("seed=" + seed + " failedSends=" + producer.failed())
                    .diagnostics(() -> offsets(kafka, group, topic) + "  child logs in " + dir + "\n"
                                       + tails(children))
                    .verify();
        } finally {
            for (ChildConsumer c : children) {
                if (c.isAlive()) {
                    c.kill();
                }
            }
        }
    }

    private static long committedSum(String group, String topic) {
        return kafka.committedOffsets(group, topic).values().stream().mapToLong(Long::longValue).sum();
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    private static java.util.Set<String> ids(Path out) {
        try {
            java.util.Set<String> set = new java.util.HashSet<>();
            for (Finish f : ChildConsumer.read(out)) {
                set.add(f.id());
            }
            return set;
        } catch (java.io.IOException e) {
            return java.util.Set.of();
        }
    }

    private static String tails(List<ChildConsumer> children) {
        StringBuilder sb = new StringBuilder();
        for (ChildConsumer c : children) {
            try {
                List<String> lines = Files.readAllLines(c.log());
                sb.append("  --- ").append(c.log()).append(" (last 40 lines)\n");
                lines.subList(Math.max(0, lines.size() - 40), lines.size())
                        .forEach(l -> sb.append("  | ").append(l).append('\n'));
            } catch (java.io.IOException e) {
                sb.append("  (cannot read ").append(c.log()).append(")\n");
            }
        }
        return sb.toString();
    }
}
