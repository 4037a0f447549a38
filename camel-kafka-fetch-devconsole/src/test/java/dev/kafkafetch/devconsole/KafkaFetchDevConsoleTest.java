package dev.kafkafetch.devconsole;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.util.json.JsonObject;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code kafka-fetch} console, read through Camel's dev console registry while routes consume a real broker,
 * shows in TEXT and JSON: each route (secrets masked), each fetch task with its group membership, each assigned
 * partition with committed offsets equal to what the broker's Admin API reports, lag that falls to 0 once consumption
 * catches up, and counters equal to the records produced; a suspended route shows PAUSED (partitions paused by the
 * user); a failing route shows its failed records; the routeId and partitions options filter the output.
 */
class KafkaFetchDevConsoleTest extends DevConsoleTestSupport {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Test
    void showsTasksPartitionsCommittedOffsetsLagAndCounters() throws Exception {
        String topic = KafkaTestSupport.uniqueName("dc-main");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 3);
        AtomicInteger processed = new AtomicInteger();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                // small window and slow route: back-pressure pauses and a visible lag while consuming
                from(uri(topic, group, "consumersCount=2&maxPollRecords=20&maxInFlightRecords=50"))
                        .routeId("orders")
                        .process(e -> {
                            Thread.sleep(2);
                            processed.incrementAndGet();
                        });
            }
        });

        // both tasks joined the group and share the 3 partitions before anything is produced (no later rebalance)
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> {
            List<JsonObject> tasks = tasks(route(json(context, Map.of()), "orders"));
            return tasks.size() == 2
                   && tasks.stream().allMatch(t -> "RUNNING".equals(t.getString("state"))
                                                   && t.getInteger("partitionCount") >= 1)
                   && tasks.stream().mapToInt(t -> t.getInteger("partitionCount")).sum() == 3;
        });

        int count = 1500;
        kafka.produceIds(topic, count, "m", 30);

        // while consuming: some partition lags behind its end offset
        AtomicBoolean sawLag = new AtomicBoolean();
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(10)).until(() -> {
            for (JsonObject p : allPartitions(route(json(context, Map.of()), "orders"))) {
                sawLag.compareAndSet(false, p.getLong("lag") > 0);
            }
            return sawLag.get() || processed.get() == count;
        });
        assertThat(sawLag).as("a lag > 0 was shown while consuming").isTrue();
        String whileConsuming = text(context, Map.of());

        await().atMost(TIMEOUT).until(() -> processed.get() == count);
        Map<TopicPartition, Long> end = kafka.endOffsets(topic);
        // caught up: lag 0, nothing in flight, every partition committed up to its end
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> {
            List<JsonObject> parts = allPartitions(route(json(context, Map.of()), "orders"));
            return parts.size() == 3 && parts.stream().allMatch(p -> p.getLong("lag") == 0
                                                                     && p.getInteger("inFlight") == 0
                                                                     && p.getLong("committed").longValue()
                                                                        == end.get(new TopicPartition(topic,
                                                                                p.getInteger("partition"))));
        });

        JsonObject route = route(json(context, Map.of()), "orders");
        assertThat(route.getString("endpointUri")).startsWith("kafka-fetch://" + topic).contains("groupId=" + group);
        assertThat(route.getString("consumerStatus")).isEqualTo("Started");

        // committed offsets and end offsets are exactly what the broker reports
        Map<TopicPartition, Long> shownCommitted = new TreeMap<>(
                java.util.Comparator.comparingInt(TopicPartition::partition));
        Map<TopicPartition, Long> shownEnd = new TreeMap<>(
                java.util.Comparator.comparingInt(TopicPartition::partition));
        for (JsonObject p : allPartitions(route)) {
            TopicPartition tp = new TopicPartition(p.getString("topic"), p.getInteger("partition"));
            shownCommitted.put(tp, p.getLong("committed"));
            shownEnd.put(tp, p.getLong("endOffset"));
            assertThat(p.getLong("position")).isEqualTo(end.get(tp));
            assertThat(p.getLong("committable")).isEqualTo(end.get(tp));
            assertThat(p.getBoolean("paused")).isFalse();
        }
        assertThat(shownCommitted).containsExactlyInAnyOrderEntriesOf(kafka.committedOffsets(group, topic));
        assertThat(shownEnd).containsExactlyInAnyOrderEntriesOf(end);
        assertThat(end.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(count);

        // counters match what was produced
        assertThat(sum(route, "recordsPolled")).isEqualTo(count);
        assertThat(sum(route, "recordsFinished")).isEqualTo(count);
        assertThat(sum(route, "recordsFailed")).isZero();
        assertThat(sum(route, "recordsDeadLettered")).isZero();
        assertThat(sum(route, "recordsStalled")).isZero();
        assertThat(sum(route, "commitFailures")).isZero();
        assertThat(sum(route, "reconnects")).isZero();
        assertThat(sum(route, "backPressurePauses")).as("back-pressure pauses (window 50)").isPositive();

        Set<String> threads = new HashSet<>();
        Set<Integer> assigned = new HashSet<>();
        for (JsonObject t : tasks(route)) {
            threads.add(t.getString("threadName"));
            t.getCollection("partitions").forEach(p -> assigned.add(((JsonObject) p).getInteger("partition")));
            assertThat(t.getString("state")).isEqualTo("RUNNING");
            assertThat(t.getString("subscription")).isEqualTo(topic);
            assertThat(t.getString("groupId")).isEqualTo(group);
            assertThat(t.getString("memberId")).isNotBlank();
            assertThat(t.getInteger("generation")).isPositive();
            assertThat(t.getLong("polls")).isPositive();
            assertThat(t.getLong("commits")).isPositive();
            assertThat(t.getLong("rebalances")).isPositive();
            assertThat(t.getLong("lastPollTime")).isPositive();
            assertThat(t.getLong("lastCommitTime")).isPositive();
            assertThat(t.getLong("recordsFinished")).isEqualTo(t.getLong("recordsPolled")).isPositive();
            assertThat(t.getDouble("recordsPerSecond")).isPositive();
            assertThat(t.getInteger("inFlight")).isZero();
            assertThat(t.getInteger("running")).isZero();
            assertThat(t.getInteger("queued")).isZero();
            assertThat(t.getInteger("maxInFlightRecords")).isEqualTo(50);
            assertThat(t.getInteger("maxConcurrency")).isEqualTo(1);
            assertThat(t.getLong("lag")).isZero();
            assertThat(t.getLong("snapshotAgeMs")).isNotNegative();
        }
        assertThat(threads).hasSize(2);
        assertThat(assigned).containsExactlyInAnyOrder(0, 1, 2);

        // the text view shows the same
        String text = text(context, Map.of());
        assertThat(text).contains("Route: orders (Started)", "Endpoint: kafka-fetch://" + topic,
                "group: " + group, "state: RUNNING", "PARTITION", "COMMITTED", "LAG");
        for (JsonObject t : tasks(route)) {
            assertThat(text).contains("Task: " + t.getString("threadName"), "member: " + t.getString("memberId"));
        }
        for (int p = 0; p < 3; p++) {
            assertThat(text)
                    .containsPattern("(?m)^\\s+" + topic + "-" + p + "\\s+" + end.get(new TopicPartition(topic, p))
                                     + "\\s+" + end.get(new TopicPartition(topic, p)) + "\\s");
        }
        System.out.println("kafka-fetch console (TEXT) while consuming:\n" + whileConsuming);
        System.out.println("kafka-fetch console (TEXT) caught up:\n" + text);
        System.out.println("kafka-fetch console (JSON):\n" + json(context, Map.of()).toJson());
    }

    @Test
    void suspendedRouteShowsPausedTaskAndUserPausedPartitions() throws Exception {
        String topic = KafkaTestSupport.uniqueName("dc-pause");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 3);
        kafka.produceIds(topic, 30, "p", 30);
        AtomicInteger processed = new AtomicInteger();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "pollTimeoutMs=200")).routeId("paused")
                        .process(e -> processed.incrementAndGet());
            }
        });
        await().atMost(TIMEOUT).until(() -> processed.get() == 30);

        context.getRouteController().suspendRoute("paused");
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> {
            JsonObject task = tasks(route(json(context, Map.of()), "paused")).get(0);
            return "PAUSED".equals(task.getString("state")) && partitions(task).size() == 3
                   && partitions(task).stream().allMatch(p -> "user".equals(p.getString("pausedReason")));
        });
        JsonObject route = route(json(context, Map.of()), "paused");
        assertThat(route.getString("consumerStatus")).isEqualTo("Suspended");
        allPartitions(route).forEach(p -> assertThat(p.getBoolean("paused")).isTrue());

        // records produced while paused are not consumed, but polling goes on (the task stays in its group)
        long pollsBefore = tasks(route).get(0).getLong("polls");
        kafka.produceIds(topic, 10, "q", 10);
        await().atMost(TIMEOUT).until(() -> tasks(route(json(context, Map.of()), "paused")).get(0).getLong("polls")
                                            > pollsBefore + 3);
        JsonObject paused = tasks(route(json(context, Map.of()), "paused")).get(0);
        assertThat(paused.getLong("recordsPolled")).isEqualTo(30);
        assertThat(paused.getString("state")).isEqualTo("PAUSED");

        String text = text(context, Map.of());
        assertThat(text).contains("Route: paused (Suspended)", "state: PAUSED", "yes (user)");

        context.getRouteController().resumeRoute("paused");
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> {
            JsonObject task = tasks(route(json(context, Map.of()), "paused")).get(0);
            return "RUNNING".equals(task.getString("state")) && task.getLong("recordsFinished") == 40
                   && partitions(task).stream().noneMatch(p -> p.getBoolean("paused"));
        });
    }

    @Test
    void failingRouteShowsFailedRecords() throws Exception {
        String topic = KafkaTestSupport.uniqueName("dc-fail");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 3);
        kafka.produceIds(topic, 100, "f", 30);
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from(uri(topic, group, "")).routeId("failing").process(e -> {
                    if (e.getMessage().getBody(String.class).endsWith("7")) {
                        throw new IllegalStateException("boom: " + e.getMessage().getBody(String.class));
                    }
                });
            }
        });
        Map<TopicPartition, Long> end = kafka.endOffsets(topic);
        // failed records (no dead-letter topic) are logged and counted as finished: the partition moves on
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> {
            JsonObject route = route(json(context, Map.of()), "failing");
            return sum(route, "recordsFinished") == 100 && allPartitions(route).stream()
                    .allMatch(p -> p.getLong("committed").longValue()
                                   == end.get(new TopicPartition(topic, p.getInteger("partition"))));
        });
        JsonObject route = route(json(context, Map.of()), "failing");
        assertThat(sum(route, "recordsFailed")).isEqualTo(10); // ids ...-7, -17, ..., -97
        assertThat(sum(route, "recordsDeadLettered")).isZero();
        assertThat(sum(route, "recordsPolled")).isEqualTo(100);

        String text = text(context, Map.of());
        assertThat(text).contains("Route: failing", "finished 100", "failed 10");
    }

    @Test
    void optionsFilterRoutesAndHidePartitionsAndSecretsAreMasked() throws Exception {
        String topic = KafkaTestSupport.uniqueName("dc-opt");
        kafka.createTopic(topic, 3);
        String secret = "s3cr3t-Pa55";
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("ga"), "")).routeId("alpha").to("log:alpha?level=OFF");
                from(uri(topic, KafkaTestSupport.uniqueName("gb"),
                        "saslJaasConfig=RAW(org.apache.kafka.common.security.plain.PlainLoginModule required"
                                                                   + " username=\"u\" password=\"" + secret + "\";)"))
                        .routeId("beta").to("log:beta?level=OFF");
                from("timer:not-kafka?repeatCount=1").routeId("gamma").to("log:gamma?level=OFF");
            }
        });
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> routes(json(context, Map.of()))
                .stream().allMatch(r -> tasks(r).stream().allMatch(t -> t.getInteger("partitionCount") == 3)));

        JsonObject all = json(context, Map.of());
        assertThat(routes(all)).extracting(r -> r.getString("routeId")).containsExactly("alpha", "beta");
        assertThat(all.toJson()).doesNotContain(secret);
        assertThat(text(context, Map.of())).doesNotContain(secret).contains("Route: alpha", "Route: beta");
        assertThat(route(all, "beta").getString("endpointUri")).contains("saslJaasConfig=xxxxxx");

        // routeId: exact id or wildcard; values arrive as strings (e.g. from an HTTP query)
        assertThat(routes(json(context, Map.of("routeId", "beta")))).extracting(r -> r.getString("routeId"))
                .containsExactly("beta");
        assertThat(routes(json(context, Map.of("routeId", "al*")))).extracting(r -> r.getString("routeId"))
                .containsExactly("alpha");
        assertThat(routes(json(context, Map.of("routeId", "gamma")))).isEmpty();
        assertThat(text(context, Map.of("routeId", "alpha"))).contains("Route: alpha").doesNotContain("Route: beta");

        // partitions=false: tasks without their partition lists
        JsonObject noParts = json(context, Map.of("partitions", "false"));
        for (JsonObject r : routes(noParts)) {
            for (JsonObject t : tasks(r)) {
                assertThat(t).doesNotContainKey("partitions").containsKey("partitionCount").containsKey("lag");
            }
        }
        assertThat(text(context, Map.of("partitions", "false"))).doesNotContain("Partitions:").contains("Task: ");
        assertThat(text(context, Map.of())).contains("Partitions:");
    }
}
