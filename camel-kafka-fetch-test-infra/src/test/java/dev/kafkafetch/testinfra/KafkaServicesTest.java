package dev.kafkafetch.testinfra;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KafkaServicesTest {

    private String savedBootstrap;
    private String savedType;

    @BeforeEach
    void saveProperties() {
        savedBootstrap = System.clearProperty(KafkaServices.BOOTSTRAP_SERVERS_PROPERTY);
        savedType = System.clearProperty(KafkaServices.INSTANCE_TYPE_PROPERTY);
    }

    @AfterEach
    void restoreProperties() {
        restore(KafkaServices.BOOTSTRAP_SERVERS_PROPERTY, savedBootstrap);
        restore(KafkaServices.INSTANCE_TYPE_PROPERTY, savedType);
    }

    @Test
    void selectsTheInstanceTypeFromSystemProperties() {
        assertThat(KafkaServices.instanceType()).isEqualTo("embedded");
        System.setProperty(KafkaServices.INSTANCE_TYPE_PROPERTY, "Testcontainers");
        assertThat(KafkaServices.instanceType()).isEqualTo("testcontainers");
        System.setProperty(KafkaServices.BOOTSTRAP_SERVERS_PROPERTY, "broker:9092");
        assertThat(KafkaServices.instanceType()).isEqualTo("external");
        System.clearProperty(KafkaServices.BOOTSTRAP_SERVERS_PROPERTY);
        System.setProperty(KafkaServices.INSTANCE_TYPE_PROPERTY, "zookeeper");
        assertThatThrownBy(KafkaServices::instanceType).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void testcontainersRequestedWithoutDockerFailsLoudlyInsteadOfSkipping() {
        Assumptions.assumeFalse(TestcontainersKafka.isDockerAvailable(), "a Docker engine is available here");
        // create(), not shared(): a failed shared() is remembered and would fail every other test in this JVM
        assertThatThrownBy(() -> KafkaServices.create(KafkaServices.TYPE_TESTCONTAINERS))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("kafka.instance.type=testcontainers")
                .hasMessageContaining("no Docker engine");
        // nothing in the extension can disable (skip) a broker-backed test
        assertThat(KafkaBrokerExtension.shared()).isNotInstanceOf(ExecutionCondition.class);
    }

    @Test
    void externalKafkaStartsAndStopsNothing() {
        ExternalKafka external = new ExternalKafka("a:9092, b:9092");
        assertThat(external.bootstrapServers()).isEqualTo("a:9092, b:9092");
        assertThat(external.brokerCount()).isEqualTo(2);
        assertThatThrownBy(() -> external.stopBroker(0)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> external.startBroker(0)).isInstanceOf(UnsupportedOperationException.class);
        external.close();
        external.close();
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
