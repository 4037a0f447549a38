package dev.kafkafetch;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The tuning of a transacted fetch task's producer from camel-kafka's producer options that apply to it (same names
 * and meaning): lingerMs, producerBatchSize, compressionCodec, maxRequestSize, bufferMemorySize, sendBufferBytes,
 * receiveBufferBytes, maxInFlightRequest, retries, requestTimeoutMs, deliveryTimeoutMs and maxBlockMs, with
 * requestRequiredAcks and enableIdempotence accepted only at the values a transaction needs.
 * <p>
 * Guarantees: the producer stays idempotent with acks=all (a setting that would turn either off — acks other than
 * all, enableIdempotence=false, maxInFlightRequest above 5, retries 0 — is refused naming the option); a transaction
 * call blocks the fetch thread at most commitTimeoutMs (maxBlockMs above it is refused; by default maxBlockMs is
 * commitTimeoutMs and the request and delivery timeouts are derived from it); deliveryTimeoutMs is at least lingerMs +
 * requestTimeoutMs, which the Kafka producer would otherwise refuse only when a fetch task creates it. Checked once,
 * when the route starts ({@code TransactedOptionsTest}, {@code ProducerTuningTest}).
 */
final class ProducerTuning {

    private static final Set<String> CODECS = Set.of("none", "gzip", "snappy", "lz4", "zstd");
    /** Idempotence keeps order and exactly one copy per send with at most this many requests in flight. */
    private static final int MAX_IN_FLIGHT_WITH_IDEMPOTENCE = 5;

    private ProducerTuning() {
    }

    /**
     * The checked producer settings (Kafka keys, text values) that the transactional producer gets on top of the
     * common client settings; the transactional id, idempotence, acks and serializers are the producer's own.
     */
    static Map<String, String> settings(OptionChecks checks, KafkaFetchConfiguration o, long commitTimeoutMs) {
        String acks = o.getRequestRequiredAcks();
        if (acks != null && !acks.trim().equals("all") && !acks.trim().equals("-1")) {
            throw checks.invalid("requestRequiredAcks", "must be all with transacted=true (a transactional producer is"
                                                        + " idempotent, which needs acks=all), was " + acks);
        }
        if (!o.isEnableIdempotence()) {
            throw checks.invalid("enableIdempotence", "cannot be false with transacted=true: a transactional producer"
                                                      + " is idempotent");
        }
        Integer inFlight = o.getMaxInFlightRequest();
        if (inFlight != null && (inFlight < 1 || inFlight > MAX_IN_FLIGHT_WITH_IDEMPOTENCE)) {
            throw checks.invalid("maxInFlightRequest", "must be between 1 and " + MAX_IN_FLIGHT_WITH_IDEMPOTENCE
                                                       + " with transacted=true (an idempotent producer keeps order"
                                                       + " only up to " + MAX_IN_FLIGHT_WITH_IDEMPOTENCE
                                                       + "), was " + inFlight);
        }
        if (o.getRetries() != null && o.getRetries() < 1) {
            throw checks.invalid("retries", "must be at least 1 with transacted=true (an idempotent producer"
                                            + " retries), was " + o.getRetries());
        }
        checks.notNegative("lingerMs", o.getLingerMs());
        checks.notNegative("producerBatchSize", o.getProducerBatchSize());
        positiveIfSet(checks, "maxRequestSize", o.getMaxRequestSize());
        positiveIfSet(checks, "bufferMemorySize", o.getBufferMemorySize());
        socketBuffer(checks, "sendBufferBytes", o.getSendBufferBytes());
        socketBuffer(checks, "receiveBufferBytes", o.getReceiveBufferBytes());
        String codec = o.getCompressionCodec() == null ? null
                : checks.oneOf("compressionCodec", o.getCompressionCodec(), CODECS);

        long maxBlockMs = commitTimeoutMs;
        if (o.getMaxBlockMs() != null) {
            maxBlockMs = checks.positive("maxBlockMs", o.getMaxBlockMs());
            if (maxBlockMs > commitTimeoutMs) {
                throw checks.invalid("maxBlockMs", "(" + maxBlockMs + ") must not exceed commitTimeoutMs ("
                                                   + commitTimeoutMs + ") with transacted=true: a transaction's"
                                                   + " begin, sends and commit block the fetch thread up to"
                                                   + " maxBlockMs, and commitTimeoutMs bounds how long a commit may"
                                                   + " block it; raise commitTimeoutMs as well");
            }
        }
        long requestTimeoutMs = o.getRequestTimeoutMs() != null
                ? checks.positive("requestTimeoutMs", o.getRequestTimeoutMs()) : Math.max(commitTimeoutMs, 1000);
        long lingerMs = o.getLingerMs() != null ? o.getLingerMs() : 5;
        long deliveryTimeoutMs;
        if (o.getDeliveryTimeoutMs() != null) {
            deliveryTimeoutMs = checks.positive("deliveryTimeoutMs", o.getDeliveryTimeoutMs());
            if (deliveryTimeoutMs < lingerMs + requestTimeoutMs) {
                throw checks.invalid("deliveryTimeoutMs", "(" + deliveryTimeoutMs + ") must be at least lingerMs ("
                                                          + lingerMs + ") + requestTimeoutMs (" + requestTimeoutMs
                                                          + "), as the Kafka producer requires");
            }
        } else {
            deliveryTimeoutMs = Math.max(Math.max(commitTimeoutMs, 1000) + 1000, lingerMs + requestTimeoutMs);
        }

        Map<String, String> s = new LinkedHashMap<>();
        s.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(maxBlockMs));
        s.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(requestTimeoutMs));
        s.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(deliveryTimeoutMs));
        put(s, ProducerConfig.LINGER_MS_CONFIG, o.getLingerMs());
        put(s, ProducerConfig.BATCH_SIZE_CONFIG, o.getProducerBatchSize());
        put(s, ProducerConfig.COMPRESSION_TYPE_CONFIG, codec);
        put(s, ProducerConfig.MAX_REQUEST_SIZE_CONFIG, o.getMaxRequestSize());
        put(s, ProducerConfig.BUFFER_MEMORY_CONFIG, o.getBufferMemorySize());
        put(s, ProducerConfig.SEND_BUFFER_CONFIG, o.getSendBufferBytes());
        put(s, ProducerConfig.RECEIVE_BUFFER_CONFIG, o.getReceiveBufferBytes());
        put(s, ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, inFlight);
        put(s, ProducerConfig.RETRIES_CONFIG, o.getRetries());
        return s;
    }

    private static void positiveIfSet(OptionChecks checks, String option, Integer value) {
        if (value != null) {
            checks.positive(option, value);
        }
    }

    /** A socket buffer size: bytes, or -1 for the operating system's default. */
    private static void socketBuffer(OptionChecks checks, String option, Integer value) {
        if (value != null && value < -1) {
            throw checks.invalid(option, "must be -1 (the operating system's default) or more, was " + value);
        }
    }

    private static void put(Map<String, String> settings, String key, Object value) {
        if (value != null) {
            settings.put(key, String.valueOf(value));
        }
    }
}
