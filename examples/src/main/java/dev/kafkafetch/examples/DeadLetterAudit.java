package dev.kafkafetch.examples;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import dev.kafkafetch.KafkaFetchConstants;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The work of the {@code dead-letters} route: prints where each dead letter came from, using the provenance headers
 * kafka-fetch adds to it ({@code kafka-fetch.dlt.*}). Dead letters are rare, so each one gets a log line.
 */
public final class DeadLetterAudit implements Processor {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterAudit.class);

    private final AtomicLong seen = new AtomicLong();
    private final AtomicLong parked = new AtomicLong();

    @Override
    public void process(Exchange exchange) {
        Message m = exchange.getMessage();
        Headers headers = m.getHeader(KafkaFetchConstants.HEADERS, Headers.class);
        long n = seen.incrementAndGet();
        if ("parked".equals(header(headers, KafkaFetchConstants.DLT_REASON))) {
            parked.incrementAndGet();
        }
        LOG.info("Dead letter #{}: {}-{}@{} ({}: {}) key={} body={}", n,
                header(headers, KafkaFetchConstants.DLT_ORIGINAL_TOPIC),
                header(headers, KafkaFetchConstants.DLT_ORIGINAL_PARTITION),
                header(headers, KafkaFetchConstants.DLT_ORIGINAL_OFFSET),
                header(headers, KafkaFetchConstants.DLT_REASON),
                header(headers, KafkaFetchConstants.DLT_EXCEPTION_MESSAGE),
                m.getHeader(KafkaFetchConstants.KEY), m.getBody(String.class));
    }

    /** Dead letters read so far. */
    public long seen() {
        return seen.get();
    }

    /** Dead letters read so far whose reason is {@code parked} (an operator parked the record). */
    public long parked() {
        return parked.get();
    }

    private static String header(Headers headers, String key) {
        Header h = headers == null ? null : headers.lastHeader(key);
        return h == null || h.value() == null ? "?" : new String(h.value(), StandardCharsets.UTF_8);
    }
}
