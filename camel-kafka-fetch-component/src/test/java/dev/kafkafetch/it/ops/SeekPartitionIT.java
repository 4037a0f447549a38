package dev.kafkafetch.it.ops;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.OldestUnfinished;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.task.OperatorActionRefusedException;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * An operator seeks one partition (operatorActions=true), carried out by its fetch thread: back to an offset or a time,
 * the records from there on are delivered again, in order, and nothing before it; forward, the seek is refused without
 * confirmSkip (nothing changes), and with it skips exactly the offsets between, the group commits the new position at
 * once although a record of the old window still runs, and that record's late end commits nothing.
 */
class SeekPartitionIT extends KafkaFetchITSupport {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseStuckThreads() {
        release.countDown();
    }

    @Test
    void seekingBackDeliversAgainFromTheOffsetOrTheTime() throws Exception {
        String topic = KafkaTestSupport.uniqueName("opseekback");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        Recorder seen = new Recorder();
        KafkaFetchConsumer consumer = start(topic, group, seen, -1);
        List<String> first = kafka.produceIds(topic, 10, "a", 3);
        List<String> second = kafka.produceIds(topic, 20, "b", 3);
        awaitCount(seen, 30, TIMEOUT);
        TopicPartition tp = new TopicPartition(topic, 0);
        await().atMost(TIMEOUT).until(() -> committed(group, topic, tp) == 30);

        String outcome = consumer.seekPartition(topic, 0, 10, false, "the test");
        assertThat(outcome).contains(tp + " sought back from 30 to 10 for the test");
        await().atMost(TIMEOUT).until(() -> seen.count() >= 50);
        assertThat(seen.offsetsByPartition().get(0).subList(30, 50)).as("delivered again from 10, in order")
                .isEqualTo(range(10, 30));
        assertThat(seen.duplicates()).containsExactlyInAnyOrderElementsOf(second);
        await().atMost(TIMEOUT).until(() -> committed(group, topic, tp) == 30);

        // to a time: the first record at or after the first record's time of the second batch
        List<ConsumerRecord<String, String>> records = kafka.readAll(topic, TIMEOUT);
        long time = records.get(10).timestamp();
        long expected = records.stream().filter(r -> r.timestamp() >= time).mapToLong(ConsumerRecord::offset).min()
                .orElseThrow();
        outcome = consumer.seekPartitionToTime(topic, 0, Instant.ofEpochMilli(time), false, "the test");
        assertThat(outcome).contains("sought back from 30 to " + expected).contains("(offset " + expected + ")");
        int again = 30 - (int) expected;
        await().atMost(TIMEOUT).until(() -> seen.count() >= 50 + again);
        assertThat(seen.offsetsByPartition().get(0).subList(50, 50 + again)).isEqualTo(range(expected, 30));
        assertThat(seen.lost(first)).isEmpty();
        TaskSnapshot t = consumer.taskSnapshots().get(0);
        assertThat(t.seeks()).isEqualTo(2);
        assertThat(t.offsetsSkipped()).isZero();
        assertThatThrownBy(() -> consumer.seekPartition(topic, 0, 31, true, "the test"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holds offsets 0 to 30");
    }

    @Test
    void seekingForwardSkipsExactlyTheRangeOnlyWhenConfirmed() throws Exception {
        String topic = KafkaTestSupport.uniqueName("opseekfwd");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        Recorder seen = new Recorder();
        KafkaFetchConsumer consumer = start(topic, group, seen, 5);
        List<String> produced = kafka.produceIds(topic, 20, "f", 3);
        TopicPartition tp = new TopicPartition(topic, 0);
        await().atMost(TIMEOUT).until(() -> {
            OldestUnfinished o = PartitionPauseIT.partition(consumer, 0).oldestUnfinished();
            return o != null && o.offset() == 5 && "running".equals(o.state());
        });
        await().atMost(TIMEOUT).until(() -> committed(group, topic, tp) == 5);

        assertThatThrownBy(() -> consumer.seekPartition(topic, 0, 12, false, "the test"))
                .isInstanceOf(OperatorActionRefusedException.class)
                .hasMessageContaining("Seeking " + tp + " to offset 12 skips offsets 5..11 (up to 7 records not"
                                      + " processed)")
                .hasMessageContaining("confirmSkip=true");
        assertThat(consumer.taskSnapshots().get(0).seeks()).as("nothing changed").isZero();
        assertThat(PartitionPauseIT.partition(consumer, 0).oldestUnfinished().offset()).isEqualTo(5);

        String outcome = consumer.seekPartition(topic, 0, 12, true, "the test");
        assertThat(outcome).contains(tp + " sought forward from 5 to 12 for the test: skipped offsets 5..11 (up to 7"
                                     + " records not processed)");
        // the next commit is the new position, while offset 5 of the old window still runs (and blocks the lane)
        await().atMost(TIMEOUT).until(() -> committed(group, topic, tp) == 12);
        assertThat(consumer.taskSnapshots().get(0).running()).as("offset 5 still runs").isEqualTo(1);
        assertThat(seen.ids()).as("nothing after it ran yet: its lane is busy")
                .containsExactlyInAnyOrderElementsOf(idsAt(produced, 0, 5));

        release.countDown();
        await().atMost(TIMEOUT).until(() -> seen.ids().containsAll(idsAt(produced, 12, 20)));
        await().atMost(TIMEOUT).until(() -> committed(group, topic, tp) == 20);
        assertThat(seen.ids()).as("exactly 6..11 skipped (5 ran, its end ignored)")
                .containsExactlyInAnyOrderElementsOf(idsAt(produced, 0, 6, 12, 20));
        assertThat(seen.duplicates()).isEmpty();
        TaskSnapshot t = consumer.taskSnapshots().get(0);
        assertThat(t.seeks()).isEqualTo(1);
        assertThat(t.offsetsSkipped()).isEqualTo(7);
        assertThat(t.lastSeek()).contains("sought forward from 5 to 12");
    }

    /**
     * A seek back while records of many key lanes run (ordering=KEY, maxConcurrency=8): the records of the old window
     * still running keep their lanes, so two executions of one key never overlap, also across the seek; lost = 0, and
     * only records from the target on run twice.
     */
    @Test
    void seekingBackWithKeyOrderingNeverOverlapsALane() throws Exception {
        String topic = KafkaTestSupport.uniqueName("opseekkey");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        Recorder seen = new Recorder();
        Map<String, AtomicInteger> inLane = new ConcurrentHashMap<>();
        AtomicInteger overlaps = new AtomicInteger();
        CamelContext ctx = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "operatorActions=true&pollTimeoutMs=200&ordering=KEY&maxConcurrency=8"))
                        .routeId("k").process(seen.measuring(e -> {
                            String key = e.getMessage().getHeader(KafkaFetchConstants.KEY, String.class);
                            AtomicInteger lane = inLane.computeIfAbsent(key, k -> new AtomicInteger());
                            if (lane.incrementAndGet() > 1) {
                                overlaps.incrementAndGet();
                            }
                            try {
                                Thread.sleep(5);
                            } finally {
                                lane.decrementAndGet();
                            }
                        })).process(seen);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) ctx.getRoute("k").getConsumer();
        await().atMost(TIMEOUT).until(() -> PartitionPauseIT.task(consumer).partitions().size() == 1);
        List<String> produced = kafka.produceIds(topic, 400, "key", 8);
        await().atMost(TIMEOUT).until(() -> seen.count() >= 100);
        await().atMost(TIMEOUT).until(() -> consumer.taskSnapshots().get(0).running() > 1);

        String outcome = consumer.seekPartition(topic, 0, 50, false, "the test");
        assertThat(outcome).contains("sought back from").contains("to 50");
        Matcher from = Pattern.compile("sought back from (\\d+) to 50")
                .matcher(outcome);
        assertThat(from.find()).as(outcome).isTrue();
        long resumePoint = Long.parseLong(from.group(1));
        assertThat(resumePoint).as("the seek goes back over finished records").isGreaterThan(50);
        // offsets 50 up to the resume point ran before the seek and run again after it: wait for them too, not only
        // for every id once (on a fast machine all 400 had run before the re-delivered ones came back)
        await().atMost(Duration.ofSeconds(60))
                .until(() -> seen.ids().containsAll(produced) && seen.count() >= 400 + (resumePoint - 50));
        assertThat(seen.lost(produced)).isEmpty();
        assertThat(overlaps.get()).as("two executions of one key at once").isZero();
        assertThat(seen.maxConcurrent()).as("lanes ran side by side").isGreaterThan(1);
        assertThat(seen.duplicates()).as("only records from the target on run twice").isNotEmpty()
                .allMatch(id -> produced.indexOf(id) >= 50);
        TopicPartition tp = new TopicPartition(topic, 0);
        await().atMost(TIMEOUT).until(() -> committed(group, topic, tp) == 400);
    }

    /**
     * A forward seek followed at once by a rebalance (a second member joins): the partition's next owner, whichever
     * member it is, starts at the target, so the skipped offsets stay skipped and everything after them is processed.
     * The partition is paused by the operator first, so nothing of it was polled (its resume point is the consumer's
     * position).
     */
    @Test
    void aRebalanceRightAfterAForwardSeekHandsTheTargetToTheNextOwner() throws Exception {
        String topic = KafkaTestSupport.uniqueName("opseekreb");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        CamelContext ctxA = startContext(memberRoute(topic, group, "a", a));
        KafkaFetchConsumer consumerA = (KafkaFetchConsumer) ctxA.getRoute("a").getConsumer();
        await().atMost(TIMEOUT).until(() -> PartitionPauseIT.task(consumerA).partitions().size() == 2);
        consumerA.pausePartition(topic, 0, "the test");
        await().atMost(TIMEOUT).until(() -> "operator".equals(PartitionPauseIT.partition(consumerA, 0).pausedReason()));
        List<String> ids = new ArrayList<>();
        for (int n = 0; n < 20; n++) {
            ids.add("id-reb-" + n);
            kafka.produce(topic, 0, "k", "id-reb-" + n, null);
        }
        String outcome = consumerA.seekPartition(topic, 0, 12, true, "the test");
        assertThat(outcome).contains("sought forward from 0 to 12").contains("skipped offsets 0..11");
        long rebalances = PartitionPauseIT.task(consumerA).rebalances();
        CamelContext ctxB = startContext(memberRoute(topic, group, "b", b));
        await().atMost(TIMEOUT).until(() -> PartitionPauseIT.task(consumerA).rebalances() > rebalances);
        consumerA.resumePartition(topic, 0, "the test"); // in case it came back to A

        await().atMost(TIMEOUT).until(() -> union(a, b).containsAll(ids.subList(12, 20)));
        assertThat(union(a, b)).as("the skipped range stays skipped across the rebalance")
                .doesNotContainAnyElementsOf(ids.subList(0, 12));
        TopicPartition tp = new TopicPartition(topic, 0);
        await().atMost(TIMEOUT).until(() -> committed(group, topic, tp) == 20);
        ctxB.stop();
    }

    private static RouteBuilder memberRoute(String topic, String group, String id, Recorder seen) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "operatorActions=true&pollTimeoutMs=200")).routeId(id).process(seen);
            }
        };
    }

    private static Set<String> union(Recorder a, Recorder b) {
        Set<String> all = new HashSet<>(a.ids());
        all.addAll(b.ids());
        return all;
    }

    /** A route on one partition; the record at {@code blockAt} (unless -1) waits for the test's release. */
    private KafkaFetchConsumer start(String topic, String group, Recorder seen, long blockAt) throws Exception {
        CamelContext ctx = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "operatorActions=true&pollTimeoutMs=200&shutdownTimeout=5000")).routeId("s")
                        .process(e -> {
                            if (e.getMessage().getHeader(KafkaFetchConstants.OFFSET, Long.class) == blockAt) {
                                release.await(120, TimeUnit.SECONDS);
                            }
                        }).process(seen);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) ctx.getRoute("s").getConsumer();
        await().atMost(TIMEOUT).until(() -> PartitionPauseIT.task(consumer).partitions().size() == 1);
        return consumer;
    }

    private static long committed(String group, String topic, TopicPartition tp) {
        Long offset = kafka.committedOffsets(group, topic).get(tp);
        return offset != null ? offset : -1;
    }

    private static List<Long> range(long from, long to) {
        return LongStream.range(from, to).boxed().toList();
    }

    /** The ids produced at these offsets of the one partition: pairs of [from, to). */
    private static List<String> idsAt(List<String> produced, int... ranges) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < ranges.length; i += 2) {
            ids.addAll(produced.subList(ranges[i], ranges[i + 1]));
        }
        return ids;
    }
}
