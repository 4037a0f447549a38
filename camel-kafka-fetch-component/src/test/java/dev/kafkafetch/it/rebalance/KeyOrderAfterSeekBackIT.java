package dev.kafkafetch.it.rebalance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.ExecutionLog;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * KEY ordering holds across a breakOnFirstError seek-back: while key A's record runs slowly, a record of key B in the
 * same partition fails and the partition is sought back; the re-polled records of key A must wait for the one still
 * running. Proven on the executions themselves: no two executions of one key overlap in time, and per key the first
 * successful executions happen in offset order; nothing is lost.
 */
class KeyOrderAfterSeekBackIT extends KafkaFetchITSupport {

    @Test
    void aSeekBackDoesNotLetAKeysRecordsOvertakeItsRunningRecord() throws Exception {
        String topic = KafkaTestSupport.uniqueName("key-order");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        // offset: 0 A (slow), 1 B (fails once), 2 A, 3 A, 4 B, 5 C, 6 A, 7 B
        String[] keys = { "A", "B", "A", "A", "B", "C", "A", "B" };
        List<String> produced = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            String id = "id-" + i + "-" + keys[i];
            kafka.produce(topic, 0, keys[i], id, null);
            produced.add(id);
        }
        String slow = produced.get(0);
        String failsOnce = produced.get(1);
        ExecutionLog executions = new ExecutionLog();
        CountDownLatch anotherAStarted = new CountDownLatch(1);
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "ordering=KEY&maxConcurrency=8&breakOnFirstError=true"))
                        .process(executions.around(e -> {
                            String id = e.getMessage().getBody(String.class);
                            String key = e.getMessage().getHeader(KafkaFetchConstants.KEY, String.class);
                            if (id.equals(slow) && executions.of(slow).size() == 1) {
                                // runs until another record of key A starts (which must not happen) or for 3 s
                                anotherAStarted.await(3, TimeUnit.SECONDS);
                            } else if ("A".equals(key)) {
                                anotherAStarted.countDown();
                            }
                            if (id.equals(failsOnce) && executions.of(failsOnce).size() == 1) {
                                throw new IllegalStateException("first delivery of " + id + " fails");
                            }
                        }));
            }
        });
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> executions.succeededIds().containsAll(produced));
        Thread.sleep(500); // a late re-delivery shows up meanwhile

        assertThat(executions.of(failsOnce)).as("the failing record was delivered again")
                .hasSizeGreaterThanOrEqualTo(2);
        assertThat(executions.overlaps(ExecutionLog.Execution::key)).as("executions of one key that overlapped")
                .isEmpty();
        assertThat(executions.outOfOrder(ExecutionLog.Execution::key))
                .as("keys whose records first succeeded out of order").isEmpty();
        assertThat(produced).allMatch(executions.succeededIds()::contains);
    }
}
