package dev.kafkafetch.observability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With a MeterRegistry in the Camel registry, a kafka-fetch route publishes its tasks' meters: records finished reach
 * the count produced and the lag reaches 0, every value equals the tasks' snapshots, and stopping or removing the route
 * removes the meters. Under a rebalance (a second member joins) with failing records, breakOnFirstError and a
 * dead-letter topic, the rebalance, retried and dead_lettered counters move on both members, and the per-partition
 * meters follow each member's assignment.
 */
class MicrometerMetersIT extends KafkaFetchITSupport {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void finishedRecordsReachTheCountProducedLagReachesZeroAndStoppingTheRouteRemovesTheMeters() throws Exception {
        String topic = KafkaTestSupport.uniqueName("meters");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 3);
        List<String> produced = kafka.produceIds(topic, 300, "m", 10);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Recorder recorder = new Recorder();
        CamelContext context = newContext();
        context.getRegistry().bind("meters", registry);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "consumersCount=2&maxConcurrency=4")).routeId("metered").process(recorder);
            }
        });
        context.start();

        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(100))
                .until(() -> sum(registry, "kafka.fetch.records", "outcome", "finished") == produced.size()
                             && sum(registry, "kafka.fetch.lag") == 0);
        assertThat(recorder.lost(produced)).as("lost").isEmpty();
        await().atMost(TIMEOUT).until(() -> kafka.committedOffsets(group, topic).equals(kafka.endOffsets(topic)));

        assertThat(registry.find("kafka.fetch.lag").gauges()).hasSize(2)
                .allSatisfy(g -> assertThat(g.getId().getTags()).extracting(t -> t.getKey() + "=" + t.getValue())
                        .contains("camelContext=" + context.getName(), "routeId=metered", "topic=" + topic,
                                "groupId=" + group))
                .extracting(g -> g.getId().getTag("task")).containsExactlyInAnyOrder("0", "1");
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("metered").getConsumer();
        await().atMost(TIMEOUT).untilAsserted(() -> {
            List<TaskSnapshot> tasks = consumer.taskSnapshots();
            for (int i = 0; i < tasks.size(); i++) {
                TaskSnapshot s = tasks.get(i);
                String task = String.valueOf(i);
                assertThat(sum(registry, "kafka.fetch.records", "task", task, "outcome", "finished"))
                        .isEqualTo(s.recordsFinished());
                assertThat(sum(registry, "kafka.fetch.commits", "task", task, "result", "success"))
                        .isEqualTo(s.commits());
                assertThat(sum(registry, "kafka.fetch.rebalances", "task", task)).isEqualTo(s.rebalances());
                assertThat(sum(registry, "kafka.fetch.assigned.partitions", "task", task))
                        .isEqualTo(s.partitions().size());
                FunctionTimer latency = registry.get("kafka.fetch.commit.latency").tag("task", task).functionTimer();
                assertThat(latency.count()).isEqualTo(s.commits() + s.commitFailures());
            }
            // a task whose partitions received no record may never commit; the others did
            assertThat(registry.find("kafka.fetch.commit.latency").functionTimers().stream()
                    .mapToDouble(FunctionTimer::count).sum()).isPositive();
        });
        assertThat(sum(registry, "kafka.fetch.in.flight")).isZero();
        assertThat(sum(registry, "kafka.fetch.records", "outcome", "failed")).isZero();

        context.getRouteController().stopRoute("metered");
        assertThat(kafkaFetchMeters(registry)).as("meters of a stopped route").isEmpty();
        context.getRouteController().startRoute("metered");
        assertThat(registry.find("kafka.fetch.lag").gauges()).as("registered again on start").hasSize(2);
        context.getRouteController().stopRoute("metered");
        context.removeRoute("metered");
        assertThat(kafkaFetchMeters(registry)).as("meters of a removed route").isEmpty();
    }

    @Test
    void aRebalanceAndDeadLettersMoveTheirCountersOnBothMembers() throws Exception {
        String topic = KafkaTestSupport.uniqueName("meters-rebalance");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 4);
        kafka.createTopic(dlt, 1);
        String options = "maxConcurrency=2&breakOnFirstError=true&breakOnFirstErrorMaxAttempts=2&deadLetterTopic="
                         + dlt + "&metricsPerPartition=true";
        List<String> produced = new ArrayList<>(kafka.produceIds(topic, 100, "w1", 8));
        List<String> poison = new ArrayList<>(producePoison(topic, "w1"));
        SimpleMeterRegistry metersA = new SimpleMeterRegistry();
        Recorder a = new Recorder();
        CamelContext memberA = member(topic, group, options, metersA, a);

        // alone: every partition, the first wave's poison records retried once and dead-lettered
        await().atMost(TIMEOUT).until(() -> a.ids().containsAll(produced)
                                            && kafka.readAll(dlt, Duration.ofSeconds(5)).size() == 4
                                            && kafka.committedOffsets(group, topic).equals(kafka.endOffsets(topic)));
        assertThat(sum(metersA, "kafka.fetch.records", "outcome", "dead_lettered")).isEqualTo(4);
        assertThat(sum(metersA, "kafka.fetch.records", "outcome", "failed")).isEqualTo(4);
        assertThat(sum(metersA, "kafka.fetch.records", "outcome", "retried")).isEqualTo(4);
        await().atMost(TIMEOUT).untilAsserted(
                () -> assertThat(partitionMeters(metersA)).isEqualTo(assigned(memberA)).hasSize(4));
        double rebalancesAlone = sum(metersA, "kafka.fetch.rebalances");
        assertThat(rebalancesAlone).isPositive();

        // a second member joins: two partitions each
        SimpleMeterRegistry metersB = new SimpleMeterRegistry();
        Recorder b = new Recorder();
        CamelContext memberB = member(topic, group, options, metersB, b);
        await().atMost(TIMEOUT).until(() -> sum(metersA, "kafka.fetch.assigned.partitions") == 2
                                            && sum(metersB, "kafka.fetch.assigned.partitions") == 2);
        assertThat(sum(metersA, "kafka.fetch.rebalances")).isGreaterThan(rebalancesAlone);
        assertThat(sum(metersB, "kafka.fetch.rebalances")).isPositive();
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(partitionMeters(metersA)).isEqualTo(assigned(memberA)).hasSize(2);
            assertThat(partitionMeters(metersB)).isEqualTo(assigned(memberB)).hasSize(2);
        });

        // the second wave, poison on every partition: both members dead-letter theirs
        produced.addAll(kafka.produceIds(topic, 100, "w2", 8));
        poison.addAll(producePoison(topic, "w2"));
        List<ConsumerRecord<String, String>> deadLetters = new ArrayList<>();
        await().atMost(TIMEOUT).until(() -> {
            deadLetters.clear();
            deadLetters.addAll(kafka.readAll(dlt, Duration.ofSeconds(5)));
            Set<String> seen = new HashSet<>(a.ids());
            seen.addAll(b.ids());
            return seen.containsAll(produced) && deadLetters.size() >= poison.size();
        });
        assertThat(deadLetters).extracting(ConsumerRecord::value).containsAll(poison); // lost: none
        await().atMost(TIMEOUT).until(() -> sum(metersA, "kafka.fetch.records", "outcome", "dead_lettered")
                                            + sum(metersB, "kafka.fetch.records", "outcome", "dead_lettered")
                                            == deadLetters.size());
        assertThat(sum(metersA, "kafka.fetch.records", "outcome", "dead_lettered")).isGreaterThanOrEqualTo(6);
        assertThat(sum(metersB, "kafka.fetch.records", "outcome", "dead_lettered")).isGreaterThanOrEqualTo(2);
        assertThat(sum(metersB, "kafka.fetch.records", "outcome", "retried")).isGreaterThanOrEqualTo(2);
        for (MeterRegistry meters : List.of(metersA, metersB)) {
            assertThat(sum(meters, "kafka.fetch.records", "outcome", "failed"))
                    .isEqualTo(sum(meters, "kafka.fetch.records", "outcome", "dead_lettered"));
        }
    }

    /** One poison record on each of the topic's 4 partitions; the route fails every record whose id says poison. */
    private static List<String> producePoison(String topic, String wave) {
        List<String> ids = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            String id = "poison-" + wave + "-" + p;
            kafka.produce(topic, p, "pk-" + p, id, Map.of());
            ids.add(id);
        }
        return ids;
    }

    private CamelContext member(String topic, String group, String options, MeterRegistry meters, Recorder recorder)
            throws Exception {
        CamelContext context = newContext();
        context.getRegistry().bind("meters", meters);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from(uri(topic, group, options)).routeId("member").process(e -> {
                    String body = e.getMessage().getBody(String.class);
                    if (body.startsWith("poison-")) {
                        throw new IllegalArgumentException("cannot handle " + body);
                    }
                }).process(recorder);
            }
        });
        context.start();
        return context;
    }

    /** The partitions assigned to the member's tasks now, as topic-partition. */
    private static Set<String> assigned(CamelContext member) {
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) member.getRoute("member").getConsumer();
        return consumer.taskSnapshots().stream().flatMap(t -> t.partitions().stream())
                .map(p -> p.topic() + "-" + p.partition()).collect(Collectors.toSet());
    }

    /** The partitions that have per-partition meters, as topic-partition. */
    private static Set<String> partitionMeters(MeterRegistry meters) {
        Set<String> partitions = new HashSet<>();
        for (Gauge g : meters.find("kafka.fetch.partition.lag").gauges()) {
            partitions.add(g.getId().getTag("topic") + "-" + g.getId().getTag("partition"));
        }
        assertThat(meters.find("kafka.fetch.partition.in.flight").gauges()).hasSize(partitions.size());
        assertThat(meters.find("kafka.fetch.partition.held").gauges()).hasSize(partitions.size());
        return partitions;
    }

    /** The sum over every meter of that name and tags (a counter's count, a gauge's value). */
    static double sum(MeterRegistry registry, String name, String... tags) {
        double sum = 0;
        for (Meter m : registry.find(name).tags(tags).meters()) {
            sum += m.measure().iterator().next().getValue();
        }
        return sum;
    }

    static List<Meter> kafkaFetchMeters(MeterRegistry registry) {
        return registry.getMeters().stream().filter(m -> m.getId().getName().startsWith("kafka.fetch.")).toList();
    }
}
