package dev.kafkafetch.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer JVM killed with SIGKILL mid-stream (no commit, no clean leave), then a new one in the same group:
 * every record is finished at least once (lost = 0); duplicates are bounded by what the killed one finished after
 * its last commit plus what it had in flight.
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
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> ConsumerProcess.finished(out).size() >= 800);
        } finally {
            first.kill();
        }
        int beforeKill = ConsumerProcess.finished(out).size();
        assertThat(beforeKill).as("killed mid-stream").isLessThan(produced.size());

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
        System.out.printf("crash %s: records=%d finishedBeforeKill=%d lost=%d duplicates=%d%n", options,
                produced.size(), beforeKill, lost.size(), duplicates);
        assertThat(lost).isEmpty();
        // uncommitted at the kill: at most one commit interval of work plus the in-flight window
        assertThat(duplicates).isLessThanOrEqualTo(beforeKill);
    }
}
