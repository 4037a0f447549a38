package dev.kafkafetch.metrics;

/**
 * The meters one consumer registered; closing it removes them. Micrometer-free, so a consumer holds one whether or not
 * Micrometer is on the class path (see {@link OptionalMeters}).
 */
public interface MeterBinding extends AutoCloseable {

    /** Nothing registered: Micrometer is not on the class path, or no MeterRegistry is in the Camel registry. */
    MeterBinding NONE = () -> {
    };

    /** Removes every meter this binding registered. Idempotent. */
    @Override
    void close();
}
