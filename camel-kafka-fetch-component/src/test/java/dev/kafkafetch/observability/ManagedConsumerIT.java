package dev.kafkafetch.observability;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * With camel-management, Camel's MBean of a kafka-fetch consumer ({@code type=consumers},
 * {@code name=KafkaFetchConsumer(0x...)}) shows its fetch tasks: read through the platform MBeanServer, the
 * {@code Tasks} table and the totals equal the tasks' snapshots (what the dev console shows), the last error is
 * masked, Camel's own consumer attributes are still there, and {@code pauseTask}/{@code resumeTask} pause and resume
 * one task while the other goes on, losing nothing.
 */
class ManagedConsumerIT extends KafkaFetchITSupport {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String SECRET = "hunter2-do-not-show";

    private final MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();

    @Test
    void attributesMatchTheSnapshotsAndOneTaskPausesAndResumesThroughJmx() throws Exception {
        String topic = KafkaTestSupport.uniqueName("managed");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        List<String> produced = new ArrayList<>();
        produced.addAll(produce(topic, 0, "a", 30));
        produced.addAll(produce(topic, 1, "a", 30));
        kafka.produce(topic, 0, "k", "fail-me", Map.of());
        Recorder recorder = new Recorder();
        CamelContext context = newContext();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from(uri(topic, group, "consumersCount=2")).routeId("managed").process(e -> {
                    if ("fail-me".equals(e.getMessage().getBody(String.class))) {
                        throw new IllegalStateException("cannot handle it, password=" + SECRET);
                    }
                }).process(recorder);
            }
        });
        context.start();
        awaitCount(recorder, produced.size(), TIMEOUT);
        await().atMost(TIMEOUT).until(() -> kafka.committedOffsets(group, topic).equals(kafka.endOffsets(topic)));
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("managed").getConsumer();
        ObjectName name = consumerMBean(context, "managed");
        assertThat(name.getKeyProperty("name")).startsWith("KafkaFetchConsumer(0x");
        assertThat(mbeans.getAttribute(name, "State")).as("Camel's own consumer attributes").isEqualTo("Started");

        await().atMost(TIMEOUT).untilAsserted(() -> {
            List<TaskSnapshot> snapshots = consumer.taskSnapshots();
            TabularData tasks = (TabularData) mbeans.getAttribute(name, "Tasks");
            assertThat(tasks.size()).isEqualTo(2);
            for (int i = 0; i < snapshots.size(); i++) {
                TaskSnapshot s = snapshots.get(i);
                CompositeData row = tasks.get(new Object[] { i });
                assertThat(row.get("threadName")).isEqualTo(s.threadName());
                assertThat(row.get("state")).isEqualTo(s.state()).isEqualTo("RUNNING");
                assertThat(row.get("memberId")).isEqualTo(s.memberId());
                assertThat(row.get("assignment")).isEqualTo(topic + "-" + s.partitions().get(0).partition());
                assertThat(row.get("lag")).isEqualTo(s.totalLag()).isEqualTo(0L);
                assertThat(row.get("inFlight")).isEqualTo(s.inFlight());
                assertThat(row.get("held")).isEqualTo(s.held());
                assertThat(row.get("recordsFinished")).isEqualTo(s.recordsFinished());
                assertThat(row.get("recordsFailed")).isEqualTo(s.recordsFailed());
                assertThat(row.get("recordsDeadLettered")).isEqualTo(s.recordsDeadLettered());
                assertThat(row.get("recordsRetried")).isEqualTo(s.recordsRetried());
                assertThat(row.get("recordsRedelivered")).isEqualTo(s.recordsRedelivered());
                assertThat(row.get("commits")).isEqualTo(s.commits());
                assertThat(row.get("rebalances")).isEqualTo(s.rebalances());
                assertThat(row.get("lastError")).isEqualTo(s.lastError() == null ? "" : s.lastError());
            }
            assertThat(mbeans.getAttribute(name, "TaskCount")).isEqualTo(2);
            assertThat(mbeans.getAttribute(name, "RecordsFinished")).isEqualTo(61L);
            assertThat(mbeans.getAttribute(name, "RecordsFailed")).isEqualTo(1L);
            assertThat(mbeans.getAttribute(name, "Lag")).isEqualTo(0L);
            assertThat(mbeans.getAttribute(name, "InFlight")).isEqualTo(0L);
        });
        // the task that routed fail-me keeps its error; with the group's first rebalance that need not be the task
        // that holds partition 0 now
        int failedTask = taskThatFailed(consumer);
        String lastError = (String) row(name, failedTask).get("lastError");
        assertThat(lastError).contains("cannot handle it", "password=xxxxxx").doesNotContain(SECRET);
        assertThat(row(name, 1 - failedTask).get("lastError")).as("the other task's last error").isEqualTo("");

        // pause the task of partition 0 only: partition 1 goes on
        int paused = taskOf(consumer, 0);
        mbeans.invoke(name, "pauseTask", new Object[] { paused }, new String[] { "int" });
        await().atMost(TIMEOUT).until(() -> "PAUSED".equals(row(name, paused).get("state")));
        long finishedWhilePaused = (Long) row(name, paused).get("recordsFinished");
        List<String> held = produce(topic, 0, "b", 10);
        List<String> flowing = produce(topic, 1, "b", 10);
        await().atMost(TIMEOUT).until(() -> recorder.ids().containsAll(flowing));
        assertThat(recorder.ids()).as("records of the paused task").doesNotContainAnyElementsOf(held);
        assertThat(row(name, paused).get("recordsFinished")).isEqualTo(finishedWhilePaused);
        assertThat(row(name, 1 - paused).get("state")).isEqualTo("RUNNING");

        mbeans.invoke(name, "resumeTask", new Object[] { paused }, new String[] { "int" });
        await().atMost(TIMEOUT).until(() -> recorder.ids().containsAll(held));
        assertThat(row(name, paused).get("state")).isEqualTo("RUNNING");
        produced.addAll(held);
        produced.addAll(flowing);
        assertThat(recorder.lost(produced)).as("lost").isEmpty();

        assertThatThrownBy(() -> mbeans.invoke(name, "pauseTask", new Object[] { 5 }, new String[] { "int" }))
                .hasStackTraceContaining("No fetch task 5");
    }

    private List<String> produce(String topic, int partition, String prefix, int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = "id-" + prefix + "-" + partition + "-" + i;
            kafka.produce(topic, partition, "k" + i, id, Map.of());
            ids.add(id);
        }
        return ids;
    }

    private CompositeData row(ObjectName name, int task) throws Exception {
        return ((TabularData) mbeans.getAttribute(name, "Tasks")).get(new Object[] { task });
    }

    /** The index of the task that has the partition assigned. */
    private static int taskOf(KafkaFetchConsumer consumer, int partition) {
        List<TaskSnapshot> tasks = consumer.taskSnapshots();
        for (int i = 0; i < tasks.size(); i++) {
            if (tasks.get(i).partitions().stream().anyMatch(p -> p.partition() == partition)) {
                return i;
            }
        }
        throw new AssertionError("no task has partition " + partition + ": " + tasks);
    }

    /** The index of the one task that counts a failed record. */
    private static int taskThatFailed(KafkaFetchConsumer consumer) {
        List<TaskSnapshot> tasks = consumer.taskSnapshots();
        List<Integer> failed = new ArrayList<>();
        for (int i = 0; i < tasks.size(); i++) {
            if (tasks.get(i).recordsFailed() > 0) {
                failed.add(i);
            }
        }
        assertThat(failed).as("tasks that count a failed record: " + tasks).hasSize(1);
        return failed.get(0);
    }

    /** Camel's consumer MBean of the route, found by the attributes Camel gives every consumer MBean. */
    private ObjectName consumerMBean(CamelContext context, String routeId) throws Exception {
        Set<ObjectName> found = new HashSet<>();
        for (ObjectName n : mbeans.queryNames(new ObjectName("org.apache.camel:type=consumers,*"), null)) {
            if (routeId.equals(mbeans.getAttribute(n, "RouteId"))
                && context.getName().equals(mbeans.getAttribute(n, "CamelId"))) {
                found.add(n);
            }
        }
        assertThat(found).hasSize(1);
        return found.iterator().next();
    }
}
