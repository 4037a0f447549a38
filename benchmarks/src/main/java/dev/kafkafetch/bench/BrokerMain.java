package dev.kafkafetch.bench;

import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaLogging;

/**
 * The benchmark broker in a JVM of its own (one combined KRaft node, as the in-process one), so that the harness JVM
 * holds only the contenders and the broker's CPU can be seen apart ({@code top}, {@code /proc/<pid>/stat}). Prints
 * {@code BOOTSTRAP host:port} once it serves, then runs until its standard input closes or it is killed.
 */
public final class BrokerMain {

    private BrokerMain() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        KafkaLogging.quietBrokerLogs();
        EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().start();
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "broker-stop"));
        System.out.println("BOOTSTRAP " + cluster.bootstrapServers());
        System.out.flush();
        while (System.in.read() >= 0) {
            // until stdin closes
        }
        System.exit(0); // the shutdown hook closes the broker

    }
}
