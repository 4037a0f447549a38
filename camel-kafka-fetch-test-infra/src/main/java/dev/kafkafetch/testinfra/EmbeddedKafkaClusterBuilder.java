package dev.kafkafetch.testinfra;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.common.utils.Exit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds and starts an {@link EmbeddedKafkaCluster}; obtained from {@link EmbeddedKafkaCluster#builder()}.
 * <p>
 * Guarantees: {@link #start()} either returns a ready cluster or throws after cleaning up what it started; options
 * that cannot work together (SSL with SASL or a fixed port, a fixed port with several brokers) fail {@link #start()}
 * before anything runs.
 */
public final class EmbeddedKafkaClusterBuilder {

    // the cluster's logger: what a test's log configuration names for the embedded cluster
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaCluster.class);

    private int brokers = 1;
    private Integer fixedPort;
    private final Map<String, String> config = new LinkedHashMap<>();
    private final SaslUsers saslUsers = new SaslUsers();
    private String sslKeystore;
    private String sslPassword;

    EmbeddedKafkaClusterBuilder() {
    }

    /**
     * Adds an SSL client listener ({@value EmbeddedKafkaCluster#SSL_LISTENER}) on every broker, serving the
     * certificate of the PKCS12 key store at {@code keystoreLocation} (store and key password {@code password}), and
     * makes {@link EmbeddedKafkaCluster#bootstrapServers()} return it. Clients need {@code security.protocol=SSL} and a
     * trust store holding that certificate. Not combinable with SASL or a fixed port.
     */
    public EmbeddedKafkaClusterBuilder sslListener(String keystoreLocation, String password) {
        this.sslKeystore = keystoreLocation;
        this.sslPassword = password;
        return this;
    }

    /** Number of brokers (default 1); 1 = combined broker+controller node, more = brokers + 1 controller. */
    public EmbeddedKafkaClusterBuilder brokers(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("brokers must be >= 1, was " + n);
        }
        this.brokers = n;
        return this;
    }

    /** Extra broker (and controller) configuration; overrides the {@link BrokerDefaults}. */
    public EmbeddedKafkaClusterBuilder config(String key, String value) {
        config.put(key, value);
        return this;
    }

    /**
     * Adds a plaintext client listener on {@code localhost:port} and makes
     * {@link EmbeddedKafkaCluster#bootstrapServers()} return it (single broker only). The port is kept across
     * {@link EmbeddedKafkaCluster#stopBroker(int)}/{@link EmbeddedKafkaCluster#startBroker(int)}.
     */
    public EmbeddedKafkaClusterBuilder fixedPort(int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("Invalid port " + port);
        }
        this.fixedPort = port;
        return this;
    }

    /**
     * Adds a SASL_PLAINTEXT client listener ({@value EmbeddedKafkaCluster#SASL_LISTENER}) on every broker that accepts
     * the PLAIN mechanism for these users (name &rarr; password), and makes
     * {@link EmbeddedKafkaCluster#bootstrapServers()} return it. Can be combined with {@link #saslScram(Map)}; a user
     * given to both must have the same password. With {@link #fixedPort(int)} the SASL listener uses that port (and no
     * PLAINTEXT listener is added on it).
     */
    public EmbeddedKafkaClusterBuilder saslPlain(Map<String, String> users) {
        saslUsers.add(users, false);
        return this;
    }

    /**
     * Like {@link #saslPlain(Map)}, with the SCRAM-SHA-256 and SCRAM-SHA-512 mechanisms: the users' SCRAM credentials
     * are stored in the cluster metadata once it runs, before {@link #start()} returns.
     */
    public EmbeddedKafkaClusterBuilder saslScram(Map<String, String> users) {
        saslUsers.add(users, true);
        return this;
    }

    /**
     * Formats the storage, starts the nodes and waits for ready brokers.
     * <p>Defaults (each can be overridden with {@link #config(String, String)}, all listed in {@link BrokerDefaults}):
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
            List<Integer> clientPorts = sasl || ssl ? ClientListeners.clientPorts(brokers, fixedPort) : List.of();
            List<String> mechanisms = saslUsers.mechanisms();
            TestKitNodes nodes = nodes(clientPorts, ssl ? EmbeddedKafkaCluster.SSL_LISTENER
                    : EmbeddedKafkaCluster.SASL_LISTENER);
            KafkaClusterTestKit.Builder kb = new KafkaClusterTestKit.Builder(nodes);
            Map<String, String> props = BrokerDefaults.config(brokers);
            if (sasl) {
                props.putAll(ClientListeners.sasl(nodes, saslUsers));
            } else if (ssl) {
                props.putAll(ClientListeners.ssl(nodes, sslKeystore, sslPassword));
            } else if (fixedPort != null) {
                props.putAll(ClientListeners.fixedPort(nodes, fixedPort));
            }
            props.putAll(config);
            props.forEach(kb::setConfigProp);
            kit = kb.build();
            kit.format();
            keepTheJvmAlive();
            ClusterReadiness.startAndAwaitReady(kit);
            if (!saslUsers.scramUsers().isEmpty()) {
                ScramUsers.create(kit.bootstrapServers(), clientPorts, saslUsers);
            }
            EmbeddedKafkaCluster cluster = new EmbeddedKafkaCluster(kit, fixedPort, clientPorts,
                    saslUsers.passwords(), mechanisms, saslUsers.defaultUser());
            LOG.info("Started embedded Kafka cluster ({} broker(s)) at {} in {} ms", brokers,
                    cluster.bootstrapServers(), ClusterReadiness.millisSince(t0));
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

    /**
     * The nodes: combined when single, else brokers + 1 controller; with a client listener ({@code clientPorts} not
     * empty) the per-broker listener lists name the kit's listeners, so their names are fixed up front.
     */
    private TestKitNodes nodes(List<Integer> clientPorts, String clientListener) {
        TestKitNodes.Builder nb = new TestKitNodes.Builder(BrokerDefaults.productionBootstrapMetadata())
                .setCombined(brokers == 1)
                .setNumBrokerNodes(brokers)
                .setNumControllerNodes(1);
        if (!clientPorts.isEmpty()) {
            nb.setBrokerListenerName(new ListenerName(ClientListeners.BROKER_LISTENER))
                    .setControllerListenerName(new ListenerName(ClientListeners.CONTROLLER_LISTENER))
                    .setPerServerProperties(ClientListeners.perBroker(brokers, clientPorts, clientListener));
        }
        return nb.build();
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

    private static void closeQuietly(KafkaClusterTestKit kit) {
        if (kit != null) {
            try {
                kit.close();
            } catch (Exception suppressed) {
                LOG.debug("Error closing a half-started cluster", suppressed);
            }
        }
    }
}
