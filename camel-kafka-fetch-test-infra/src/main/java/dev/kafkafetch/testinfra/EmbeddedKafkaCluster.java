package dev.kafkafetch.testinfra;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import kafka.server.BrokerServer;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.common.utils.Exit;
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
 * <p>
 * With {@link Builder#saslPlain(Map)} and/or {@link Builder#saslScram(Map)} every broker gets an extra
 * {@code SASL_PLAINTEXT} client listener ({@value #SASL_LISTENER}) accepting the given users, and
 * {@link #bootstrapServers()} points at it; {@link #clientProperties()} gives the client settings of the first user.
 * Inter-broker and controller traffic stays on the test kit's PLAINTEXT listeners (also reachable, without
 * authentication, at {@link #plaintextBootstrapServers()}), and no authorizer is installed: every authenticated user
 * may do everything.
 */
public final class EmbeddedKafkaCluster implements KafkaService {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaCluster.class);

    /** Name of the extra plaintext listener used by {@link Builder#fixedPort(int)}. */
    static final String FIXED_LISTENER = "FIXEDPORT";
    /** Name of the SSL client listener added by {@link Builder#sslListener(String, String)}. */
    public static final String SSL_LISTENER = "SSLCLIENT";
    /** Name of the SASL_PLAINTEXT client listener added by {@link Builder#saslPlain(Map)} / {@link Builder#saslScram(Map)}. */
    public static final String SASL_LISTENER = "SASLCLIENT";
    /** The SASL mechanisms {@link Builder#saslScram(Map)} enables. */
    public static final List<String> SCRAM_MECHANISMS = List.of("SCRAM-SHA-256", "SCRAM-SHA-512");
    private static final String BROKER_LISTENER = "EXTERNAL";
    private static final String CONTROLLER_LISTENER = "CONTROLLER";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration BROKER_TIMEOUT = Duration.ofSeconds(60);

    private final KafkaClusterTestKit kit;
    private final List<Integer> brokerIds;
    private final Integer fixedPort;
    private final String bootstrapServers;
    private final Map<String, String> saslUsers;
    private final List<String> saslMechanisms;
    private final String defaultSaslUser;
    private final Set<Integer> stopped = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private EmbeddedKafkaCluster(KafkaClusterTestKit kit, Integer fixedPort, List<Integer> saslPorts,
                                 Map<String, String> saslUsers, List<String> saslMechanisms, String defaultSaslUser) {
        this.kit = kit;
        this.fixedPort = fixedPort;
        this.brokerIds = new ArrayList<>(new java.util.TreeSet<>(kit.brokers().keySet()));
        this.saslUsers = Map.copyOf(saslUsers);
        this.saslMechanisms = List.copyOf(saslMechanisms);
        this.defaultSaslUser = defaultSaslUser;
        if (!saslPorts.isEmpty()) {
            this.bootstrapServers = String.join(",", saslPorts.stream().map(p -> "localhost:" + p).toList());
        } else {
            this.bootstrapServers = fixedPort != null ? "localhost:" + fixedPort : kit.bootstrapServers();
        }
    }

    /** A builder for a new cluster (1 broker by default). */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * With SASL: {@code security.protocol=SASL_PLAINTEXT}, {@code sasl.mechanism} and {@code sasl.jaas.config} of the
     * first PLAIN user with PLAIN, or (SCRAM only) of the first SCRAM user with SCRAM-SHA-256. Without SASL: empty.
     */
    @Override
    public Map<String, Object> clientProperties() {
        if (saslUsers.isEmpty()) {
            return Map.of();
        }
        return clientProperties(defaultSaslUser, saslUsers.get(defaultSaslUser), saslMechanisms.get(0));
    }

    /** True when the client listener requires SASL authentication. */
    public boolean isSasl() {
        return !saslUsers.isEmpty();
    }

    /** The SASL mechanisms the client listener accepts (empty without SASL). */
    public List<String> saslMechanisms() {
        return saslMechanisms;
    }

    /**
     * The client settings of a SASL_PLAINTEXT connection as {@code user} with {@code password} and {@code mechanism}
     * ({@code PLAIN}, {@code SCRAM-SHA-256} or {@code SCRAM-SHA-512}); the credentials are not checked here, so wrong
     * ones can be tried.
     */
    public static Map<String, Object> clientProperties(String user, String password, String mechanism) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        p.put(SaslConfigs.SASL_MECHANISM, mechanism);
        p.put(SaslConfigs.SASL_JAAS_CONFIG, jaasConfig(user, password, mechanism));
        return p;
    }

    /** A client {@code sasl.jaas.config} line for {@code mechanism} (quotes and backslashes escaped). */
    public static String jaasConfig(String user, String password, String mechanism) {
        String module = "PLAIN".equals(mechanism) ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
        return module + " required username=\"" + jaasEscape(user) + "\" password=\"" + jaasEscape(password) + "\";";
    }

    /**
     * The test kit's own PLAINTEXT listener(s), without authentication (what inter-broker traffic uses). Equal to
     * {@link #bootstrapServers()} unless SASL or a fixed port is configured.
     */
    public String plaintextBootstrapServers() {
        return kit.bootstrapServers();
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
        return "EmbeddedKafkaCluster[brokers=" + brokerIds.size() + ", bootstrapServers=" + bootstrapServers
               + (saslUsers.isEmpty() ? "" : ", sasl=" + saslMechanisms) + "]";
    }

    // ------------------------------------------------------------------------------------------------------

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("The embedded Kafka cluster is closed");
        }
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= brokerIds.size()) {
            throw new IndexOutOfBoundsException(
                    "Broker index " + index + " out of range [0, " + brokerIds.size() + ")");
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
            throw new IllegalStateException("Kafka brokers not ready after " + what + ": " + e.getCause(),
                    e.getCause());
        }
    }

    private void awaitAllPartitionsHaveLeaders(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Object> conf = Map.of(
                // the kit's unauthenticated PLAINTEXT listener, whatever the client listener needs (SASL, TLS)
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kit.bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        String lastProblem = "unknown";
        try (Admin admin = Admin.create(conf)) {
            while (true) {
                try {
                    Set<String> topics = admin
                            .listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true))
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
                            boolean leaderLive = p.leader() != null && !p.leader().isEmpty()
                                                 && !stopped.contains(p.leader().id());
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
                    throw new IllegalStateException(
                            "Not every partition had a leader within " + timeout + ": " + lastProblem);
                }
                sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for partition leaders", e);
        }
    }

    private static String jaasEscape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
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
        private final Map<String, String> saslUsers = new LinkedHashMap<>();
        private final Set<String> plainUsers = new LinkedHashSet<>();
        private final Set<String> scramUsers = new LinkedHashSet<>();
        private String sslKeystore;
        private String sslPassword;

        private Builder() {
        }

        /**
         * Adds an SSL client listener ({@value EmbeddedKafkaCluster#SSL_LISTENER}) on every broker, serving the
         * certificate of the PKCS12 key store at {@code keystoreLocation} (store and key password {@code password}),
         * and makes {@link #bootstrapServers()} return it. Clients need {@code security.protocol=SSL} and a trust store
         * holding that certificate. Not combinable with SASL or a fixed port.
         */
        public Builder sslListener(String keystoreLocation, String password) {
            this.sslKeystore = keystoreLocation;
            this.sslPassword = password;
            return this;
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
         * Adds a SASL_PLAINTEXT client listener ({@value EmbeddedKafkaCluster#SASL_LISTENER}) on every broker that
         * accepts the PLAIN mechanism for these users (name &rarr; password), and makes {@link #bootstrapServers()}
         * return it. Can be combined with {@link #saslScram(Map)}; a user given to both must have the same password.
         * With {@link #fixedPort(int)} the SASL listener uses that port (and no PLAINTEXT listener is added on it).
         */
        public Builder saslPlain(Map<String, String> users) {
            addSaslUsers(users, plainUsers);
            return this;
        }

        /**
         * Like {@link #saslPlain(Map)}, with the SCRAM-SHA-256 and SCRAM-SHA-512 mechanisms: the users' SCRAM
         * credentials are stored in the cluster metadata once it runs, before {@link #start()} returns.
         */
        public Builder saslScram(Map<String, String> users) {
            addSaslUsers(users, scramUsers);
            return this;
        }

        private void addSaslUsers(Map<String, String> users, Set<String> target) {
            if (users == null || users.isEmpty()) {
                throw new IllegalArgumentException("At least one SASL user is needed");
            }
            users.forEach((user, password) -> {
                if (user == null || user.isEmpty() || password == null || password.isEmpty()) {
                    throw new IllegalArgumentException("SASL users need a non-empty name and password");
                }
                String known = saslUsers.putIfAbsent(user, password);
                if (known != null && !known.equals(password)) {
                    throw new IllegalArgumentException("SASL user " + user + " given twice with different passwords");
                }
                target.add(user);
            });
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
            if (sslKeystore != null && (fixedPort != null || !saslUsers.isEmpty())) {
                throw new IllegalStateException("sslListener cannot be combined with SASL or a fixed port");
            }
            if (fixedPort != null && brokers != 1) {
                throw new IllegalStateException(
                        "fixedPort is only supported with a single broker (brokers=" + brokers + ")");
            }
            KafkaLogging.quietBrokerLogs();
            long t0 = System.nanoTime();
            KafkaClusterTestKit kit = null;
            try {
                boolean sasl = !saslUsers.isEmpty();
                boolean ssl = sslKeystore != null;
                List<Integer> saslPorts = new ArrayList<>();
                if (sasl || ssl) {
                    for (int i = 0; i < brokers; i++) {
                        saslPorts.add(i == 0 && fixedPort != null ? fixedPort : freePort());
                    }
                }
                List<String> mechanisms = new ArrayList<>();
                if (!plainUsers.isEmpty()) {
                    mechanisms.add("PLAIN");
                }
                if (!scramUsers.isEmpty()) {
                    mechanisms.addAll(SCRAM_MECHANISMS);
                }
                TestKitNodes.Builder nb = new TestKitNodes.Builder(productionBootstrapMetadata())
                        .setCombined(brokers == 1)
                        .setNumBrokerNodes(brokers)
                        .setNumControllerNodes(1);
                if (sasl || ssl) {
                    // the per-broker listener lists name the kit's listeners, so fix their names up front
                    nb.setBrokerListenerName(new ListenerName(BROKER_LISTENER))
                            .setControllerListenerName(new ListenerName(CONTROLLER_LISTENER))
                            .setPerServerProperties(clientListenerPerBroker(brokers, saslPorts,
                                    ssl ? SSL_LISTENER : SASL_LISTENER));
                }
                TestKitNodes nodes = nb.build();
                KafkaClusterTestKit.Builder kb = new KafkaClusterTestKit.Builder(nodes);
                Map<String, String> props = defaults(brokers);
                if (sasl) {
                    props.putAll(saslListenerConfig(nodes, mechanisms));
                } else if (ssl) {
                    props.putAll(sslListenerConfig(nodes));
                } else if (fixedPort != null) {
                    props.putAll(fixedPortListeners(nodes, fixedPort));
                }
                props.putAll(config);
                props.forEach(kb::setConfigProp);
                kit = kb.build();
                kit.format();
                startAndAwaitReady(kit);
                if (!scramUsers.isEmpty()) {
                    createScramUsers(kit.bootstrapServers(), saslPorts);
                }
                String defaultUser = !plainUsers.isEmpty() ? plainUsers.iterator().next()
                        : scramUsers.isEmpty() ? null : scramUsers.iterator().next();
                EmbeddedKafkaCluster cluster = new EmbeddedKafkaCluster(kit, fixedPort, saslPorts, saslUsers,
                        mechanisms,
                        defaultUser);
                LOG.info("Started embedded Kafka cluster ({} broker(s)) at {} in {} ms", brokers,
                        cluster.bootstrapServers(), millisSince(t0));
                return cluster;
            } catch (RuntimeException | Error e) {
                closeQuietly(kit);
                throw e;
            } catch (Exception e) {
                closeQuietly(kit);
                throw new IllegalStateException(
                        "Could not start an embedded Kafka cluster with " + brokers + " broker(s): " + e, e);
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
            // a group may lower its acquisition lock (share.record.lock.duration.ms) to 1 s, so that tests of lock
            // renewal and of a crashed member's records take seconds; the broker's default stays 30 s
            p.put("group.share.min.record.lock.duration.ms", "1000");
            // behave like a released broker, not like Kafka's own test builds
            p.put("unstable.api.versions.enable", "false");
            p.put("unstable.feature.versions.enable", "false");
            return p;
        }

        /**
         * Per broker node: the kit's own listeners on pre-bound random ports (broker, plus controller on the combined
         * node) and the SASL client listener on its own port, kept across restarts.
         */
        private static Map<Integer, Map<String, String>> clientListenerPerBroker(int brokers, List<Integer> ports,
                                                                                 String clientListener) {
            Map<Integer, Map<String, String>> perServer = new LinkedHashMap<>();
            for (int id = 0; id < brokers; id++) {
                String listeners = BROKER_LISTENER + "://localhost:0"
                                   + (brokers == 1 ? "," + CONTROLLER_LISTENER + "://localhost:0" : "")
                                   + "," + clientListener + "://localhost:" + ports.get(id);
                perServer.put(id, Map.of("listeners", listeners));
            }
            return perServer;
        }

        /**
         * The SASL client listener's protocol, mechanisms and server-side JAAS entries: PLAIN with one
         * {@code user_<name>="<password>"} entry per user, SCRAM with the credentials kept in the metadata.
         */
        private Map<String, String> saslListenerConfig(TestKitNodes nodes, List<String> mechanisms) {
            String prefix = "listener.name." + SASL_LISTENER.toLowerCase(Locale.ROOT) + ".";
            Map<String, String> p = new LinkedHashMap<>();
            p.put("listener.security.protocol.map", nodes.brokerListenerName().value() + ":"
                                                    + nodes.brokerListenerProtocol().name + ","
                                                    + nodes.controllerListenerName().value() + ":"
                                                    + nodes.controllerListenerProtocol().name + "," + SASL_LISTENER
                                                    + ":SASL_PLAINTEXT");
            p.put(prefix + "sasl.enabled.mechanisms", String.join(",", mechanisms));
            if (!plainUsers.isEmpty()) {
                StringBuilder jaas = new StringBuilder(
                        "org.apache.kafka.common.security.plain.PlainLoginModule required");
                for (String user : plainUsers) {
                    jaas.append(" user_").append(user).append("=\"").append(jaasEscape(saslUsers.get(user)))
                            .append('"');
                }
                p.put(prefix + "plain.sasl.jaas.config", jaas.append(';').toString());
            }
            if (!scramUsers.isEmpty()) {
                for (String mechanism : SCRAM_MECHANISMS) {
                    p.put(prefix + mechanism.toLowerCase(Locale.ROOT) + ".sasl.jaas.config",
                            "org.apache.kafka.common.security.scram.ScramLoginModule required;");
                }
            }
            return p;
        }

        /** The SSL client listener's protocol and key store. */
        private Map<String, String> sslListenerConfig(TestKitNodes nodes) {
            String prefix = "listener.name." + SSL_LISTENER.toLowerCase(Locale.ROOT) + ".";
            Map<String, String> p = new LinkedHashMap<>();
            p.put("listener.security.protocol.map", nodes.brokerListenerName().value() + ":"
                                                    + nodes.brokerListenerProtocol().name + ","
                                                    + nodes.controllerListenerName().value() + ":"
                                                    + nodes.controllerListenerProtocol().name + "," + SSL_LISTENER
                                                    + ":SSL");
            p.put(prefix + "ssl.keystore.location", sslKeystore);
            p.put(prefix + "ssl.keystore.password", sslPassword);
            p.put(prefix + "ssl.key.password", sslPassword);
            p.put(prefix + "ssl.keystore.type", "PKCS12");
            return p;
        }

        /**
         * Stores the SCRAM credentials through the unauthenticated PLAINTEXT listener, then waits until every SCRAM
         * user can authenticate on the SASL listener of every broker.
         */
        private void createScramUsers(String plaintextBootstrap, List<Integer> saslPorts) throws Exception {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, plaintextBootstrap,
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30000))) {
                // one request per mechanism: a request may alter a user's credential only once
                for (ScramMechanism mechanism : List.of(ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512)) {
                    List<UserScramCredentialAlteration> upserts = new ArrayList<>();
                    for (String user : scramUsers) {
                        upserts.add(new UserScramCredentialUpsertion(user, new ScramCredentialInfo(mechanism, 4096),
                                saslUsers.get(user)));
                    }
                    admin.alterUserScramCredentials(upserts).all().get(30, TimeUnit.SECONDS);
                }
            }
            long deadline = System.nanoTime() + BROKER_TIMEOUT.toNanos();
            for (int port : saslPorts) {
                for (String user : scramUsers) {
                    for (String mechanism : SCRAM_MECHANISMS) {
                        awaitSaslLogin("localhost:" + port, clientProperties(user, saslUsers.get(user), mechanism),
                                deadline);
                    }
                }
            }
        }

        private static void awaitSaslLogin(String bootstrap, Map<String, Object> client, long deadline)
                throws InterruptedException {
            Map<String, Object> conf = new LinkedHashMap<>(client);
            conf.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            conf.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
            conf.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000);
            Throwable last = null;
            while (System.nanoTime() < deadline) {
                try (Admin admin = Admin.create(conf)) {
                    admin.describeCluster().clusterId().get(5, TimeUnit.SECONDS);
                    return;
                } catch (ExecutionException | TimeoutException e) {
                    last = e.getCause() != null ? e.getCause() : e;
                }
                Thread.sleep(100);
            }
            throw new IllegalStateException(
                    "SCRAM login at " + bootstrap + " as " + conf.get(SaslConfigs.SASL_MECHANISM)
                                            + " did not succeed within " + BROKER_TIMEOUT + ": " + last);
        }

        private static int freePort() throws IOException {
            try (ServerSocket socket = new ServerSocket(0)) {
                socket.setReuseAddress(true);
                return socket.getLocalPort();
            }
        }

        /**
         * The test kit pre-binds a random port for its broker listener, so a fixed port is offered through an
         * additional plaintext listener bound directly on {@code localhost:port}.
         */
        private static Map<String, String> fixedPortListeners(TestKitNodes nodes, int port) {
            String broker = nodes.brokerListenerName().value();
            String controller = nodes.controllerListenerName().value();
            Map<String, String> p = new LinkedHashMap<>();
            p.put("listeners", broker + "://localhost:0," + controller + "://localhost:0," + FIXED_LISTENER
                               + "://localhost:" + port);
            p.put("listener.security.protocol.map", broker + ":" + nodes.brokerListenerProtocol().name + ","
                                                    + controller + ":" + nodes.controllerListenerProtocol().name + ","
                                                    + FIXED_LISTENER + ":PLAINTEXT");
            return p;
        }
    }

    /**
     * A broker in a test's JVM must never end that JVM: Kafka's exit and halt (a fatal broker error, or a log directory
     * deleted while the broker still closes at the JVM's exit) are logged instead, so a test fails on what it sees and
     * the test runner still gets the JVM's own exit code.
     */
    private static void keepTheJvmAlive() {
        Exit.setExitProcedure((code, message) -> LOG.error("An embedded Kafka broker asked to exit the JVM with {}"
                                                           + " ({}); ignored",
                code, message));
        Exit.setHaltProcedure((code, message) -> LOG.error("An embedded Kafka broker asked to halt the JVM with {}"
                                                           + " ({}); ignored",
                code, message));
    }

    /** Starts the nodes of a formatted kit and waits, bounded, until the brokers are ready. */
    private static void startAndAwaitReady(KafkaClusterTestKit kit) {
        keepTheJvmAlive();
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
