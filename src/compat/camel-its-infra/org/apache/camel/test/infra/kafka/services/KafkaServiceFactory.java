package org.apache.camel.test.infra.kafka.services;

import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaServices;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Stand-in for camel-test-infra-kafka's factory: {@link #createService()} gives a test class its own embedded broker
 * (stopped after the class), {@link #createSingletonService()} one broker shared by the JVM.
 */
public final class KafkaServiceFactory {

    private static final EmbeddedService SINGLETON = new EmbeddedService(true);

    private KafkaServiceFactory() {
    }

    public static KafkaService createService() {
        return new EmbeddedService(false);
    }

    public static KafkaService createSingletonService() {
        return SINGLETON;
    }

    /** One embedded single-broker cluster. */
    static final class EmbeddedService implements KafkaService {
        private final boolean shared;
        private EmbeddedKafkaCluster cluster;

        EmbeddedService(boolean shared) {
            this.shared = shared;
        }

        @Override
        public synchronized String getBootstrapServers() {
            initialize();
            return cluster.bootstrapServers();
        }

        @Override
        public synchronized void initialize() {
            if (cluster == null) {
                cluster = KafkaServices.embedded(1);
                if (shared) {
                    Runtime.getRuntime().addShutdownHook(new Thread(cluster::close));
                }
            }
        }

        @Override
        public synchronized void shutdown() {
            if (cluster != null && cluster.isBrokerRunning(0)) {
                cluster.stopBroker(0);
            }
        }

        @Override
        public synchronized void afterAll(ExtensionContext extensionContext) {
            if (!shared && cluster != null) {
                cluster.close();
                cluster = null;
            }
        }
    }
}
