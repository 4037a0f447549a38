package dev.kafkafetch.reliability;

import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaServices;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Scenario 2a: the only broker of a dedicated single-node cluster is stopped and restarted mid-stream. */
class SingleBrokerRestartIT extends BrokerRestartScenario {

    private static EmbeddedKafkaCluster cluster;
    private static KafkaTestSupport k;

    @BeforeAll
    static void startCluster() {
        cluster = KafkaServices.embedded(1);
        k = new KafkaTestSupport(cluster.bootstrapServers());
    }

    @AfterAll
    static void stopCluster() {
        if (k != null) {
            k.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Override
    EmbeddedKafkaCluster cluster() {
        return cluster;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { SERIAL, PARALLEL })
    void singleBrokerRestartLosesNothing(String variant) throws Exception {
        run("single-broker-restart", variant, 1, (r, random) -> 0, k, KafkaTestSupport.uniqueName("g"));
    }
}
