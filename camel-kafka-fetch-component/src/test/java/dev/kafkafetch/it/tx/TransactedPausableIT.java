package dev.kafkafetch.it.tx;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.KafkaFetchConsumerListener;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Camel's Pausable EIP on a transacted pipeline: a record fails while the service is down, the task pauses and seeks
 * its partition back to it; the records after it that had finished already (their outputs waiting for the next
 * transaction, or committed with an offset map naming them) stay finished when they are polled again, and only the
 * unfinished ones run again: a read_committed reader sees every id once. (Before the fix they all ran again: 349
 * duplicates of 400.)
 */
class TransactedPausableIT extends KafkaFetchITSupport {

    @Test
    void recordsRunAgainAfterASeekBackWriteOnce() throws Exception {
        String in = KafkaTestSupport.uniqueName("tx-pausable-in");
        String out = KafkaTestSupport.uniqueName("tx-pausable-out");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(in, 1);
        kafka.createTopic(out, 1);
        List<String> produced = kafka.produceIds(in, 400, "pz", 400);
        AtomicBoolean serviceUp = new AtomicBoolean(true);
        AtomicBoolean wentDown = new AtomicBoolean();
        AtomicInteger checks = new AtomicInteger();
        Recorder routed = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                // a long interval: the records behind the failed one are still waiting for their transaction
                from(uri(in, group, "transacted=true&clientId=pz&maxConcurrency=16&ordering=UNORDERED"
                                    + "&autoCommitIntervalMs=60000&finishedCommitIntervalMs=0"))
                        .routeId("p")
                        .pausable(new KafkaFetchConsumerListener(), o -> {
                            checks.incrementAndGet();
                            return serviceUp.get();
                        })
                        .process(routed)
                        .process(e -> {
                            String id = e.getMessage().getBody(String.class);
                            if (id.equals("id-pz-50") && wentDown.compareAndSet(false, true)) {
                                Thread.sleep(300); // the records after it finish meanwhile
                                serviceUp.set(false);
                            }
                            if (!serviceUp.get()) {
                                throw new IllegalStateException("service unavailable");
                            }
                        })
                        .to("kafka-fetch:" + out);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("p").getConsumer();
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.taskSnapshots().get(0).state().equals("PAUSED"));
        await().atMost(Duration.ofSeconds(10)).until(() -> checks.get() > 3);
        serviceUp.set(true);
        Map<TopicPartition, Long> end = kafka.endOffsets(in);
        // the last records' transaction comes with the stop (the interval is a minute); every id was routed before
        // the pause already, so wait for the failed record's second run (a stop before it leaves the offset at 50)
        await().atMost(Duration.ofSeconds(30)).until(() -> routed.ids().size() == produced.size()
                                                           && routed.duplicates().contains("id-pz-50"));
        long skippedFinished = consumer.taskSnapshots().get(0).skippedFinished();
        context.stop();
        assertThat(kafka.committedOffsets(group, in)).isEqualTo(end);

        OutputCheck output = OutputCheck.readCommitted(kafka.bootstrapServers(), out, produced);
        System.out.printf("tx-pausable: ids=%d routed=%d routedTwice=%s keptFinished=%d output %s%n", produced.size(),
                routed.count(), routed.duplicates(), skippedFinished, output);
        assertThat(routed.duplicates()).as("the failed record ran again after the resume").contains("id-pz-50");
        assertThat(skippedFinished).as("records after it, finished before the seek back, were polled again and"
                                       + " stayed finished")
                .isPositive();
        assertThat(output.lost()).as("lost").isEmpty();
        assertThat(output.duplicates()).as("duplicates in the output (read_committed)").isZero();
    }
}
