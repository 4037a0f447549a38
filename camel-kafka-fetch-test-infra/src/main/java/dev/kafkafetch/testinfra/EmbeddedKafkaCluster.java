package dev.kafkafetch.testinfra;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import kafka.server.BrokerServer;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka (KRaft) cluster running inside this JVM, built on Kafka's {@code KafkaClusterTestKit}.
 * <p>
 * Guarantees:
 * <ul>
 *   <li>{@link EmbeddedKafkaClusterBuilder#start()} returns only once every broker is registered, unfenced and
 *       serving;</li>
 *   <li>1 broker = one combined broker+controller node; n &gt; 1 brokers = n brokers + 1 separate controller;</li>
 *   <li>short broker/group timeouts so that restarts and rebalances are fast (see {@link BrokerDefaults});</li>
 *   <li>{@link #stopBroker(int)} / {@link #startBroker(int)} keep the broker's data and its client port, so
 *       {@link #bootstrapServers()} stays valid across a restart;</li>
 *   <li>{@link #close()} stops everything and deletes the data directories; it is idempotent.</li>
 * </ul>
 * All ports are random unless {@link EmbeddedKafkaClusterBuilder#fixedPort(int)} is used (single broker only).
 * <p>
 * With {@link EmbeddedKafkaClusterBuilder#saslPlain(Map)} and/or {@link EmbeddedKafkaClusterBuilder#saslScram(Map)}
 * every broker gets an extra {@code SASL_PLAINTEXT} client listener ({@value #SASL_LISTENER}) accepting the given
 * users, and {@link #bootstrapServers()} points at it; {@link #clientProperties()} gives the client settings of the
 * first user.
 * Inter-broker and controller traffic stays on the test kit's PLAINTEXT listeners (also reachable, without
 * authentication, at {@link #plaintextBootstrapServers()}), and no authorizer is installed: every authenticated user
 * may do everything.
 * <p>
 * Built by {@link EmbeddedKafkaClusterBuilder}; the broker configuration comes from {@link BrokerDefaults} and
 * {@link ClientListeners}, SCRAM users are stored by {@link ScramUsers}, the waits are {@link ClusterReadiness}'s.
 */
public final class EmbeddedKafkaCluster implements KafkaService {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaCluster.class);

    /** Name of the SSL client listener added by {@link EmbeddedKafkaClusterBuilder#sslListener(String, String)}. */
    public static final String SSL_LISTENER = "SSLCLIENT";
    /**
     * Name of the SASL_PLAINTEXT client listener added by {@link EmbeddedKafkaClusterBuilder#saslPlain(Map)} /
     * {@link EmbeddedKafkaClusterBuilder#saslScram(Map)}.
     */
    public static final String SASL_LISTENER = "SASLCLIENT";
    /** The SASL mechanisms {@link EmbeddedKafkaClusterBuilder#saslScram(Map)} enables. */
    public static final List<String> SCRAM_MECHANISMS = List.of("SCRAM-SHA-256", "SCRAM-SHA-512");

    private final KafkaClusterTestKit kit;
    private final List<Integer> brokerIds;
    private final String bootstrapServers;
    private final Map<String, String> saslUsers;
    private final List<String> saslMechanisms;
    private final String defaultSaslUser;
    private final Set<Integer> stopped = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * A started {@code kit}; {@code clientPorts} are the ports of the SASL or SSL client listener, one per broker
     * (empty without one).
     */
    EmbeddedKafkaCluster(KafkaClusterTestKit kit, Integer fixedPort, List<Integer> clientPorts,
                         Map<String, String> saslUsers, List<String> saslMechanisms, String defaultSaslUser) {
        this.kit = kit;
        this.brokerIds = new ArrayList<>(new TreeSet<>(kit.brokers().keySet()));
        this.saslUsers = Map.copyOf(saslUsers);
        this.saslMechanisms = List.copyOf(saslMechanisms);
        this.defaultSaslUser = defaultSaslUser;
        if (!clientPorts.isEmpty()) {
            this.bootstrapServers = String.join(",", clientPorts.stream().map(p -> "localhost:" + p).toList());
        } else {
            this.bootstrapServers = fixedPort != null ? "localhost:" + fixedPort : kit.bootstrapServers();
        }
    }

    /** A builder for a new cluster (1 broker by default). */
    public static EmbeddedKafkaClusterBuilder builder() {
        return new EmbeddedKafkaClusterBuilder();
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
        return module + " required username=\"" + SaslUsers.jaasEscape(user) + "\" password=\""
               + SaslUsers.jaasEscape(password) + "\";";
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
        LOG.info("Stopped embedded Kafka broker {} (node {}) in {} ms", index, id, ClusterReadiness.millisSince(t0));
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
        ClusterReadiness.awaitBrokerRunning(broker, id);
        ClusterReadiness.awaitReady(kit, "restart of broker " + index);
        ClusterReadiness.awaitAllPartitionsHaveLeaders(kit, stopped, ClusterReadiness.BROKER_TIMEOUT);
        LOG.info("Restarted embedded Kafka broker {} (node {}) in {} ms", index, id, ClusterReadiness.millisSince(t0));
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
        LOG.info("Closed embedded Kafka cluster at {} in {} ms", bootstrapServers, ClusterReadiness.millisSince(t0));
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
}
