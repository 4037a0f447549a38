package dev.kafkafetch.it.tx;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * transacted=true with a dead-letter topic: a record that fails for good is dead-lettered inside the transaction that
 * commits its offset. A record that always fails runs, then the next record's first send is too large, which aborts
 * the transaction holding both: the failed record runs again and is dead-lettered again, yet a read_committed reader
 * of the dead-letter topic sees its letter once (with a letter producer of its own the aborted run's letter stayed).
 */
class TransactedDeadLetterIT extends KafkaFetchITSupport {

    @Test
    void anAbortedTransactionTakesItsDeadLetterBack() throws Exception {
        String in = KafkaTestSupport.uniqueName("tx-dlt-in");
        String out = KafkaTestSupport.uniqueName("tx-dlt-out");
        String dlt = KafkaTestSupport.uniqueName("tx-dlt");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(in, 1);
        kafka.createTopic(out, 1);
        kafka.createTopic(dlt, 1);
        List<String> produced = kafka.produceIds(in, 400, "dl", 40);
        String poison = produced.get(200);
        String oversize = produced.get(201);
        AtomicInteger poisonRuns = new AtomicInteger();
        AtomicBoolean oversized = new AtomicBoolean();
        // one record at a time, commits far apart: the poison's letter and the oversized output share a transaction
        String options = "transacted=true&clientId=dl&maxConcurrency=1&ordering=PARTITION&maxPollRecords=50"
                         + "&autoCommitIntervalMs=3000&finishedCommitIntervalMs=3000&transactionTimeoutMs=10000"
                         + "&deadLetterTopic=" + dlt;
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from(uri(in, group, options)).routeId("dl").process(e -> {
                    String id = e.getMessage().getBody(String.class);
                    if (poison.equals(id)) {
                        poisonRuns.incrementAndGet();
                        throw new IllegalStateException("poison " + id);
                    }
                    if (oversize.equals(id) && oversized.compareAndSet(false, true)) {
                        e.getMessage().setBody(new byte[2 * 1024 * 1024]); // above max.request.size: the send fails
                    }
                }).to("kafka-fetch:" + out);
            }
        });
        Map<TopicPartition, Long> end = kafka.endOffsets(in);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> kafka.committedOffsets(group, in).equals(end));

        // the premise: the transaction holding the poison's first letter aborted, so the poison ran again
        assertThat(oversized).as("the oversized send was made").isTrue();
        assertThat(poisonRuns.get()).as("the poison ran again after the abort").isGreaterThanOrEqualTo(2);

        List<ConsumerRecord<String, String>> letters;
        try (KafkaTestSupport reader = new KafkaTestSupport(kafka.bootstrapServers(),
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"))) {
            letters = reader.readAll(dlt, Duration.ofSeconds(20));
        }
        OutputCheck output = OutputCheck.readCommitted(kafka.bootstrapServers(), out, produced);
        System.out.printf("tx-dlt: poisonRuns=%d letters=%d output %s%n", poisonRuns.get(), letters.size(), output);
        assertThat(letters).as("dead letters a read_committed reader sees").hasSize(1);
        ConsumerRecord<String, String> letter = letters.get(0);
        assertThat(letter.value()).isEqualTo(poison);
        assertThat(header(letter, KafkaFetchConstants.DLT_ORIGINAL_OFFSET)).isEqualTo("200");
        assertThat(header(letter, KafkaFetchConstants.DLT_REASON)).isEqualTo("failed");
        assertThat(output.lost()).as("lost").containsExactly(poison);
        assertThat(output.duplicates()).as("duplicates in the output (read_committed)").isZero();
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
