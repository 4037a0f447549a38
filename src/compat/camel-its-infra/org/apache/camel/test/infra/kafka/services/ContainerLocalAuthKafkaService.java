package org.apache.camel.test.infra.kafka.services;

import java.util.Map;

import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Stand-in for camel-test-infra-kafka's authenticating broker (a container started with a JAAS file): an embedded
 * broker whose client listener is SASL_PLAINTEXT with the PLAIN mechanism, for the users Camel's
 * {@code /kafka-jaas.config} declares (admin/admin-secret, camel/camel-secret). One broker per instance, stopped
 * after the class.
 */
public class ContainerLocalAuthKafkaService implements KafkaService {

    private final Map<String, String> users;
    private EmbeddedKafkaCluster cluster;

    public ContainerLocalAuthKafkaService(String jaasConfigFile) {
        if (!"/kafka-jaas.config".equals(jaasConfigFile)) {
            throw new IllegalArgumentException("the stand-in knows the users of /kafka-jaas.config only, not "
                                               + jaasConfigFile);
        }
        this.users = Map.of("admin", "admin-secret", "camel", "camel-secret");
    }

    public static String generateSimpleSaslJaasConfig(String username, String password) {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + username
               + "\" password=\"" + password + "\";";
    }

    @Override
    public synchronized String getBootstrapServers() {
        initialize();
        return cluster.bootstrapServers();
    }

    @Override
    public synchronized void initialize() {
        if (cluster == null) {
            cluster = EmbeddedKafkaCluster.builder().saslPlain(users).start();
        }
    }

    @Override
    public synchronized void shutdown() {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }

    @Override
    public void afterAll(ExtensionContext extensionContext) {
        shutdown();
    }
}
