package dev.kafkafetch.it.share;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.ConsumerProcess;
import dev.kafkafetch.it.DeadLetters;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.share.KafkaFetchShareConstants;
import dev.kafkafetch.share.KafkaFetchShareConsumer;
import dev.kafkafetch.task.TaskState;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Share-route features meeting a fault: a stalled record on a member that stops, a suspended member while another
 * member is killed, and the acquisition sizing (maxPollRecords 2 x maxConcurrency over the window's consumers) when a member is killed. Each
 * checks that its situation really happened, then that nothing is lost (every record routed or dead-lettered) and that
 * the records routed twice stay within what the fault could give back.
 */
class ShareFaultCombinationsIT extends ShareITSupport {

    private static final String HANGS = "hangs";
    private final CountDownLatch never = new CountDownLatch(1);

    @AfterEach
    void releaseHungThreads() {
        never.countDown();
    }

    /**
     * Member A stops while a record hangs in its route (stallTimeoutMs 3 s, under a renewed 2 s lock): A's stop gives
     * it up once it stalls (released: its first delivery of two), lets its other records finish and leaves the group
     * well before its shutdownTimeout; member B gets the hung record on its last delivery and dead-letters it
     * (stalled). Every other record is routed once.
     */
    @Test
    void aStalledRecordOnAStoppingMember() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-stall-stop");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        prepareGroup(group, 2000);
        kafka.produce(topic, 0, "k", HANGS, null);
        List<String> produced = new ArrayList<>(kafka.produceIds(topic, 60, "k", 60));
        // one share consumer per window (consumersPerWindow=1): the premise is about one consumer's own records
        String options = "stallTimeoutMs=3000&maxDeliveryAttempts=2&maxConcurrency=2&maxPollRecords=4"
                         + "&consumersPerWindow=1&shutdownTimeout=30000&deadLetterTopic=" + dlt;
        Map<String, List<String>> deliveries = new ConcurrentHashMap<>();
        CamelContext a = startContext(hangingRoute(topic, group, options, "A", deliveries));
        await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.containsKey(HANGS));
        CamelContext b = startContext(hangingRoute(topic, group, options, "B", deliveries));
        await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.values().stream()
                .anyMatch(d -> d.stream().anyMatch(x -> x.startsWith("B:"))));
        assertThat(deliveries.get(HANGS)).as("the hung record runs on A").containsExactly("A:1");
        assertThat(tasksRunning(shareConsumer(a))).as("A has a record in its route").isOne();

        // Camel's graceful stop suspends the consumer first, then waits for the hung exchange (5 s here)
        a.getShutdownStrategy().setTimeout(5);
        KafkaFetchShareConsumer consumerA = shareConsumer(a);
        long stopAt = System.currentTimeMillis();
        Thread stopping = new Thread(a::stop, "stop-A");
        stopping.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> consumerA.taskSnapshots().stream()
                .noneMatch(t -> t.state().equals(TaskState.RUNNING.name())));
        long leftMs = System.currentTimeMillis() - stopAt;
        stopping.join(60_000);
        assertThat(stopping.isAlive()).as("A stopped").isFalse();
        List<ConsumerRecord<String, String>> letters = DeadLetters.awaitRecords(kafka, dlt, 1, Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.keySet().containsAll(produced));
        await().atMost(Duration.ofSeconds(10)).until(() -> sum(shareConsumer(b).shareSnapshots(),
                ShareSnapshot::held) == 0);
        System.out.printf("share stall on a stopping member: A left its group %d ms into its stop, hung record %s,"
                          + " letters %d%n",
                leftMs, deliveries.get(HANGS), letters.size());
        assertThat(never.getCount()).as("the hung record never returned").isOne();
        assertThat(leftMs).as("A's stop gave the stalled record up instead of waiting its 30 s shutdownTimeout")
                .isLessThan(30000);
        assertThat(deliveries.get(HANGS)).as("released by A's stop, then its last delivery on B")
                .containsExactly("A:1", "B:2");
        assertThat(letters).hasSize(1);
        assertThat(letters.get(0).value()).isEqualTo(HANGS);
        assertThat(DeadLetters.header(letters.get(0), KafkaFetchConstants.DLT_REASON)).isEqualTo("stalled");
        for (String id : produced) {
            if (!id.equals(HANGS)) {
                assertThat(deliveries.get(id)).as("%s routed once (A's stop let its running records finish)", id)
                        .hasSize(1);
            }
        }
    }

    /**
     * Member S is suspended while member V (its own JVM) works, then V is killed: nobody consumes until S resumes;
     * the records V held come back when their 3 s lock runs out, and S routes everything once resumed. Routed twice:
     * at most what V held (its one task's poll of maxPollRecords).
     */
    @Test
    void aSuspendedMemberWhileAnotherIsKilled() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-suspend-kill");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 3000);
        List<String> produced = kafka.produceIds(topic, 3000, "k", 40);
        Path out = Files.createTempFile("share-suspend-kill", ".ids");
        int maxPollRecords = 20;
        String uri = shareUri(topic, group, "consumersCount=1&maxConcurrency=4&maxPollRecords=" + maxPollRecords);
        List<String> routedByS = new CopyOnWriteArrayList<>();
        ConsumerProcess victim = ConsumerProcess.start(uri, out, 10);
        try {
            CamelContext s = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from(uri).routeId("s").process(exchange -> {
                        routedByS.add(exchange.getMessage().getBody(String.class));
                        Thread.sleep(10);
                    });
                }
            });
            KafkaFetchShareConsumer consumer = shareConsumer(s);
            await().atMost(Duration.ofSeconds(60)).until(() -> ConsumerProcess.finished(out).size() >= 300
                                                               && routedByS.size() >= 100);
            s.getRouteController().suspendRoute("s");
            await().atMost(Duration.ofSeconds(30)).until(() -> consumer.taskSnapshots().stream()
                    .allMatch(t -> t.state().equals(TaskState.PAUSED.name())));
            int bySAtSuspend = routedByS.size();
            victim.kill();
            int byVAtKill = ConsumerProcess.finished(out).size();
            assertThat(byVAtKill + bySAtSuspend).as("killed mid-stream").isLessThan(produced.size());
            assertThat(routedByS).as("nothing reaches the suspended route").hasSize(bySAtSuspend);

            s.getRouteController().resumeRoute("s");
            await().atMost(Duration.ofSeconds(90)).until(() -> {
                Set<String> all = new HashSet<>(routedByS);
                all.addAll(ConsumerProcess.finished(out));
                return all.containsAll(produced);
            });
            List<String> finished = new ArrayList<>(ConsumerProcess.finished(out));
            finished.addAll(routedByS);
            int duplicates = finished.size() - new HashSet<>(finished).size();
            System.out.printf("share suspend while killed: V finished %d before its kill, S %d before its suspend,"
                              + " routed twice %d%n",
                    byVAtKill, bySAtSuspend, duplicates);
            assertThat(new HashSet<>(finished)).as("lost").containsAll(produced);
            assertThat(duplicates).as("routed twice: at most V's one poll").isLessThanOrEqualTo(maxPollRecords);
        } finally {
            victim.kill();
        }
    }

    /**
     * With the default acquisition sizing (maxConcurrency 4: each of a member's two share consumers acquires at most 4
     * per poll), one of two members is killed mid-backlog: the survivor routes everything, and routed twice are at most
     * the two polls the killed member could hold, where the old default (500 per poll) could have let it hold the whole
     * backlog.
     */
    @Test
    void theAcquisitionSizingWhenAMemberIsKilled() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-sizing-kill");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 3000);
        List<String> produced = kafka.produceIds(topic, 1500, "k", 40);
        Path out = Files.createTempFile("share-sizing-kill", ".ids");
        String uri = shareUri(topic, group, "consumersCount=1&maxConcurrency=4");
        List<String> routedBySurvivor = new CopyOnWriteArrayList<>();
        ConsumerProcess victim = ConsumerProcess.start(uri, out, 20);
        try {
            // the victim's JVM starts slower than a context in this one: under load the survivor alone could work off
            // the backlog before the victim held anything, so the survivor starts once the victim is routing
            await().atMost(Duration.ofSeconds(90)).until(() -> !ConsumerProcess.finished(out).isEmpty());
            CamelContext survivor = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from(uri).process(exchange -> {
                        routedBySurvivor.add(exchange.getMessage().getBody(String.class));
                        Thread.sleep(20);
                    });
                }
            });
            KafkaFetchShareConsumer consumer = shareConsumer(survivor);
            await().atMost(Duration.ofSeconds(60)).until(() -> ConsumerProcess.finished(out).size() >= 40
                                                               && !routedBySurvivor.isEmpty());
            victim.kill();
            int byVictim = ConsumerProcess.finished(out).size();
            assertThat(byVictim + routedBySurvivor.size()).as("killed mid-backlog").isLessThan(produced.size());
            await().atMost(Duration.ofSeconds(90)).until(() -> {
                Set<String> all = new HashSet<>(routedBySurvivor);
                all.addAll(ConsumerProcess.finished(out));
                return all.containsAll(produced);
            });
            List<String> finished = new ArrayList<>(ConsumerProcess.finished(out));
            finished.addAll(routedBySurvivor);
            int duplicates = finished.size() - new HashSet<>(finished).size();
            System.out.printf("share sizing at a kill: victim finished %d, survivor %d, routed twice %d, survivor"
                              + " acquired %d%n",
                    byVictim, routedBySurvivor.size(), duplicates,
                    sum(consumer.shareSnapshots(), ShareSnapshot::acquired));
            assertThat(new HashSet<>(finished)).as("lost").containsAll(produced);
            // the defaults, as the victim's: two share consumers, each holding at most one poll
            int maxPollRecords = consumer.getSettings().maxPollRecords();
            assertThat(maxPollRecords).as("the default acquisition sizing, 2 x maxConcurrency over two consumers")
                    .isEqualTo(4);
            int heldAtMost = consumer.getSettings().consumersPerWindow() * maxPollRecords;
            assertThat(duplicates).as("routed twice: at most what the killed member could hold (one poll a consumer)")
                    .isLessThanOrEqualTo(heldAtMost);
        } finally {
            victim.kill();
        }
    }

    private RouteBuilder hangingRoute(String topic, String group, String options, String member,
                                      Map<String, List<String>> deliveries) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(shareUri(topic, group, options)).process(exchange -> {
                    String id = exchange.getMessage().getBody(String.class);
                    deliveries.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(member + ":" + exchange
                            .getMessage().getHeader(KafkaFetchShareConstants.DELIVERY_COUNT, Integer.class));
                    if (id.equals(HANGS)) {
                        never.await();
                    } else {
                        Thread.sleep(50);
                    }
                });
            }
        };
    }
}
