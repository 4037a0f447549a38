package dev.kafkafetch.it;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.Exchange;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import static org.awaitility.Awaitility.await;

/** Test helpers: a dead-letter topic's records and their headers (as UTF-8 strings), a batch's record exchanges. */
public final class DeadLetters {

    private DeadLetters() {
    }

    /** Waits until the topic holds at least {@code n} records and returns all of them. */
    public static List<ConsumerRecord<String, String>> awaitRecords(KafkaTestSupport kafka, String topic, int n,
                                                                    Duration timeout) {
        List<ConsumerRecord<String, String>> holder = new ArrayList<>();
        await().atMost(timeout).pollInterval(Duration.ofMillis(200)).until(() -> {
            List<ConsumerRecord<String, String>> all = kafka.readAll(topic, Duration.ofSeconds(5));
            holder.clear();
            holder.addAll(all);
            return all.size() >= n;
        });
        return holder;
    }

    /** The records of a batch exchange (its body). */
    @SuppressWarnings("unchecked")
    public static List<Exchange> exchanges(Exchange batch) {
        return batch.getMessage().getBody(List.class);
    }

    /** The value of the last header of that name, or null. */
    public static String header(ConsumerRecord<?, ?> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
