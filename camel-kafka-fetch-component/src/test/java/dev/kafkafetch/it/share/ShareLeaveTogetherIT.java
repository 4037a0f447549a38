package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.kafkafetch.share.ShareFetchTask;
import dev.kafkafetch.task.TaskState;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A suspend while one share consumer of a route holds records it has not started and its sibling (the window's other
 * consumer) holds nothing, with delivery limit 2. The first gives its unstarted records back once its running record
 * is done; the sibling's client goes on fetching until it has closed (its close is held up here, as a slow network
 * would), so, if the records went back then, its fetch would acquire them on their second delivery, the last, after
 * its last poll, and its close would give them back: the broker archives them, unrouted. The route's consumers leave
 * together instead: the idle one closes first, then the other gives its records back, and they come on their last
 * delivery after the resume. Lost must be 0 (archived counts as lost).
 */
class ShareLeaveTogetherIT extends ShareITSupport {

    @Test
    void recordsOneConsumerGivesBackAtASuspendAreNotArchivedByItsSiblingsClose() throws Exception {
        SixOnTheirLastButOne six = new SixOnTheirLastButOne("share-together");
        ShareFaults faults = new ShareFaults();
        Map<String, List<Integer>> deliveries = new ConcurrentHashMap<>();
        CountDownLatch slowStarted = new CountDownLatch(1);
        CamelContext context = newContext();
        context.getRegistry().bind("faults", faults);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(six.uri("&kafkaClientFactory=#faults")).routeId("together").process(exchange -> {
                    String id = exchange.getMessage().getBody(String.class);
                    delivered(exchange, deliveries);
                    if (slowStarted.getCount() > 0) {
                        slowStarted.countDown();
                        Thread.sleep(1500); // the suspend comes while this runs and the others wait
                    } else {
                        Thread.sleep(20);
                    }
                });
            }
        });
        context.start();
        List<ShareFetchTask> tasks = awaitOneHoldsAllSix(context, slowStarted);
        faults.armSlowClose(3000);
        Thread.sleep(200); // the unstarted five have been queued a while: the suspend finds them waiting
        context.getRouteController().suspendRoute("together");
        await().atMost(Duration.ofSeconds(30)).until(() -> tasks.stream().allMatch(t -> t.state() == TaskState.PAUSED));
        assertThat(faults.fired()).as("closes held up while leaving").isEqualTo(2);
        context.getRouteController().resumeRoute("together");
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> deliveries.keySet().containsAll(six.produced));
        } catch (ConditionTimeoutException e) {
            // asserted below
        }
        context.stop();
        System.out.printf("share leave together: deliveries %s%n", deliveries);
        assertThat(deliveries.keySet()).as("routed (none archived)").containsExactlyInAnyOrderElementsOf(six.produced);
        assertThat(deliveries.values()).as("each routed once: the first on delivery 1, the five given back on 2")
                .allSatisfy(d -> assertThat(d).hasSize(1));
        assertThat(deliveries.values().stream().filter(d -> d.get(0) == 2).count())
                .as("records given back by the suspend (the premise) and routed on their last delivery").isEqualTo(5);
    }

    /**
     * A stop reaches the idle consumer late (its fetch thread notices it only seconds later), after its sibling's
     * running record has finished and the sibling is ready to give back the five records it never started. Were they
     * given back then, the idle consumer's fetch would acquire them on their last delivery, and, as a fetch the broker
     * answers after the member's last poll, they would wait in its client until its close gave them back: archived.
     * A give-back waits for every sibling that has not yet said whether it holds records, so the five come on their
     * last delivery to the next member.
     */
    @Test
    void aSiblingTheStopReachesLateClosesBeforeRecordsAreGivenBack() throws Exception {
        SixOnTheirLastButOne six = new SixOnTheirLastButOne("share-together-late");
        ShareFaults faults = new ShareFaults();
        Map<String, List<Integer>> deliveries = new ConcurrentHashMap<>();
        CountDownLatch slowStarted = new CountDownLatch(1);
        AtomicLong slowFinishedAt = new AtomicLong();
        CamelContext context = newContext();
        context.getRegistry().bind("faults", faults);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                // the idle consumer's poll outlasts the late wakeup: the stop reaches it only then
                from(six.uri("&pollTimeoutMs=5000&kafkaClientFactory=#faults"))
                        .process(exchange -> {
                            delivered(exchange, deliveries);
                            if (slowStarted.getCount() > 0) {
                                slowStarted.countDown();
                                Thread.sleep(1000); // the stop comes while this runs and the other five wait
                                slowFinishedAt.set(System.nanoTime());
                            }
                        });
            }
        });
        context.start();
        awaitOneHoldsAllSix(context, slowStarted);
        faults.armLateWakeup(3000);
        faults.armLostFetchWhileLeaving(2);
        long stopAt = System.nanoTime();
        context.stop();
        // the premise: the running record finished well before the stop reached the idle consumer
        assertThat(slowFinishedAt.get() - stopAt).as("the running record finished after the stop began").isPositive();
        assertThat(TimeUnit.NANOSECONDS.toMillis(slowFinishedAt.get() - stopAt)).isLessThan(2500);
        assertThat(faults.fired()).as("wakeups that reached the consumers late").isGreaterThanOrEqualTo(2);

        CamelContext next = newContext();
        next.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(six.uri("")).process(exchange -> delivered(exchange, deliveries));
            }
        });
        next.start();
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> deliveries.keySet().containsAll(six.produced));
        } catch (ConditionTimeoutException e) {
            // asserted below
        }
        next.stop();
        System.out.printf("share leave together, a late stop: deliveries %s, %d records a leaving fetch acquired%n",
                deliveries, faults.lostFetchRecords());
        assertThat(deliveries.keySet()).as("routed (none archived)").containsExactlyInAnyOrderElementsOf(six.produced);
        assertThat(deliveries.values().stream().filter(d -> d.equals(List.of(2))).count())
                .as("records given back by the stop and routed on their last delivery").isEqualTo(5);
        assertThat(faults.lostFetchRecords()).as("records a leaving consumer's fetch acquired").isZero();
    }

    /**
     * The same at a stop, with four consumers (two windows of two), records that fail on every delivery (released for
     * their second, the last, then dead-lettered) and slow closes: what the stopping consumers give back, unstarted or
     * failed, reaches the next member and nothing is archived.
     */
    @Test
    void aStopOfFourConsumersWithFailingRecordsArchivesNothing() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-together-stop");
        String group = KafkaTestSupport.uniqueName("sg");
        String dlt = topic + ".dlt";
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        prepareGroup(group, 0);
        deliveryLimit(group, 2);
        List<String> produced = kafka.produceIds(topic, 40, "k", 40);
        Set<String> failing = new HashSet<>();
        for (int i = 0; i < produced.size(); i += 5) {
            failing.add(produced.get(i));
        }
        Set<String> routed = ConcurrentHashMap.newKeySet();
        ShareFaults faults = new ShareFaults();
        String options = "consumersCount=2&consumersPerWindow=2&maxConcurrency=2&maxPollRecords=10&deadLetterTopic="
                         + dlt;
        CamelContext context = newContext();
        context.getRegistry().bind("faults", faults);
        context.addRoutes(failingRoute(shareUri(topic, group, options + "&kafkaClientFactory=#faults"), failing,
                routed, 300));
        context.start();
        List<ShareFetchTask> tasks = shareConsumer(context).tasks();
        // the premise: records are running and others wait, unstarted, when the stop comes
        await().atMost(Duration.ofSeconds(90)).until(() -> routed.size() >= 2
                                                           && tasks.stream().mapToInt(t -> t.shareSnapshot().held())
                                                                   .sum()
                                                              > 4);
        faults.armSlowClose(1500);
        context.stop();
        long released = tasks.stream().mapToLong(t -> t.shareSnapshot().released()).sum();
        assertThat(faults.fired()).as("closes held up while leaving").isEqualTo(tasks.size());
        assertThat(released).as("records given back by the stop (the premise)").isPositive();

        CamelContext next = newContext();
        next.addRoutes(failingRoute(shareUri(topic, group, options), failing, routed, 0));
        next.start();
        Set<String> dead = ConcurrentHashMap.newKeySet();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                kafka.readAll(dlt, Duration.ofSeconds(5)).forEach(r -> dead.add(r.value()));
                return routed.size() + dead.size() >= produced.size();
            });
        } catch (ConditionTimeoutException e) {
            // asserted below
        }
        next.stop();
        Set<String> seen = new HashSet<>(routed);
        seen.addAll(dead);
        System.out.printf("share leave together at a stop: %d released at the stop, routed %d, dead-lettered %d%n",
                released, routed.size(), dead.size());
        assertThat(seen).as("routed or dead-lettered (none archived)").containsExactlyInAnyOrderElementsOf(produced);
        assertThat(dead).as("dead-lettered on their last delivery").isEqualTo(failing);
    }

    /**
     * Six records on a new topic of one partition, for a group with delivery limit 2 (their next delivery after the
     * first is their last), consumed by one window of two share consumers that start one record at a time.
     */
    private final class SixOnTheirLastButOne {
        final String topic;
        final String group = KafkaTestSupport.uniqueName("sg");
        final List<String> produced;

        SixOnTheirLastButOne(String name) throws Exception {
            topic = KafkaTestSupport.uniqueName(name);
            kafka.createTopic(topic, 1);
            prepareGroup(group, 0);
            deliveryLimit(group, 2);
            produced = kafka.produceIds(topic, 6, "k", 6);
        }

        String uri(String extra) {
            return shareUri(topic, group, "consumersCount=1&consumersPerWindow=2&maxConcurrency=1&maxPollRecords=10"
                                          + extra);
        }
    }

    /** The premise of the first two cases: the first record runs, and one consumer acquired all six (one poll's worth). */
    private static List<ShareFetchTask> awaitOneHoldsAllSix(CamelContext context, CountDownLatch firstStarted)
            throws InterruptedException {
        assertThat(firstStarted.await(90, TimeUnit.SECONDS)).as("the first record started").isTrue();
        List<ShareFetchTask> tasks = shareConsumer(context).tasks();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> tasks.stream().mapToInt(t -> t.shareSnapshot().held()).max().orElse(0) == 6);
        return tasks;
    }

    /** Fails the {@code failing} records every time; records the others routed through, each after {@code workMs}. */
    private static RouteBuilder failingRoute(String uri, Set<String> failing, Set<String> routed, long workMs) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(exchange -> {
                    String id = exchange.getMessage().getBody(String.class);
                    Thread.sleep(workMs);
                    if (failing.contains(id)) {
                        throw new IllegalStateException("always fails");
                    }
                    routed.add(id);
                });
            }
        };
    }
}
