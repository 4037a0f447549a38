package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import dev.kafkafetch.KafkaFetchConsumerListener;
import dev.kafkafetch.it.DeadLetters;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.share.KafkaFetchShareConstants;
import dev.kafkafetch.share.ShareFetchTask;
import dev.kafkafetch.task.TaskState;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Camel's Pausable EIP on a share route: when the downstream service fails, the listener pauses the member, which
 * gives back what it had not started, releases the failed record (delivered again later, not a final failure) and
 * leaves the share group; while paused it asks the EIP's until-check and routes nothing; once the check says the
 * service is back it joins again and goes on. With a second member in the group, that member takes the work
 * meanwhile; a stop while paused is prompt. Every produced record is routed (lost = 0: nothing archived or rejected),
 * none twice beyond what the broker's refused acknowledgements and lost locks could re-deliver.
 */
class SharePausableIT extends ShareITSupport {

    /** A downstream service that a test takes down and brings back; while down, the route fails every record. */
    static final class Service {
        final AtomicBoolean up = new AtomicBoolean(true);
        final AtomicInteger failures = new AtomicInteger();
        /** Failures of records on their first delivery. */
        final AtomicInteger firstDeliveryFailures = new AtomicInteger();
        final AtomicInteger checks = new AtomicInteger();
        final AtomicBoolean wentDown = new AtomicBoolean();
        /** Goes down once, when the route has routed this many records (negative: never on its own)... */
        final int downAfter;
        /** ... and this says yes of the exchange of the record that finds it so. */
        volatile Predicate<Exchange> goDownWhen = e -> true;

        Service(int downAfter) {
            this.downAfter = downAfter;
        }

        boolean check() {
            checks.incrementAndGet();
            return up.get();
        }
    }

    @Test
    void pausesOnAFailingDownstreamAndResumesWithoutLoss() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-pausable");
        String group = oneTopicAndGroup(topic);
        List<String> produced = kafka.produceIds(topic, 200, "p", 200);
        Service service = new Service(50);
        // one record at a time, eight per poll: the service goes down while records of the poll wait behind it
        service.goDownWhen = e -> shareConsumer(e.getContext()).tasks().get(0).snapshot().queued() >= 2;
        Recorder recorder = new Recorder();
        // one share consumer per window: each consumer pauses on its own failed record, and this counts one
        List<ShareFetchTask> tasks = startAndAwaitPause(
                shareUri(topic, group, "maxConcurrency=1&maxPollRecords=8&consumersPerWindow=1"),
                service, recorder).tasks();
        // the premise: the member also gave back what waited behind the failed record
        assertThat(tasks.get(0).shareSnapshot().released()).as("the failed record and unstarted ones given back")
                .isGreaterThanOrEqualTo(2);
        // the failure that asks for the pause stops queued records from starting: only the running one failed
        assertThat(service.failures.get()).as("records run in the service while down").isEqualTo(1);
        int routedAtPause = recorder.count();
        int failedAtPause = service.failures.get();
        int checksAtPause = service.checks.get();
        await().atMost(Duration.ofSeconds(20)).until(() -> service.checks.get() > checksAtPause + 5);
        assertThat(tasks.get(0).state()).isEqualTo(TaskState.PAUSED);
        assertThat(recorder.count()).as("routed while paused").isEqualTo(routedAtPause);
        assertThat(service.failures.get()).as("records run while paused").isEqualTo(failedAtPause);
        assertThat(tasks.get(0).shareSnapshot().rejected()).as("failed records rejected").isZero();
        assertThat(tasks.get(0).shareSnapshot().released()).as("failed and unstarted records released").isPositive();

        service.up.set(true);
        awaitCount(recorder, produced.size(), Duration.ofSeconds(60));
        await().atMost(Duration.ofSeconds(20)).until(() -> tasks.get(0).state() == TaskState.RUNNING);
        long redeliverable = redeliverable(tasks);
        System.out.printf("share pausable: routed %d before the pause, %d failures, %d routed twice (bound %d), %s%n",
                routedAtPause, service.failures.get(), recorder.duplicates().size(), redeliverable,
                tasks.get(0).shareSnapshot());
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates().size()).isLessThanOrEqualTo((int) redeliverable);
        assertThat(tasks.get(0).shareSnapshot().rejected()).isZero();
    }

    @Test
    void aSecondMemberTakesTheWorkWhileTheFirstIsPaused() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-pausable-two");
        String group = oneTopicAndGroup(topic);
        List<String> before = kafka.produceIds(topic, 200, "before", 200);
        Service service = new Service(20);
        Recorder paused = new Recorder();
        Recorder other = new Recorder();
        String uri = shareUri(topic, group, "maxConcurrency=2");
        List<ShareFetchTask> tasks = startAndAwaitPause(uri, service, paused).tasks();
        int routedAtPause = paused.count();
        assertThat(routedAtPause).as("the premise: the first member paused in the middle of the backlog")
                .isLessThan(before.size());

        CamelContext otherContext = startContext(route(uri, "other", new Service(-1), other));
        List<ShareFetchTask> otherTasks = shareConsumer(otherContext).tasks();
        List<String> during = kafka.produceIds(topic, 100, "during", 100);
        List<String> sofar = new ArrayList<>(before);
        sofar.addAll(during);
        await().atMost(Duration.ofSeconds(60)).until(() -> union(paused, other).containsAll(sofar));
        assertThat(tasks.get(0).state()).isEqualTo(TaskState.PAUSED);
        assertThat(paused.count()).as("routed by the paused member").isEqualTo(routedAtPause);

        service.up.set(true);
        await().atMost(Duration.ofSeconds(30)).until(() -> tasks.get(0).state() == TaskState.RUNNING);
        // the other member steps aside, so what comes after the resume is the resumed member's to work
        otherContext.getRouteController().suspendRoute("other");
        await().atMost(Duration.ofSeconds(20)).until(() -> otherTasks.get(0).state() == TaskState.PAUSED);
        List<String> after = kafka.produceIds(topic, 100, "after", 100);
        List<String> all = new ArrayList<>(sofar);
        all.addAll(after);
        await().atMost(Duration.ofSeconds(60)).until(() -> union(paused, other).containsAll(all));
        int resumedGot = paused.count() - routedAtPause;

        List<ShareFetchTask> both = new ArrayList<>(tasks);
        both.addAll(otherTasks);
        long redeliverable = redeliverable(both);
        int twice = routedTwice(paused, other);
        System.out.printf("share pausable, two members: paused member %d (+%d after resume), other %d, routed twice"
                          + " %d (bound %d), %s / %s%n",
                routedAtPause, resumedGot, other.count(), twice, redeliverable, tasks.get(0).shareSnapshot(),
                otherTasks.get(0).shareSnapshot());
        assertThat(other.ids()).as("the other member got the work the paused one gave back").isNotEmpty();
        assertThat(resumedGot).as("records the resumed member routed").isGreaterThanOrEqualTo(after.size());
        assertThat(union(paused, other)).containsExactlyInAnyOrderElementsOf(all);
        assertThat(twice).isLessThanOrEqualTo((int) redeliverable);
        assertThat(both).allSatisfy(t -> assertThat(t.shareSnapshot().rejected()).isZero());
    }

    @Test
    void aStopWhilePausedIsPromptAndLosesNothing() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-pausable-stop");
        String group = oneTopicAndGroup(topic);
        List<String> produced = kafka.produceIds(topic, 100, "s", 100);
        Service service = new Service(30);
        Recorder recorder = new Recorder();
        long shutdownTimeoutMs = 120_000;
        Paused member = startAndAwaitPause(
                shareUri(topic, group, "maxConcurrency=2&shutdownTimeout=" + shutdownTimeoutMs), service, recorder);
        List<ShareFetchTask> tasks = member.tasks();
        int checksAtPause = service.checks.get();
        await().atMost(Duration.ofSeconds(20)).until(() -> service.checks.get() > checksAtPause);
        assertThat(tasks.get(0).state()).as("the premise: still paused, asking the until-check")
                .isEqualTo(TaskState.PAUSED);

        long stopAt = System.currentTimeMillis();
        member.context().stop();
        long stopMs = System.currentTimeMillis() - stopAt;
        assertThat(tasks.get(0).state()).isEqualTo(TaskState.TERMINATED);
        ShareSnapshot atStop = tasks.get(0).shareSnapshot();

        // a fresh member of the group gets everything the paused one did not route
        Recorder after = new Recorder();
        CamelContext next = startContext(route(shareUri(topic, group, "maxConcurrency=2"), "next", new Service(-1),
                after));
        List<ShareFetchTask> nextTasks = shareConsumer(next).tasks();
        await().atMost(Duration.ofSeconds(90)).until(() -> union(recorder, after).containsAll(produced));
        List<ShareFetchTask> both = new ArrayList<>(tasks);
        both.addAll(nextTasks);
        long redeliverable = redeliverable(both);
        int twice = routedTwice(recorder, after);
        System.out.printf("share pausable, stop while paused: %d ms (shutdownTimeout %d ms), routed %d + %d, twice %d"
                          + " (bound %d), %s%n",
                stopMs, shutdownTimeoutMs, recorder.count(), after.count(), twice, redeliverable, atStop);
        assertThat(stopMs).as("a stop while paused waits for nothing (wide margin)").isLessThan(shutdownTimeoutMs / 4);
        assertThat(atStop.rejected()).isZero();
        assertThat(union(recorder, after)).containsExactlyInAnyOrderElementsOf(produced);
        assertThat(twice).isLessThanOrEqualTo((int) redeliverable);
    }

    @Test
    void aCheckThatResumesWhileTheServiceIsStillDownArchivesNothing() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-pausable-flap");
        String dlt = topic + ".dlt";
        String group = oneTopicAndGroup(topic);
        kafka.createTopic(dlt, 1);
        deliveryLimit(group, 2);
        List<String> produced = kafka.produceIds(topic, 24, "f", 24);
        Service service = new Service(4); // down for good after 4 records
        AtomicInteger pauses = new AtomicInteger();
        Recorder recorder = new Recorder();
        // the until-check says resume at once: every record left fails both its deliveries; the member pauses after
        // each failure and comes back, so at many leaves queued records are given back, and those on their last
        // delivery run (one at a time, while the pause holds the dispatcher)
        CamelContext context = startContext(route(
                shareUri(topic, group, "maxConcurrency=1&maxPollRecords=8&shutdownTimeout=5000&deadLetterTopic=" + dlt),
                "r", service, recorder, o -> {
                    pauses.incrementAndGet();
                    return true;
                }));
        List<ShareFetchTask> tasks = shareConsumer(context).tasks();
        List<ConsumerRecord<String, String>> dead = new ArrayList<>();
        Set<String> deadIds = new HashSet<>();
        Set<String> handled = new HashSet<>();
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
            dead.clear();
            dead.addAll(kafka.readAll(dlt, Duration.ofSeconds(5)));
            deadIds.clear();
            dead.forEach(r -> deadIds.add(r.value()));
            handled.clear();
            handled.addAll(recorder.ids());
            handled.addAll(deadIds);
            return handled.containsAll(produced);
        });
        ShareSnapshot s = tasks.get(0).shareSnapshot();
        System.out.printf("share pausable, check resumes while down: %d pauses, %d first deliveries failed, routed %d,"
                          + " dead-lettered %d (%d letters), %s%n",
                pauses.get(), service.firstDeliveryFailures.get(), recorder.count(), deadIds.size(), dead.size(), s);
        assertThat(pauses.get()).as("the premise: the member paused and came back several times").isGreaterThan(2);
        assertThat(s.released()).as("the premise: records given back at the leaves").isPositive();
        assertThat(s.deliveryCounts()).as("the premise: last deliveries acquired").hasSizeGreaterThan(1);
        assertThat(s.deliveryCounts().get(1)).isPositive();
        // once a failure asks for the pause, a queued record on its first delivery is given back, never started
        assertThat(service.firstDeliveryFailures.get()).as("first deliveries run in the service while down")
                .isLessThanOrEqualTo(pauses.get());
        assertThat(dead).as("dead-lettered on the group's last delivery")
                .allSatisfy(r -> assertThat(DeadLetters.header(r, "kafka-fetch.dlt.delivery-count")).isEqualTo("2"));
        assertThat(handled).as("routed or dead-lettered: nothing archived")
                .containsExactlyInAnyOrderElementsOf(produced);
        assertThat(dead.size() - deadIds.size() + recorder.duplicates().size())
                .isLessThanOrEqualTo((int) redeliverable(tasks));
        assertThat(s.rejected()).isZero();
    }

    /** A started route's context and share tasks. */
    private record Paused(CamelContext context, List<ShareFetchTask> tasks) {
    }

    /**
     * Starts a pausing route and waits (the premise of every case) until its service went down, a record failed and
     * the member paused and left the group holding nothing.
     */
    private Paused startAndAwaitPause(String uri, Service service, Recorder recorder) throws Exception {
        CamelContext context = startContext(route(uri, "r", service, recorder));
        List<ShareFetchTask> tasks = shareConsumer(context).tasks();
        await().atMost(Duration.ofSeconds(90)).until(() -> tasks.get(0).state() == TaskState.PAUSED);
        assertThat(service.up).isFalse();
        assertThat(service.failures.get()).isPositive();
        assertThat(tasks.get(0).shareSnapshot().held()).isZero();
        return new Paused(context, tasks);
    }

    /** A one-partition topic and a new share group that starts at its beginning; returns the group. */
    private static String oneTopicAndGroup(String topic) throws Exception {
        kafka.createTopic(topic, 1);
        String group = KafkaTestSupport.uniqueName("sg");
        prepareGroup(group, 0);
        return group;
    }

    /** Records routed twice: by one route, or by both. */
    private static int routedTwice(Recorder a, Recorder b) {
        List<String> seen = new ArrayList<>(a.ids());
        seen.addAll(b.ids());
        return a.duplicates().size() + b.duplicates().size() + seen.size() - new HashSet<>(seen).size();
    }

    /**
     * What a run could route twice: records whose acknowledgement the broker refused or whose lock ran out while a
     * member held them.
     */
    private static long redeliverable(List<ShareFetchTask> tasks) {
        return tasks.stream().map(ShareFetchTask::shareSnapshot)
                .mapToLong(s -> s.acknowledgementFailures() + s.lockLost()).sum();
    }

    private static Set<String> union(Recorder a, Recorder b) {
        Set<String> ids = new HashSet<>(a.ids());
        ids.addAll(b.ids());
        return ids;
    }

    /** A share route with the Pausable EIP in front of a service that fails every record while it is down. */
    private static RouteBuilder route(String uri, String id, Service service, Recorder recorder) {
        return route(uri, id, service, recorder, o -> service.check());
    }

    private static RouteBuilder route(String uri, String id, Service service, Recorder recorder,
                                      Predicate<Object> untilCheck) {
        AtomicInteger routed = new AtomicInteger();
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId(id)
                        .pausable(new KafkaFetchConsumerListener(), untilCheck)
                        .process(exchange -> {
                            Thread.sleep(5);
                            if (service.downAfter >= 0 && routed.get() >= service.downAfter
                                && service.goDownWhen.test(exchange) && service.wentDown.compareAndSet(false, true)) {
                                service.up.set(false); // goes down once; the test brings it back
                            }
                            if (!service.up.get()) {
                                service.failures.incrementAndGet();
                                Integer delivery = exchange.getMessage()
                                        .getHeader(KafkaFetchShareConstants.DELIVERY_COUNT, Integer.class);
                                if (delivery != null && delivery == 1) {
                                    service.firstDeliveryFailures.incrementAndGet();
                                }
                                throw new IllegalStateException("service unavailable");
                            }
                        })
                        .process(recorder)
                        .process(exchange -> routed.incrementAndGet());
            }
        };
    }
}
