package dev.kafkafetch.it.ops;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.DeadLetters;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.OldestUnfinished;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.task.OperatorActions;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Processor;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An operator parks a record stuck in the route (operatorActions=true): the console names it first (offset, key,
 * attempt, running, its thread), then it is dead-lettered with reason {@code parked} and its provenance, its partition
 * commits past it and the records behind it run; also when a second member joins while it is parked. Lost = 0: every
 * produced id but the parked one is processed, the parked one is in the dead-letter topic.
 */
class ParkRecordIT extends KafkaFetchITSupport {

    /**
     * Two slots for the park during a rebalance: when the record's partition comes back after an earlier park gave up
     * on its first execution (whose thread stays stuck here), its re-delivery runs and hangs too, and parking that one
     * gives up on a second thread; with maxConcurrency=1 the bound on given-up threads (maxConcurrency per task)
     * refuses it until the first one returns.
     */
    private static final String MC2 = "&maxConcurrency=2";
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseStuckThreads() {
        release.countDown();
    }

    @Test
    void parkingAStuckRecordLetsItsPartitionCommitPastIt() throws Exception {
        String topic = KafkaTestSupport.uniqueName("oppark");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        kafka.createTopic(dlt, 1);
        String stuckId = "id-park-7";
        Recorder seen = new Recorder();
        CamelContext ctx = startContext(route(topic, group, "p", dlt, stuckId, seen));
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) ctx.getRoute("p").getConsumer();
        await().atMost(Duration.ofSeconds(30)).until(() -> PartitionPauseIT.task(consumer).partitions().size() == 2);
        List<String> produced = kafka.produceIds(topic, 200, "park", 10);
        ConsumerRecord<String, String> stuck = recordOf(topic, stuckId);

        // what is it stuck on: the console names the record, running, and its thread
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            OldestUnfinished o = oldest(consumer, stuck.partition());
            return o != null && o.offset() == stuck.offset() && "running".equals(o.state()) && o.runningMs() > 0;
        });
        OldestUnfinished o = oldest(consumer, stuck.partition());
        assertThat(o.key()).isEqualTo(stuck.key());
        assertThat(o.attempt()).isEqualTo(1);
        assertThat(o.thread()).isNotNull();
        assertThat(o.threadState()).isEqualTo("TIMED_WAITING");
        assertThat(o.waitingBehind()).as("not KEY ordering").isEqualTo(-1);
        long behind = produced.stream().filter(id -> !seen.ids().contains(id)).count() - 1;
        assertThat(behind).as("records waiting behind the stuck one").isPositive();

        String outcome = consumer.parkRecord(topic, stuck.partition(), stuck.offset(), "the test");
        assertThat(outcome).contains("parked " + topic + "-" + stuck.partition() + "@" + stuck.offset());

        awaitParkedAndCommitted(topic, dlt, group, stuck, produced, List.of(seen));
        assertThat(seen.duplicates()).isEmpty();
        assertThat(PartitionPauseIT.task(consumer).recordsParked()).isEqualTo(1);
    }

    @Test
    void parkDuringARebalance() throws Exception {
        String topic = KafkaTestSupport.uniqueName("opparkreb");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 4);
        kafka.createTopic(dlt, 1);
        String stuckId = "id-parkreb-11";
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        CamelContext ctxA = startContext(route(topic, group, "a", dlt, stuckId, a, MC2));
        KafkaFetchConsumer consumerA = (KafkaFetchConsumer) ctxA.getRoute("a").getConsumer();
        await().atMost(Duration.ofSeconds(30)).until(() -> PartitionPauseIT.task(consumerA).partitions().size() == 4);
        List<String> produced = kafka.produceIds(topic, 400, "parkreb", 20);
        ConsumerRecord<String, String> stuck = recordOf(topic, stuckId);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            OldestUnfinished o = oldest(consumerA, stuck.partition());
            return o != null && o.offset() == stuck.offset() && "running".equals(o.state());
        });
        long rebalancesBefore = PartitionPauseIT.task(consumerA).rebalances();

        // a second member joins; A's revoke waits for the stuck record (revokeTimeoutMs): while its fetch thread is in
        // that wait (its snapshot stops moving), the park is asked for, of whichever member holds the record then
        CamelContext ctxB = startContext(route(topic, group, "b", dlt, stuckId, b, MC2));
        KafkaFetchConsumer consumerB = (KafkaFetchConsumer) ctxB.getRoute("b").getConsumer();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(
                () -> System.currentTimeMillis() - PartitionPauseIT.task(consumerA).snapshotTime() > 700);
        assertThat(PartitionPauseIT.task(consumerA).rebalances()).as("inside the revoke").isEqualTo(rebalancesBefore);
        // the operator asks every member, as long as none has parked it
        AtomicReference<String> parkedOn = new AtomicReference<>();
        List<String> outcomes = new CopyOnWriteArrayList<>();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> {
            if (tryPark(consumerA, stuck, outcomes)) {
                parkedOn.set("a");
            } else if (tryPark(consumerB, stuck, outcomes)) {
                parkedOn.set("b");
            }
            return parkedOn.get() != null;
        });
        await().atMost(Duration.ofSeconds(30))
                .until(() -> PartitionPauseIT.task(consumerA).rebalances() > rebalancesBefore
                             && !PartitionPauseIT.task(consumerB).partitions().isEmpty());
        System.out.println(
                "ParkRecordIT: parked on member " + parkedOn.get() + " after the rebalance began: " + outcomes);

        awaitParkedAndCommitted(topic, dlt, group, stuck, produced, List.of(a, b));
        // the parked record's partition was held by nobody unfinished past it; a rebalance re-delivers at most what
        // finished after the last commit of a revoked partition: the revoke commits that, so nothing runs twice
        List<String> all = new ArrayList<>(a.all().stream().map(Recorder.Seen::id).toList());
        all.addAll(b.all().stream().map(Recorder.Seen::id).toList());
        Set<String> once = new HashSet<>();
        List<String> twice = all.stream().filter(id -> !once.add(id)).toList();
        assertThat(twice).as("duplicates (parked on " + parkedOn.get() + ")").isEmpty();
    }

    /**
     * The stuck record's partition comes back to the first member after a rebalance (a second member joins and
     * leaves) while its first execution still runs there: the re-delivered record waits behind that execution in its
     * lane (the console says queued), and a park takes both out, so the partition moves on.
     */
    @Test
    void parkWhenThePartitionCameBackWhileItsEarlierExecutionStillRuns() throws Exception {
        String topic = KafkaTestSupport.uniqueName("opparkback");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 4);
        kafka.createTopic(dlt, 1);
        String stuckId = "id-parkback-11";
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        CamelContext ctxA = startContext(route(topic, group, "a", dlt, stuckId, a));
        KafkaFetchConsumer consumerA = (KafkaFetchConsumer) ctxA.getRoute("a").getConsumer();
        await().atMost(Duration.ofSeconds(30)).until(() -> PartitionPauseIT.task(consumerA).partitions().size() == 4);
        List<String> produced = kafka.produceIds(topic, 400, "parkback", 20);
        ConsumerRecord<String, String> stuck = recordOf(topic, stuckId);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            OldestUnfinished o = oldest(consumerA, stuck.partition());
            return o != null && o.offset() == stuck.offset() && "running".equals(o.state());
        });
        long rebalancesBefore = PartitionPauseIT.task(consumerA).rebalances();
        CamelContext ctxB = startContext(route(topic, group, "b", dlt, stuckId, b));
        KafkaFetchConsumer consumerB = (KafkaFetchConsumer) ctxB.getRoute("b").getConsumer();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> PartitionPauseIT.task(consumerA).rebalances() > rebalancesBefore
                             && !PartitionPauseIT.task(consumerB).partitions().isEmpty());
        ctxB.stop();
        await().atMost(Duration.ofSeconds(60)).until(() -> PartitionPauseIT.task(consumerA).partitions().size() == 4);
        // polled again, it waits behind the execution still running from before the rebalance
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            OldestUnfinished o = oldest(consumerA, stuck.partition());
            return o != null && o.offset() == stuck.offset() && "queued".equals(o.state());
        });
        assertThat(PartitionPauseIT.task(consumerA).running()).as("its earlier execution").isEqualTo(1);
        // what it waits behind is named: that earlier execution, its thread and how long it has run
        OldestUnfinished queued = oldest(consumerA, stuck.partition());
        assertThat(queued.waitsBehind()).as("what %s waits behind", queued).isNotNull();
        assertThat(queued.waitsBehind().offset()).isEqualTo(stuck.offset());
        assertThat(queued.waitsBehind().state()).isEqualTo("running");
        assertThat(queued.waitsBehind().thread()).isNotNull();
        assertThat(queued.waitsBehind().runningMs()).isGreaterThan(0);

        String outcome = consumerA.parkRecord(topic, stuck.partition(), stuck.offset(), "the test");
        assertThat(outcome).startsWith(OperatorActions.PARKED).contains("(waiting")
                .contains("its earlier execution, still running from before a rebalance, is given up on too");
        awaitParkedAndCommitted(topic, dlt, group, stuck, produced, List.of(a, b));
    }

    /**
     * Parks the record on that consumer; false when it did not park it there (not assigned there, or not polled yet;
     * it may have given up on an execution still running there from before the rebalance).
     */
    private static boolean tryPark(KafkaFetchConsumer consumer, ConsumerRecord<String, String> stuck,
                                   List<String> outcomes) {
        try {
            String outcome = consumer.parkRecord(stuck.topic(), stuck.partition(), stuck.offset(), "the test");
            outcomes.add(outcome);
            return outcome.startsWith(OperatorActions.PARKED);
        } catch (IllegalArgumentException notHere) {
            return false;
        }
    }

    /**
     * The parked record is in the dead-letter topic once, with reason parked and its provenance; every other produced
     * id was processed; the group committed every partition to its end.
     */
    private static void awaitParkedAndCommitted(String topic, String dlt, String group,
                                                ConsumerRecord<String, String> stuck, List<String> produced,
                                                List<Recorder> recorders) {
        List<ConsumerRecord<String, String>> letters = DeadLetters.awaitRecords(kafka, dlt, 1, Duration.ofSeconds(30));
        assertThat(letters).hasSize(1);
        ConsumerRecord<String, String> letter = letters.get(0);
        assertThat(letter.value()).isEqualTo(stuck.value());
        assertThat(DeadLetters.header(letter, "kafka-fetch.dlt.reason")).isEqualTo("parked");
        assertThat(DeadLetters.header(letter, "kafka-fetch.dlt.original-topic")).isEqualTo(topic);
        assertThat(DeadLetters.header(letter, "kafka-fetch.dlt.original-partition"))
                .isEqualTo(String.valueOf(stuck.partition()));
        assertThat(DeadLetters.header(letter, "kafka-fetch.dlt.original-offset"))
                .isEqualTo(String.valueOf(stuck.offset()));
        assertThat(DeadLetters.header(letter, "kafka-fetch.dlt.exception-message")).contains("parked by the test");

        List<String> expected = produced.stream().filter(id -> !id.equals(stuck.value())).toList();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Set<String> ids = new HashSet<>();
            recorders.forEach(r -> ids.addAll(r.ids()));
            return ids.containsAll(expected);
        });
        Map<TopicPartition, Long> end = kafka.endOffsets(topic);
        await().atMost(Duration.ofSeconds(30)).until(() -> kafka.committedOffsets(group, topic).equals(end));
        for (Recorder r : recorders) {
            assertThat(r.ids()).as("the parked record never finished in the route").doesNotContain(stuck.value());
        }
    }

    private RouteBuilder route(String topic, String group, String id, String dlt, String stuckId, Recorder seen) {
        return route(topic, group, id, dlt, stuckId, seen, "");
    }

    private RouteBuilder route(String topic, String group, String id, String dlt, String stuckId, Recorder seen,
                               String extra) {
        Processor block = exchange -> {
            if (stuckId.equals(exchange.getMessage().getBody(String.class))) {
                release.await(120, TimeUnit.SECONDS);
            }
        };
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "operatorActions=true&deadLetterTopic=" + dlt
                                       + "&pollTimeoutMs=200&revokeTimeoutMs=3000&shutdownTimeout=5000" + extra))
                        .routeId(id).process(block).process(seen);
            }
        };
    }

    private static ConsumerRecord<String, String> recordOf(String topic, String id) {
        return kafka.readAll(topic, Duration.ofSeconds(30)).stream().filter(r -> id.equals(r.value())).findFirst()
                .orElseThrow();
    }

    private static OldestUnfinished oldest(KafkaFetchConsumer consumer, int partition) {
        for (PartitionSnapshot p : PartitionPauseIT.task(consumer).partitions()) {
            if (p.partition() == partition) {
                return p.oldestUnfinished();
            }
        }
        return null;
    }
}
