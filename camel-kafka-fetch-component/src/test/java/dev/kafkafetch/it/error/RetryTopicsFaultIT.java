package dev.kafkafetch.it.error;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.ConsumerProcess;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Retry topics under faults: the consumer JVM killed with SIGKILL while retries wait, and the only broker restarted
 * while retries wait. Every record still succeeds (lost = 0): a retry letter acknowledged before the fault is routed
 * from its retry topic, a failed record whose letter was not acknowledged was never committed and comes again from
 * its source. After the kill only what the killed JVM finished above the offsets it had committed (source and retry
 * topics) succeeds again, plus at most one second letter per record failing its first delivery.
 */
class RetryTopicsFaultIT extends KafkaFetchITSupport {

    @Test
    void aSigkillWhileRetriesWaitLosesNothing() throws Exception {
        String topic = KafkaTestSupport.uniqueName("retry-kill");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 3);
        List<String> produced = kafka.produceIds(topic, 3000, "rk", 30);
        Path out = Files.createTempFile("retry-kill", ".ids");
        String uri = uri(topic, group, "retryDelays=500ms,2s&maxConcurrency=16&ordering=KEY");

        ConsumerProcess first = ConsumerProcess.start(uri, out, 1, "", 7);
        long committedHalfway;
        long committedAtKill;
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> ConsumerProcess.finished(out).size() >= 500);
            committedHalfway = committedSum(group, topic);
            // the kill comes once commits advanced (on a loaded machine 500 more records once finished before any)
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> ConsumerProcess.finished(out).size() >= 1000
                                 && committedSum(group, topic) > committedHalfway);
            committedAtKill = committedSum(group, topic); // just before the kill: at most what it had committed
        } finally {
            first.kill();
        }
        int beforeKill = ConsumerProcess.finished(out).size();
        assertThat(committedAtKill).as("commits advanced while it ran (%d committed at 500 finished)",
                committedHalfway).isGreaterThan(committedHalfway);
        ConsumerProcess second = ConsumerProcess.start(uri, out, 0, "", 7);
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
        // a committed offset never passes an unfinished record: below it, a source offset is a success or a record
        // whose retry letter was acknowledged, a retry-topic offset a success (only first deliveries fail), so at
        // most (finished - committed + failingFirst) successes of the killed JVM were not covered by a commit; and a
        // record failing its first delivery can succeed twice without the killed JVM finishing it: from the letter it
        // had acknowledged, and from its source (not yet committed) failing again into a second one
        long failingFirst = produced.stream().filter(id -> Math.floorMod(id.hashCode(), 7) == 0).count();
        long bound = beforeKill - committedAtKill + failingFirst;
        System.out.printf("retry topics + SIGKILL: records=%d finishedBeforeKill=%d committedAtKill=%d"
                          + " failingFirst=%d lost=%d duplicates=%d bound=%d%n",
                produced.size(), beforeKill, committedAtKill, failingFirst, lost.size(), duplicates, bound);
        assertThat(lost).isEmpty();
        assertThat((long) duplicates).as("duplicates (bound: finished %d - committed %d before the kill, plus one per"
                                         + " record whose first delivery fails %d)",
                beforeKill, committedAtKill, failingFirst)
                .isLessThanOrEqualTo(bound);
    }

    /** Committed offsets summed over the source topic and its retry topics. */
    private static long committedSum(String group, String topic) {
        long sum = 0;
        for (String t : List.of(topic, topic + ".retry-1", topic + ".retry-2")) {
            sum += kafka.committedOffsets(group, t).values().stream().mapToLong(Long::longValue).sum();
        }
        return sum;
    }

    @Test
    void aBrokerRestartWhileRetriesWaitLosesNothing() throws Exception {
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().start();
             KafkaTestSupport broker = new KafkaTestSupport(cluster.bootstrapServers())) {
            String topic = KafkaTestSupport.uniqueName("retry-restart");
            String group = KafkaTestSupport.uniqueName("g");
            broker.createTopic(topic, 2);
            List<String> produced = broker.produceIds(topic, 400, "rr", 20);
            Set<String> succeeded = ConcurrentHashMap.newKeySet();
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from(uri(topic, group, "brokers=" + cluster.bootstrapServers() + "&retryDelays=1s,3s"))
                            .routeId("r").process(e -> {
                                String id = e.getMessage().getBody(String.class);
                                int attempt = e.getMessage().getHeader(KafkaFetchConstants.DELIVERY_ATTEMPT,
                                        Integer.class);
                                if (Math.floorMod(id.hashCode(), 5) == 0 && attempt == 1) {
                                    throw new IllegalStateException("first delivery of " + id + " fails");
                                }
                                succeeded.add(id);
                            });
                }
            });
            // every record but the failing ones succeeded: the failed ones wait in retry-1
            await().atMost(Duration.ofSeconds(60)).until(() -> succeeded.size() >= produced.size() * 3 / 4);
            cluster.stopBroker(0);
            Thread.sleep(2000); // the retries fall due while the broker is down
            cluster.startBroker(0);
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                    .until(() -> succeeded.containsAll(produced));
            Set<String> lost = new HashSet<>(produced);
            lost.removeAll(succeeded);
            assertThat(lost).isEmpty();
        }
    }
}
