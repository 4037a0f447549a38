package dev.kafkafetch.testinfra;

import java.util.Locale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Factory for {@link KafkaService}s.
 * <p>
 * Guarantees: {@link #shared()} starts at most one broker per JVM (thread-safe, lazily, on first call) and closes it
 * from a JVM shutdown hook; if starting it fails, later calls fail fast with the same cause instead of retrying.
 * Selection by system properties:
 * <ul>
 *   <li>{@code -Dkafka.bootstrap.servers=host:port} &rarr; {@link ExternalKafka} (nothing started);</li>
 *   <li>{@code -Dkafka.instance.type=testcontainers} &rarr; {@link TestcontainersKafka}; with no Docker engine
 *       {@link #shared()} throws (the tests fail loudly, they are not skipped);</li>
 *   <li>otherwise ({@code embedded}, the default) &rarr; a single-node {@link EmbeddedKafkaCluster}.</li>
 * </ul>
 */
public final class KafkaServices {

    /** System property naming an existing cluster; takes precedence over {@link #INSTANCE_TYPE_PROPERTY}. */
    public static final String BOOTSTRAP_SERVERS_PROPERTY = "kafka.bootstrap.servers";
    /** System property choosing the kind of shared broker: {@code embedded} (default) or {@code testcontainers}. */
    public static final String INSTANCE_TYPE_PROPERTY = "kafka.instance.type";

    public static final String TYPE_EMBEDDED = "embedded";
    public static final String TYPE_TESTCONTAINERS = "testcontainers";
    public static final String TYPE_EXTERNAL = "external";

    private static final Logger LOG = LoggerFactory.getLogger(KafkaServices.class);

    private static final Object LOCK = new Object();
    private static volatile KafkaService shared;
    private static RuntimeException sharedFailure;
    /**
     * How long the JVM's exit waits for the shared broker to close: a test JVM that exits later than its runner allows
     * is reported as a crashed fork (surefire/failsafe wait 30 s), so a slow broker shutdown on a loaded machine must
     * not hold the exit. The broker's threads end with the JVM anyway.
     */
    private static final long SHUTDOWN_BOUND_MS = 15_000;

    private KafkaServices() {
    }

    /**
     * The one broker shared by every test in this JVM, created on first call and closed by a JVM shutdown hook.
     * Callers must not close it.
     */
    public static KafkaService shared() {
        KafkaService s = shared;
        if (s != null) {
            return s;
        }
        synchronized (LOCK) {
            if (shared != null) {
                return shared;
            }
            if (sharedFailure != null) {
                throw new IllegalStateException(
                        "The shared Kafka broker failed to start earlier: " + sharedFailure.getMessage(),
                        sharedFailure);
            }
            String type = instanceType();
            try {
                KafkaService created = create(type);
                Runtime.getRuntime().addShutdownHook(new Thread(() -> closeWithin(created, SHUTDOWN_BOUND_MS),
                        "shared-kafka-shutdown"));
                LOG.info("Shared Kafka broker ({}) at {}", type, created.bootstrapServers());
                shared = created;
                return created;
            } catch (RuntimeException e) {
                sharedFailure = e;
                throw e;
            }
        }
    }

    /** The kind of broker {@link #shared()} uses: {@code external}, {@code testcontainers} or {@code embedded}. */
    public static String instanceType() {
        String bootstrap = System.getProperty(BOOTSTRAP_SERVERS_PROPERTY);
        if (bootstrap != null && !bootstrap.isBlank()) {
            return TYPE_EXTERNAL;
        }
        String type = System.getProperty(INSTANCE_TYPE_PROPERTY, TYPE_EMBEDDED).trim().toLowerCase(Locale.ROOT);
        if (type.isEmpty()) {
            return TYPE_EMBEDDED;
        }
        switch (type) {
            case TYPE_EMBEDDED:
            case TYPE_TESTCONTAINERS:
                return type;
            case TYPE_EXTERNAL:
                throw new IllegalArgumentException(
                        INSTANCE_TYPE_PROPERTY + "=external needs -D" + BOOTSTRAP_SERVERS_PROPERTY);
            default:
                throw new IllegalArgumentException("Unknown " + INSTANCE_TYPE_PROPERTY + "=" + type
                                                   + " (expected " + TYPE_EMBEDDED + " or " + TYPE_TESTCONTAINERS
                                                   + ")");
        }
    }

    /**
     * A new embedded cluster that the caller must close: {@code brokers == 1} gives one combined broker+controller
     * node, more gives that many brokers plus one separate controller.
     */
    public static EmbeddedKafkaCluster embedded(int brokers) {
        return EmbeddedKafkaCluster.builder().brokers(brokers).start();
    }

    /** A new broker of {@code type}; throws when the requested kind cannot start (never falls back, never skips). */
    static KafkaService create(String type) {
        switch (type) {
            case TYPE_EXTERNAL:
                return new ExternalKafka(System.getProperty(BOOTSTRAP_SERVERS_PROPERTY));
            case TYPE_TESTCONTAINERS:
                if (!TestcontainersKafka.isDockerAvailable()) {
                    throw new IllegalStateException(INSTANCE_TYPE_PROPERTY + "=" + TYPE_TESTCONTAINERS
                                                    + " was requested but no Docker engine is available");
                }
                return new TestcontainersKafka();
            default:
                return embedded(1);
        }
    }

    /** Closes {@code service} on a daemon thread and waits at most {@code boundMs} for it. */
    static void closeWithin(KafkaService service, long boundMs) {
        Thread closer = new Thread(service::close, "shared-kafka-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(boundMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closer.isAlive()) {
            LOG.warn("The shared Kafka broker did not close within {} ms; the JVM exits anyway", boundMs);
        }
    }
}
