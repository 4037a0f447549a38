package dev.kafkafetch.health;

/**
 * What a consumer's health checks need to know of its endpoint.
 *
 * @param maxPollIntervalMs Kafka's max.poll.interval.ms in effect
 */
public record HealthSettings(String topic, String groupId, String brokers, long pollTimeoutMs, long sessionTimeoutMs,
        long heartbeatIntervalMs, long maxPollIntervalMs) {

    /** Kafka's default {@code max.poll.interval.ms}. */
    public static final long DEFAULT_MAX_POLL_INTERVAL_MS = 300_000;
}
