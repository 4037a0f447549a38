package dev.kafkafetch.testinfra;

import java.util.Map;

/**
 * A running Kafka cluster reachable at {@link #bootstrapServers()}.
 * <p>
 * Implementations guarantee that {@code bootstrapServers()} is usable as soon as the instance has been
 * obtained (the cluster has been started and is ready), and that {@link #close()} is idempotent.
 */
public interface KafkaService extends AutoCloseable {

    /** The {@code bootstrap.servers} value clients should use ({@code host:port[,host:port...]}). */
    String bootstrapServers();

    /**
     * Client settings needed besides {@code bootstrap.servers} to connect to {@link #bootstrapServers()} (security
     * protocol, SASL mechanism and JAAS config, ...); empty for a PLAINTEXT cluster without authentication.
     */
    default Map<String, Object> clientProperties() {
        return Map.of();
    }

    /** Number of brokers (1 for a single combined node). */
    int brokerCount();

    /**
     * Stops broker {@code index} (0-based) without removing its data.
     *
     * @throws UnsupportedOperationException if the cluster is not embedded in this JVM
     */
    void stopBroker(int index);

    /**
     * Starts broker {@code index} again after {@link #stopBroker(int)}; returns once it is serving.
     *
     * @throws UnsupportedOperationException if the cluster is not embedded in this JVM
     */
    void startBroker(int index);

    /** Stops the cluster (if this instance owns it) and releases its resources; idempotent. */
    @Override
    void close();
}
