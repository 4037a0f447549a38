package dev.kafkafetch.it.lifecycle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.task.KafkaFetchRecords;
import dev.kafkafetch.task.TaskState;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ServiceStatus;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Suspending a route pauses its fetch tasks without leaving the group: nothing is delivered while suspended, the
 * tasks keep polling (same member, same generation), and after resume everything produced meanwhile arrives once.
 */
class SuspendResumeIT extends KafkaFetchITSupport {

    @Test
    void suspendDeliversNothingKeepsTheGroupAndResumeDeliversEverythingOnce() throws Exception {
        String topic = KafkaTestSupport.uniqueName("suspend");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 3);
        List<String> before = kafka.produceIds(topic, 300, "before", 9);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "consumersCount=2&pollTimeoutMs=200&maxConcurrency=4"))
                        .routeId("sr").process(recorder);
            }
        });
        awaitCount(recorder, before.size(), Duration.ofSeconds(60));
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("sr").getConsumer();
        List<KafkaFetchRecords> tasks = consumer.tasks();
        // the group settled: both tasks joined and every partition is assigned (a snapshot taken in the middle of the
        // rebalance would count its second half as a rebalance caused by the pause)
        await().atMost(Duration.ofSeconds(20))
                .until(() -> tasks.stream()
                        .allMatch(t -> t.snapshot().generation() > 0 && t.snapshot().memberId() != null)
                             && tasks.stream().mapToInt(t -> t.snapshot().partitions().size()).sum() == 3);
        List<TaskSnapshot> running = consumer.taskSnapshots();

        context.getRouteController().suspendRoute("sr");
        assertThat(context.getRouteController().getRouteStatus("sr")).isEqualTo(ServiceStatus.Suspended);
        await().atMost(Duration.ofSeconds(10)).until(() -> tasks.stream().allMatch(t -> t.state() == TaskState.PAUSED
                                                                                        && "PAUSED".equals(
                                                                                                t.snapshot().state())));
        int seenAtSuspend = recorder.count();
        long[] pollsAtSuspend = tasks.stream().mapToLong(t -> t.snapshot().polls()).toArray();

        List<String> during = kafka.produceIds(topic, 300, "during", 9);
        Thread.sleep(2000);
        assertThat(recorder.count()).as("records delivered while suspended").isEqualTo(seenAtSuspend);
        List<TaskSnapshot> paused = consumer.taskSnapshots();
        for (int i = 0; i < tasks.size(); i++) {
            TaskSnapshot s = paused.get(i);
            assertThat(tasks.get(i).state()).isEqualTo(TaskState.PAUSED);
            // still a member of the same generation: the pause did not cost a rebalance
            assertThat(s.memberId()).isEqualTo(running.get(i).memberId());
            assertThat(s.generation()).isEqualTo(running.get(i).generation());
            assertThat(s.rebalances()).isEqualTo(running.get(i).rebalances());
            // and the fetch thread kept polling (that is what keeps it in the group)
            assertThat(s.polls()).isGreaterThan(pollsAtSuspend[i]);
            assertThat(s.partitions()).allSatisfy(p -> assertThat(p.pausedReason()).isEqualTo("user"));
        }

        context.getRouteController().resumeRoute("sr");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> tasks.stream().allMatch(t -> t.state() == TaskState.RUNNING));
        List<String> all = new ArrayList<>(before);
        all.addAll(during);
        awaitCount(recorder, all.size(), Duration.ofSeconds(60));
        Thread.sleep(500); // give a duplicate time to show up
        assertThat(recorder.lost(all)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        assertThat(recorder.count()).isEqualTo(all.size());
        List<TaskSnapshot> resumed = consumer.taskSnapshots();
        for (int i = 0; i < tasks.size(); i++) {
            assertThat(resumed.get(i).generation()).isEqualTo(running.get(i).generation());
        }
    }
}
