package dev.kafkafetch.testinfra;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import kafka.server.BrokerServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.metadata.BrokerState;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka (KRaft) cluster running inside this JVM, built on Kafka's {@code KafkaClusterTestKit}.
 * <p>
 * Guarantees:
 * <ul>
 *   <li>{@link Builder#start()} returns only once every broker is registered, unfenced and serving;</li>
 *   <li>1 broker = one combined broker+controller node; n &gt; 1 brokers = n brokers + 1 separate controller;</li>
 *   <li>short broker/group timeouts so that restarts and rebalances are fast (see {@link Builder#start()});</li>
 *   <li>{@link #stopBroker(int)} / {@link #startBroker(int)} keep the broker's data and its client port, so
 *       {@link #bootstrapServers()} stays valid across a restart;</li>
 *   <li>{@link #close()} stops everything and deletes the data directories; it is idempotent.</li>
 * </ul>
 * All ports are random unless {@link Builder#fixedPort(int)} is used (single broker only).
 */
public final class EmbeddedKafkaCluster implements KafkaService {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaCluster.class);

    /** Name of the extra plaintext listener used by {@link Builder#fixedPort(int)}. */
    static final String FIXED_LISTENER = "FIXEDPORT";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration BROKER_TIMEOUT = Duration.ofSeconds(60);

    private final KafkaClusterTestKit kit;
    private final List<Integer> brokerIds;
    private final Integer fixedPort;
    private final String bootstrapServers;
    private final Set<Integer> stopped = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private EmbeddedKafkaCluster(KafkaClusterTestKit kit, Integer fixedPort) {
        this.kit = kit;
        this.fixedPort = fixedPort;
        this.brokerIds = new ArrayList<>(new java.util.TreeSet<>(kit.brokers().keySet()));
        this.bootstrapServers = fixedPort != null ? "localhost:" + fixedPort : kit.bootstrapServers();
    }

    /** A builder for a new cluster (1 broker by default). */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The {@code bootstrap.controllers} of the KRaft controller(s). */
    public String bootstrapControllers() {
        return kit.bootstrapControllers();
    }

    @Override
    public int brokerCount() {
        return brokerIds.size();
    }

    /** The node id of broker {@code index} (0-based, in ascending node id order). */
    public int brokerId(int index) {
        checkIndex(index);
        return brokerIds.get(index);
    }

    /** True unless broker {@code index} has been stopped with {@link #stopBroker(int)}. */
    public boolean isBrokerRunning(int index) {
        return !stopped.contains(brokerId(index));
    }

    /** The underlying Kafka test kit, for advanced use (its API is internal to Kafka and may change). */
    public KafkaClusterTestKit testKit() {
        return kit;
    }

    /**
     * Stops broker {@code index} (controlled shutdown, data kept). In the single combined node case only the
     * broker side is stopped: the controller keeps running. Returns once the broker is fully shut down.
     */
    @Override
    public synchronized void stopBroker(int index) {
        ensureOpen();
        int id = brokerId(index);
        if (stopped.contains(id)) {
            throw new IllegalStateException("Broker " + index + " (node " + id + ") is already stopped");
        }
        BrokerServer broker = kit.brokers().get(id);
        long t0 = System.nanoTime();
        broker.shutdown();
        broker.awaitShutdown();
        stopped.add(id);
        LOG.info("Stopped embedded Kafka broker {} (node {}) in {} ms", index, id, millisSince(t0));
    }

    /**
     * Starts broker {@code index} again on the same port(s) and data; returns once the controller sees it
     * unfenced, every broker's metadata knows it, and every partition with a replica on a running broker has a
     * leader again.
     */
    @Override
    public synchronized void startBroker(int index) {
        ensureOpen();
        int id = brokerId(index);
        if (!stopped.contains(id)) {
            throw new IllegalStateException("Broker " + index + " (node " + id + ") is not stopped");
        }
        BrokerServer broker = kit.brokers().get(id);
        long t0 = System.nanoTime();
        broker.startup();
        stopped.remove(id);
        awaitBrokerRunning(broker, id);
        awaitReady("restart of broker " + index);
        awaitAllPartitionsHaveLeaders(BROKER_TIMEOUT);
        LOG.info("Restarted embedded Kafka broker {} (node {}) in {} ms", index, id, millisSince(t0));
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        long t0 = System.nanoTime();
        try {
            kit.close();
        } catch (Exception e) {
            LOG.warn("Error while closing the embedded Kafka cluster at {}: {}", bootstrapServers, e.toString());
        }
        LOG.info("Closed embedded Kafka cluster at {} in {} ms", bootstrapServers, millisSince(t0));
    }

    @Override
    public String toString() {
        return "EmbeddedKafkaCluster[brokers=" + brokerIds.size() + ", bootstrapServers=" + bootstrapServers + "]";
    }

    // ------------------------------------------------------------------------------------------------------

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("The embedded Kafka cluster is closed");
        }
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= brokerIds.size()) {
            throw new IndexOutOfBoundsException("Broker index " + index + " out of range [0, " + brokerIds.size() + ")");
        }
    }

    private static long millisSince(long t0) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    private static void awaitBrokerRunning(BrokerServer broker, int id) {
        long deadline = System.nanoTime() + BROKER_TIMEOUT.toNanos();
        while (broker.brokerState() != BrokerState.RUNNING) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Broker node " + id + " did not reach RUNNING within " + BROKER_TIMEOUT
                    + " (state " + broker.brokerState() + ")");
            }
            sleep(20);
        }
    }

    /** Waits (bounded) for the test kit's own readiness check: all brokers unfenced and known to each other. */
    private void awaitReady(String what) {
        CompletableFuture<Void> ready = CompletableFuture.runAsync(() -> {
            try {
                kit.waitForReadyBrokers();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }, EmbeddedKafkaCluster::runOnDaemonThread);
        try {
            ready.get(BROKER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            ready.cancel(true);
            throw new IllegalStateException("Kafka brokers not ready within " + BROKER_TIMEOUT + " after " + what);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for Kafka brokers after " + what, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Kafka brokers not ready after " + what + ": " + e.getCause(), e.getCause());
        }
    }

    private void awaitAllPartitionsHaveLeaders(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Object> conf = Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        String lastProblem = "unknown";
        try (Admin admin = Admin.create(conf)) {
            while (true) {
                try {
                    Set<String> topics = admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true))
                        .names().get(10, TimeUnit.SECONDS);
                    if (topics.isEmpty()) {
                        return;
                    }
                    Collection<TopicDescription> descriptions = admin.describeTopics(topics).allTopicNames()
                        .get(10, TimeUnit.SECONDS).values();
                    String leaderless = null;
                    for (TopicDescription d : descriptions) {
                        for (TopicPartitionInfo p : d.partitions()) {
                            boolean hasLiveReplica = p.replicas().stream().anyMatch(r -> !stopped.contains(r.id()));
                            boolean leaderLive = p.leader() != null && !p.leader().isEmpty() && !stopped.contains(p.leader().id());
                            if (hasLiveReplica && !leaderLive) {
                                leaderless = d.name() + "-" + p.partition();
                                break;
                            }
                        }
                        if (leaderless != null) {
                            break;
                        }
                    }
                    if (leaderless == null) {
                        return;
                    }
                    lastProblem = "partition " + leaderless + " has no leader";
                } catch (ExecutionException | TimeoutException e) {
                    lastProblem = String.valueOf(e.getCause() != null ? e.getCause() : e);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Not every partition had a leader within " + timeout + ": " + lastProblem);
                }
                sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for partition leaders", e);
        }
    }

    private static void runOnDaemonThread(Runnable r) {
        Thread t = new Thread(r, "embedded-kafka-wait");
        t.setDaemon(true);
        t.start();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

    /**
     * Builds and starts an {@link EmbeddedKafkaCluster}.
     * <p>Guarantees: {@link #start()} either returns a ready cluster or throws after cleaning up what it started.
     */
    public static final class Builder {
        private int brokers = 1;
        private Integer fixedPort;
        private final Map<String, String> config = new LinkedHashMap<>();

        private Builder() {
        }

        /** Number of brokers (default 1); 1 = combined broker+controller node, more = brokers + 1 controller. */
        public Builder brokers(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("brokers must be >= 1, was " + n);
            }
            this.brokers = n;
            return this;
        }

        /** Extra broker (and controller) configuration; overrides this class's defaults. */
        public Builder config(String key, String value) {
            config.put(key, value);
            return this;
        }

        /**
         * Adds a plaintext client listener on {@code localhost:port} and makes {@link #bootstrapServers()} return it
         * (single broker only). The port is kept across {@link #stopBroker(int)}/{@link #startBroker(int)}.
         */
        public Builder fixedPort(int port) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("Invalid port " + port);
            }
            this.fixedPort = port;
            return this;
        }

        /**
         * Formats the storage, starts the nodes and waits for ready brokers.
         * <p>Defaults (each can be overridden with {@link #config(String, String)}):
         * {@code broker.session.timeout.ms=3000}, {@code broker.heartbeat.interval.ms=500},
         * {@code group.initial.rebalance.delay.ms=0}, {@code group.min.session.timeout.ms=1000},
         * {@code group.consumer.session.timeout.ms=10000}, {@code group.consumer.heartbeat.interval.ms=1000}
         * (with their {@code min} bounds at 1000/500 so tests can lower them per group),
         * internal topics with replication factor {@code min(brokers,3)} and 5 partitions,
         * {@code auto.create.topics.enable=true}.
         */
        public EmbeddedKafkaCluster start() {
            if (fixedPort != null && brokers != 1) {
                throw new IllegalStateException("fixedPort is only supported with a single broker (brokers=" + brokers + ")");
            }
            KafkaLogging.quietBrokerLogs();
            long t0 = System.nanoTime();
            KafkaClusterTestKit kit = null;
            try {
                TestKitNodes nodes = new TestKitNodes.Builder(productionBootstrapMetadata())
                    .setCombined(brokers == 1)
                    .setNumBrokerNodes(brokers)
                    .setNumControllerNodes(1)
                    .build();
                KafkaClusterTestKit.Builder kb = new KafkaClusterTestKit.Builder(nodes);
                Map<String, String> props = defaults(brokers);
                if (fixedPort != null) {
                    props.putAll(fixedPortListeners(nodes, fixedPort));
                }
                props.putAll(config);
                props.forEach(kb::setConfigProp);
                kit = kb.build();
                kit.format();
                startAndAwaitReady(kit);
                EmbeddedKafkaCluster cluster = new EmbeddedKafkaCluster(kit, fixedPort);
                LOG.info("Started embedded Kafka cluster ({} broker(s)) at {} in {} ms", brokers,
                    cluster.bootstrapServers(), millisSince(t0));
                return cluster;
            } catch (RuntimeException | Error e) {
                closeQuietly(kit);
                throw e;
            } catch (Exception e) {
                closeQuietly(kit);
                throw new IllegalStateException("Could not start an embedded Kafka cluster with " + brokers + " broker(s): " + e, e);
            }
        }

        private static void closeQuietly(KafkaClusterTestKit kit) {
            if (kit != null) {
                try {
                    kit.close();
                } catch (Exception suppressed) {
                    LOG.debug("Error closing a half-started cluster", suppressed);
                }
            }
        }

        /**
         * Bootstrap metadata of a released broker: the latest production metadata.version and the default level of
         * every production feature for it (group.version=1 enables the KIP-848 consumer protocol, etc.).
         * kraft.version is left to the formatter (static quorum).
         */
        private static BootstrapMetadata productionBootstrapMetadata() {
            MetadataVersion mv = MetadataVersion.latestProduction();
            Map<String, Short> features = new LinkedHashMap<>();
            features.put(MetadataVersion.FEATURE_NAME, mv.featureLevel());
            for (Feature f : Feature.PRODUCTION_FEATURES) {
                if (f != Feature.KRAFT_VERSION) {
                    features.put(f.featureName(), f.defaultLevel(mv));
                }
            }
            return BootstrapMetadata.fromVersions(mv, features, "camel-kafka-fetch-test-infra");
        }

        static Map<String, String> defaults(int brokers) {
            String rf = Integer.toString(Math.min(brokers, 3));
            String minIsr = Integer.toString(Math.min(brokers, 2));
            Map<String, String> p = new LinkedHashMap<>();
            // KRaft broker liveness (controller side + broker side): fast fencing / unfencing on restart
            p.put("broker.session.timeout.ms", "3000");
            p.put("broker.heartbeat.interval.ms", "500");
            // topics
            p.put("auto.create.topics.enable", "true");
            p.put("offsets.topic.replication.factor", rf);
            p.put("offsets.topic.num.partitions", "5");
            p.put("transaction.state.log.replication.factor", rf);
            p.put("transaction.state.log.min.isr", minIsr);
            p.put("transaction.state.log.num.partitions", "5");
            p.put("share.coordinator.state.topic.replication.factor", rf);
            p.put("share.coordinator.state.topic.min.isr", minIsr);
            p.put("share.coordinator.state.topic.num.partitions", "5");
            // classic group protocol
            p.put("group.initial.rebalance.delay.ms", "0");
            p.put("group.min.session.timeout.ms", "1000");
            // consumer group protocol (KIP-848): the broker decides heartbeat interval and session timeout
            p.put("group.consumer.min.session.timeout.ms", "1000");
            p.put("group.consumer.session.timeout.ms", "10000");
            p.put("group.consumer.min.heartbeat.interval.ms", "500");
            p.put("group.consumer.heartbeat.interval.ms", "1000");
            // share groups (KIP-932), same idea
            p.put("group.share.min.session.timeout.ms", "1000");
            p.put("group.share.session.timeout.ms", "10000");
            p.put("group.share.min.heartbeat.interval.ms", "500");
            p.put("group.share.heartbeat.interval.ms", "1000");
            // behave like a released broker, not like Kafka's own test builds
            p.put("unstable.api.versions.enable", "false");
            p.put("unstable.feature.versions.enable", "false");
            return p;
        }

        /**
         * The test kit pre-binds a random port for its broker listener, so a fixed port is offered through an
         * additional plaintext listener bound directly on {@code localhost:port}.
         */
        private static Map<String, String> fixedPortListeners(TestKitNodes nodes, int port) {
            String broker = nodes.brokerListenerName().value();
            String controller = nodes.controllerListenerName().value();
            Map<String, String> p = new LinkedHashMap<>();
            p.put("listeners", broker + "://localhost:0," + controller + "://localhost:0," + FIXED_LISTENER + "://localhost:" + port);
            p.put("listener.security.protocol.map", broker + ":" + nodes.brokerListenerProtocol().name + ","
                + controller + ":" + nodes.controllerListenerProtocol().name + "," + FIXED_LISTENER + ":PLAINTEXT");
            return p;
        }
    }

    /** Starts the nodes of a formatted kit and waits, bounded, until the brokers are ready. */
    private static void startAndAwaitReady(KafkaClusterTestKit kit) {
        CompletableFuture<Void> started = CompletableFuture.runAsync(() -> {
            try {
                kit.startup();
                kit.waitForReadyBrokers();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }, EmbeddedKafkaCluster::runOnDaemonThread);
        try {
            started.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            started.cancel(true);
            throw new IllegalStateException("Embedded Kafka cluster not ready within " + START_TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while starting an embedded Kafka cluster", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof IllegalStateException && e.getCause().getCause() != null
                ? e.getCause().getCause() : e.getCause();
            throw new IllegalStateException("Embedded Kafka cluster failed to start: " + cause, cause);
        }
    }
}
