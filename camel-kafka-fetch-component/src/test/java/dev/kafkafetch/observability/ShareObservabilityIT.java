package dev.kafkafetch.observability;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.it.share.ShareITSupport;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.share.KafkaFetchShareConsumer;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static dev.kafkafetch.observability.MicrometerMetersIT.kafkaFetchMeters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A kafka-fetch-share route gets the classic scheme's meters and JMX view from the consumer skeleton both share: with
 * a MeterRegistry in the Camel registry its tasks' meters count what the snapshots count (records finished reach the
 * number produced, failed ones are counted apart), Camel's consumer MBean ({@code KafkaFetchShareConsumer(0x...)})
 * shows the same {@code Tasks} table and totals, a task cannot be paused alone (the message says so), and stopping
 * the route removes the meters.
 */
class ShareObservabilityIT extends ShareITSupport {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();

    @Test
    void metersAndJmxShowTheShareTasksAsTheirSnapshotsDo() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-observed");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        prepareGroup(group, 0);
        List<String> produced = kafka.produceIds(topic, 40, "w", 1);
        kafka.produce(topic, 0, "k", "fail-me", Map.of());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Recorder recorder = new Recorder();
        CamelContext context = newContext();
        context.getRegistry().bind("meters", registry);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from(shareUri(topic, group, "consumersCount=2&maxConcurrency=2&maxDeliveryAttempts=1&deadLetterTopic="
                                            + dlt))
                        .routeId("share-observed").process(e -> {
                            if ("fail-me".equals(e.getMessage().getBody(String.class))) {
                                throw new IllegalStateException("cannot handle it");
                            }
                        }).process(recorder);
            }
        });
        context.start();
        awaitCount(recorder, produced.size(), TIMEOUT);
        assertThat(recorder.lost(produced)).as("lost").isEmpty();
        KafkaFetchShareConsumer consumer = shareConsumer(context);

        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(MicrometerMetersIT.sum(registry, "kafka.fetch.records", "outcome", "finished"))
                    .isEqualTo(produced.size() + 1);
            assertThat(MicrometerMetersIT.sum(registry, "kafka.fetch.records", "outcome", "failed")).isEqualTo(1);
            assertThat(MicrometerMetersIT.sum(registry, "kafka.fetch.records", "outcome", "dead_lettered"))
                    .isEqualTo(1);
            assertThat(MicrometerMetersIT.sum(registry, "kafka.fetch.in.flight")).isZero();
        });
        // two windows (consumersCount=2) of two share consumers each (the default): four fetch tasks
        int taskCount = 4;
        assertThat(registry.find("kafka.fetch.in.flight").gauges()).as("one gauge per task").hasSize(taskCount)
                .allSatisfy(g -> assertThat(g.getId().getTags().toString()).contains(
                        "camelContext=" + context.getName(), "routeId=share-observed", "topic=" + topic,
                        "groupId=" + group));
        List<TaskSnapshot> snapshots = consumer.taskSnapshots();
        for (int i = 0; i < snapshots.size(); i++) {
            String task = Integer.toString(i);
            assertThat(MicrometerMetersIT.sum(registry, "kafka.fetch.records", "task", task, "outcome", "finished"))
                    .isEqualTo(snapshots.get(i).recordsFinished());
        }

        ObjectName name = consumerMBean(context, "share-observed");
        assertThat(name.getKeyProperty("name")).startsWith("KafkaFetchShareConsumer(0x");
        assertThat(mbeans.getAttribute(name, "State")).as("Camel's own consumer attributes").isEqualTo("Started");
        assertThat(mbeans.getAttribute(name, "TaskCount")).isEqualTo(taskCount);
        assertThat(mbeans.getAttribute(name, "RecordsFinished")).isEqualTo((long) produced.size() + 1);
        assertThat(mbeans.getAttribute(name, "RecordsFailed")).isEqualTo(1L);
        assertThat(mbeans.getAttribute(name, "RecordsDeadLettered")).isEqualTo(1L);
        assertThat(mbeans.getAttribute(name, "InFlight")).isEqualTo(0L);
        TabularData tasks = (TabularData) mbeans.getAttribute(name, "Tasks");
        assertThat(tasks.size()).isEqualTo(taskCount);
        for (int i = 0; i < taskCount; i++) {
            TaskSnapshot s = consumer.taskSnapshots().get(i);
            CompositeData row = tasks.get(new Object[] { i });
            assertThat(row.get("threadName")).isEqualTo(s.threadName());
            assertThat(row.get("recordsFinished")).isEqualTo(s.recordsFinished());
        }
        assertThatThrownBy(() -> mbeans.invoke(name, "pauseTask", new Object[] { 0 }, new String[] { "int" }))
                .hasStackTraceContaining("cannot be paused one by one");
        assertThatThrownBy(() -> mbeans.invoke(name, "pauseTask", new Object[] { 5 }, new String[] { "int" }))
                .hasStackTraceContaining("No fetch task 5");

        context.getRouteController().stopRoute("share-observed");
        assertThat(kafkaFetchMeters(registry)).as("meters of a stopped route").isEmpty();
        context.stop();
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
