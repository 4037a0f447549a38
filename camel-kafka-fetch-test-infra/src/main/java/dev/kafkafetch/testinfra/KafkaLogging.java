package dev.kafkafetch.testinfra;

import java.util.Map;

/**
 * Keeps an in-process broker from flooding test output when slf4j-simple is the logging backend.
 * <p>
 * Guarantees: only sets {@code org.slf4j.simpleLogger.log.*} system properties that are not already set, so an
 * explicit {@code -Dorg.slf4j.simpleLogger.log.org.apache.kafka=info} (or a value in a test's own setup) wins.
 * slf4j-simple reads these properties when each logger is created, so this must run before the broker starts.
 */
public final class KafkaLogging {

    private static final String PREFIX = "org.slf4j.simpleLogger.log.";

    private static final Map<String, String> QUIET = Map.of(
            "kafka", "warn",
            "org.apache.kafka", "warn",
            "state.change.logger", "warn",
            "org.testcontainers", "warn",
            "tc", "warn");

    private KafkaLogging() {
    }

    /** Sets Kafka's (broker and client) and Testcontainers' slf4j-simple levels to warn unless already configured. */
    public static void quietBrokerLogs() {
        QUIET.forEach((logger, level) -> {
            String key = PREFIX + logger;
            if (System.getProperty(key) == null) {
                System.setProperty(key, level);
            }
        });
    }
}
