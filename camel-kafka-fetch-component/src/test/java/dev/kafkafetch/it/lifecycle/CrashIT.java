package dev.kafkafetch.it.lifecycle;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.kafkafetch.it.ConsumerProcess;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer JVM killed with SIGKILL mid-stream (no commit, no clean leave), then a new one in the same group:
 * every record is finished at least once (lost = 0); commits advanced while the killed one ran, and it routes again
 * at most what the killed one finished above the offsets committed just before the kill.
 */
class CrashIT extends KafkaFetchITSupport {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "maxConcurrency=1", "maxConcurrency=64&ordering=UNORDERED" })
    void killedConsumerLosesNothing(String options) throws Exception {
        int sleepMs = options.equals("maxConcurrency=1") ? 2 : 40; // a few commit intervals before the kill
        String topic = KafkaTestSupport.uniqueName("crash");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 3);
        List<String> produced = kafka.produceIds(topic, 4000, "k", 40);
        Path out = Files.createTempFile("crash", ".ids");
        String uri = uri(topic, group, options + "&maxInFlightRecords=1000&maxPollRecords=200");

        ConsumerProcess first = ConsumerProcess.start(uri, out, sleepMs);
        long committedHalfway;
        long committedAtKill;
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> ConsumerProcess.finished(out).size() >= 400);
            committedHalfway = committedSum(group, topic);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> ConsumerProcess.finished(out).size() >= 800);
            committedAtKill = committedSum(group, topic); // read just before the kill: at most what it had committed
        } finally {
            first.kill();
        }
        int beforeKill = ConsumerProcess.finished(out).size();
        assertThat(beforeKill).as("killed mid-stream").isLessThan(produced.size());
        assertThat(committedAtKill).as("commits advanced while it ran (%d committed at 400 finished)",
                committedHalfway).isGreaterThan(committedHalfway);

        ConsumerProcess second = ConsumerProcess.start(uri, out, 0);
        try {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                    .until(() -> ConsumerProcess.finishedSet(out).containsAll(produced));
        } finally {
            second.kill();
        }
        List<String> finished = ConsumerProcess.finished(out);
        Set<String> lost = new HashSet<>(produced);
        lost.removeAll(finished);
        int duplicates = finished.size() - new HashSet<>(finished).size();
        System.out.printf("crash %s: records=%d finishedBeforeKill=%d committedAtKill=%d lost=%d duplicates=%d%n",
                options, produced.size(), beforeKill, committedAtKill, lost.size(), duplicates);
        assertThat(lost).isEmpty();
        // a committed offset never passes an unfinished record, so every record below the committed offsets was
        // finished by the killed one and none of them runs again: what it finished above them is all that may
        assertThat((long) duplicates).as("routed again: finished %d, committed %d before the kill", beforeKill,
                committedAtKill).isLessThanOrEqualTo(beforeKill - committedAtKill);
    }

    private static long committedSum(String group, String topic) {
        return kafka.committedOffsets(group, topic).values().stream().mapToLong(Long::longValue).sum();
    }
}
