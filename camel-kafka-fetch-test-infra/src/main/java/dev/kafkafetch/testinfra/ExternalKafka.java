package dev.kafkafetch.testinfra;

import java.util.Objects;

/**
 * A Kafka cluster that is already running somewhere else (for example {@code -Dkafka.bootstrap.servers=host:port}).
 * <p>
 * Guarantees: nothing is started or stopped; {@link #close()} does nothing; broker stop/start is unsupported.
 * {@link #brokerCount()} is the number of addresses in the bootstrap list (a best guess, not a cluster query).
 */
public final class ExternalKafka implements KafkaService {

    private final String bootstrapServers;

    /** @param bootstrapServers the {@code bootstrap.servers} of the existing cluster, not blank */
    public ExternalKafka(String bootstrapServers) {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        if (bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrapServers must not be blank");
        }
        this.bootstrapServers = bootstrapServers.trim();
    }

    @Override
    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public int brokerCount() {
        return (int) java.util.Arrays.stream(bootstrapServers.split(",")).filter(s -> !s.isBlank()).count();
    }

    @Override
    public void stopBroker(int index) {
        throw new UnsupportedOperationException(
                "Cannot stop a broker of an external Kafka cluster (" + bootstrapServers + ")");
    }

    @Override
    public void startBroker(int index) {
        throw new UnsupportedOperationException(
                "Cannot start a broker of an external Kafka cluster (" + bootstrapServers + ")");
    }

    @Override
    public void close() {
        // not ours to stop
    }

    @Override
    public String toString() {
        return "ExternalKafka[" + bootstrapServers + "]";
    }
}
