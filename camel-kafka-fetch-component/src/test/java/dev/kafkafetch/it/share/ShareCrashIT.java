package dev.kafkafetch.it.share;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.kafkafetch.it.ConsumerProcess;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two member JVMs of one share group on one partition; one is killed with SIGKILL mid-stream (no acknowledgement, no
 * leave): the records it had acquired come back to the group when their lock (5 s here) runs out or its session ends,
 * and the other member processes them. The test first checks that the victim was finishing records right up to the
 * kill (so it held acquired records when it died, and fails otherwise); lost = 0, and duplicates are bounded by what the killed member held (its finished records whose
 * acknowledgement it had not sent yet).
 */
class ShareCrashIT extends ShareITSupport {

    @Test
    void killedMemberLosesNothing() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-crash");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 5000);
        List<String> produced = kafka.produceIds(topic, 6000, "k", 40);
        Path out = Files.createTempFile("share-crash", ".ids");
        Path victimOut = Files.createTempFile("share-crash-victim", ".ids");
        int consumersCount = 2;
        int maxPollRecords = 20;
        String uri = shareUri(topic, group, "consumersCount=" + consumersCount + "&maxPollRecords=" + maxPollRecords
                                            + "&maxConcurrency=4");

        ConsumerProcess victim = ConsumerProcess.start(uri, victimOut, 40);
        ConsumerProcess survivor = ConsumerProcess.start(uri, out, 40);
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> finished(victimOut, out).size() >= 1500);
            // the premise: the victim holds records when it dies, i.e. it is finishing records of its acquired
            // batches (4 at a time, 40 ms each) right up to the kill
            int victimBefore = ConsumerProcess.finished(victimOut).size();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                    .alias("the victim finishing records just before the kill (the test's premise)")
                    .until(() -> ConsumerProcess.finished(victimOut).size() > victimBefore);
            victim.kill();
            int beforeKill = finished(victimOut, out).size();
            assertThat(beforeKill).as("killed mid-stream").isLessThan(produced.size());
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                    .until(() -> new HashSet<>(finished(victimOut, out)).containsAll(produced));
            assertThat(survivor.isAlive()).isTrue();
            List<String> finished = finished(victimOut, out);
            Set<String> lost = new HashSet<>(produced);
            lost.removeAll(finished);
            int duplicates = finished.size() - new HashSet<>(finished).size();
            System.out.printf("share crash: records=%d finishedBeforeKill=%d lost=%d duplicates=%d%n", produced.size(),
                    beforeKill, lost.size(), duplicates);
            assertThat(lost).isEmpty();
            // at most what the killed member held: consumersCount polls of maxPollRecords records
            assertThat(duplicates).isLessThanOrEqualTo(consumersCount * maxPollRecords);
        } finally {
            victim.kill();
            survivor.kill();
        }
    }

    /** Every id the processes writing to {@code outs} finished, duplicates included. */
    private static List<String> finished(Path... outs) throws IOException {
        List<String> ids = new ArrayList<>();
        for (Path o : outs) {
            ids.addAll(ConsumerProcess.finished(o));
        }
        return ids;
    }
}
