package dev.kafkafetch.testinfra;

import org.apache.kafka.common.utils.AppInfoParser;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A single-node Kafka (KRaft) broker in a Docker container ({@code apache/kafka} image) managed by Testcontainers.
 * <p>
 * Guarantees: the constructor returns a started broker (or throws); it is configured with the same short group
 * timeouts as {@link EmbeddedKafkaCluster}; {@link #close()} stops and removes the container.
 * Broker stop/start is unsupported. The image defaults to {@code apache/kafka:<kafka-clients version>} and can be
 * overridden with {@code -Dkafka.container.image=...}.
 */
public final class TestcontainersKafka implements KafkaService {

    /** System property overriding the Docker image. */
    public static final String IMAGE_PROPERTY = "kafka.container.image";

    private final KafkaContainer container;
    private volatile boolean closed;

    /** Starts a container from the default image (see class Javadoc). */
    public TestcontainersKafka() {
        this(System.getProperty(IMAGE_PROPERTY, defaultImage()));
    }

    /** Starts a container from {@code image}, which must be compatible with {@code apache/kafka}. */
    @SuppressWarnings("resource")
    public TestcontainersKafka(String image) {
        KafkaLogging.quietBrokerLogs();
        KafkaContainer c = new KafkaContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("apache/kafka"))
                .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0")
                .withEnv("KAFKA_GROUP_MIN_SESSION_TIMEOUT_MS", "1000")
                .withEnv("KAFKA_GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS", "1000")
                .withEnv("KAFKA_GROUP_CONSUMER_SESSION_TIMEOUT_MS", "10000")
                .withEnv("KAFKA_GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS", "500")
                .withEnv("KAFKA_GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS", "1000")
                .withEnv("KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS", "5")
                .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "true");
        try {
            c.start();
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
        this.container = c;
    }

    /** {@code apache/kafka:<version of kafka-clients on the classpath>}. */
    public static String defaultImage() {
        return "apache/kafka:" + AppInfoParser.getVersion();
    }

    /** True if Testcontainers can reach a Docker engine (the probe is cached by Testcontainers). */
    public static boolean isDockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable t) {
            return false;
        }
    }

    /** The underlying container. */
    public KafkaContainer container() {
        return container;
    }

    @Override
    public String bootstrapServers() {
        return container.getBootstrapServers();
    }

    @Override
    public int brokerCount() {
        return 1;
    }

    @Override
    public void stopBroker(int index) {
        throw new UnsupportedOperationException("stopBroker is only supported by EmbeddedKafkaCluster");
    }

    @Override
    public void startBroker(int index) {
        throw new UnsupportedOperationException("startBroker is only supported by EmbeddedKafkaCluster");
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            container.close();
        }
    }

    @Override
    public String toString() {
        return "TestcontainersKafka[" + container.getDockerImageName() + "]";
    }
}
