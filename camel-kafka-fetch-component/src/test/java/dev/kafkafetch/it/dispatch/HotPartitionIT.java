package dev.kafkafetch.it.dispatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One partition held up by a hot key does not stall the others of its task: it is paused once it holds its share of
 * the window, while the others keep being fetched and routed (before, its waiting records filled the task's window and
 * the task-wide back-pressure paused every partition until the hot key's lane had worked them off).
 */
class HotPartitionIT extends KafkaFetchITSupport {

    @Test
    void theOtherPartitionsFinishWhileTheHotOneWorksOffItsKey() throws Exception {
        String topic = KafkaTestSupport.uniqueName("hot");
        kafka.createTopic(topic, 4);
        List<String> hot = new ArrayList<>();
        List<String> cold = new ArrayList<>();
        for (int i = 0; i < 600; i++) { // one key on partition 0: its lane runs one record at a time, 20 ms each
            hot.add("id-hot-" + i);
            kafka.produce(topic, 0, "hot", hot.get(i), null);
        }
        for (int i = 0; i < 1200; i++) { // distinct keys on partitions 1-3: nothing holds them up
            cold.add("id-cold-" + i);
            kafka.produce(topic, 1 + i % 3, "c" + i, cold.get(i), null);
        }
        Recorder recorder = new Recorder();
        AtomicInteger hotFinishedWhenColdWas = new AtomicInteger(-1);
        AtomicInteger hotFinished = new AtomicInteger();
        AtomicInteger coldFinished = new AtomicInteger();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"),
                        "maxConcurrency=64&ordering=KEY&maxInFlightRecords=400&maxPollRecords=50"))
                        .process(e -> {
                            if ("hot".equals(e.getMessage().getHeader(KafkaFetchConstants.KEY, String.class))) {
                                Thread.sleep(20);
                                hotFinished.incrementAndGet();
                            } else if (coldFinished.incrementAndGet() == cold.size()) {
                                hotFinishedWhenColdWas.set(hotFinished.get());
                            }
                        })
                        .process(recorder);
            }
        });
        await().atMost(Duration.ofSeconds(60)).until(() -> hotFinishedWhenColdWas.get() >= 0);
        System.out.printf("every cold record finished when %d of %d hot ones had%n", hotFinishedWhenColdWas.get(),
                hot.size());
        // at one record per 20 ms the hot lane needs 12 s for its 600: the cold records must not wait for most of it
        assertThat(hotFinishedWhenColdWas.get()).as("hot records finished when the last cold one did")
                .isLessThan(hot.size() / 2);

        awaitCount(recorder, hot.size() + cold.size(), Duration.ofSeconds(60));
        List<String> produced = new ArrayList<>(hot);
        produced.addAll(cold);
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        List<Long> hotOffsets = recorder.offsetsByPartition().get(0);
        assertThat(hotOffsets).as("the hot key in offset order").isSorted().hasSize(hot.size());
        assertThat(Set.copyOf(recorder.offsetsByPartition().keySet())).containsExactlyInAnyOrder(0, 1, 2, 3);
    }
}
