package dev.kafkafetch.testinfra;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.kafka.common.test.TestKitNodes;

/**
 * The broker configuration of the extra client listener a cluster may offer next to the test kit's own PLAINTEXT
 * listeners: plaintext on a fixed port, SSL, or SASL_PLAINTEXT.
 * <p>
 * Guarantees: the test kit's broker and controller listeners keep their names and protocols (inter-broker and
 * controller traffic never needs the client listener's security); each broker's client listener is bound to a port
 * chosen before the start, so it stays the same across a broker restart.
 */
final class ClientListeners {

    /** Name of the extra plaintext listener used by {@link EmbeddedKafkaClusterBuilder#fixedPort(int)}. */
    static final String FIXED_LISTENER = "FIXEDPORT";
    /** The test kit's broker listener name, fixed up front when per-broker listener lists name it. */
    static final String BROKER_LISTENER = "EXTERNAL";
    /** The test kit's controller listener name, fixed up front when per-broker listener lists name it. */
    static final String CONTROLLER_LISTENER = "CONTROLLER";

    private ClientListeners() {
    }

    /** One client port per broker: {@code fixedPort} for the first broker when given, free random ports otherwise. */
    static List<Integer> clientPorts(int brokers, Integer fixedPort) throws IOException {
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < brokers; i++) {
            ports.add(i == 0 && fixedPort != null ? fixedPort : freePort());
        }
        return ports;
    }

    /**
     * Per broker node: the kit's own listeners on pre-bound random ports (broker, plus controller on the combined
     * node) and the client listener on its own port, kept across restarts.
     */
    static Map<Integer, Map<String, String>> perBroker(int brokers, List<Integer> ports, String clientListener) {
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
    static Map<String, String> sasl(TestKitNodes nodes, SaslUsers users) {
        String prefix = "listener.name." + EmbeddedKafkaCluster.SASL_LISTENER.toLowerCase(Locale.ROOT) + ".";
        Map<String, String> p = new LinkedHashMap<>();
        p.put("listener.security.protocol.map",
                protocolMap(nodes, EmbeddedKafkaCluster.SASL_LISTENER, "SASL_PLAINTEXT"));
        p.put(prefix + "sasl.enabled.mechanisms", String.join(",", users.mechanisms()));
        if (!users.plainUsers().isEmpty()) {
            StringBuilder jaas = new StringBuilder("org.apache.kafka.common.security.plain.PlainLoginModule required");
            for (String user : users.plainUsers()) {
                jaas.append(" user_").append(user).append("=\"").append(SaslUsers.jaasEscape(users.password(user)))
                        .append('"');
            }
            p.put(prefix + "plain.sasl.jaas.config", jaas.append(';').toString());
        }
        if (!users.scramUsers().isEmpty()) {
            for (String mechanism : EmbeddedKafkaCluster.SCRAM_MECHANISMS) {
                p.put(prefix + mechanism.toLowerCase(Locale.ROOT) + ".sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required;");
            }
        }
        return p;
    }

    /** The SSL client listener's protocol and PKCS12 key store (store and key share {@code password}). */
    static Map<String, String> ssl(TestKitNodes nodes, String keystoreLocation, String password) {
        String prefix = "listener.name." + EmbeddedKafkaCluster.SSL_LISTENER.toLowerCase(Locale.ROOT) + ".";
        Map<String, String> p = new LinkedHashMap<>();
        p.put("listener.security.protocol.map", protocolMap(nodes, EmbeddedKafkaCluster.SSL_LISTENER, "SSL"));
        p.put(prefix + "ssl.keystore.location", keystoreLocation);
        p.put(prefix + "ssl.keystore.password", password);
        p.put(prefix + "ssl.key.password", password);
        p.put(prefix + "ssl.keystore.type", "PKCS12");
        return p;
    }

    /**
     * The test kit pre-binds a random port for its broker listener, so a fixed port is offered through an additional
     * plaintext listener bound directly on {@code localhost:port}.
     */
    static Map<String, String> fixedPort(TestKitNodes nodes, int port) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("listeners", nodes.brokerListenerName().value() + "://localhost:0,"
                           + nodes.controllerListenerName().value() + "://localhost:0," + FIXED_LISTENER
                           + "://localhost:" + port);
        p.put("listener.security.protocol.map", protocolMap(nodes, FIXED_LISTENER, "PLAINTEXT"));
        return p;
    }

    /** The kit's broker and controller listeners with their protocols, plus {@code listener} with {@code protocol}. */
    private static String protocolMap(TestKitNodes nodes, String listener, String protocol) {
        return nodes.brokerListenerName().value() + ":" + nodes.brokerListenerProtocol().name + ","
               + nodes.controllerListenerName().value() + ":" + nodes.controllerListenerProtocol().name + ","
               + listener + ":" + protocol;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
