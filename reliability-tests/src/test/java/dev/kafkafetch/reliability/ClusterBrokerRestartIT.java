package dev.kafkafetch.reliability;

import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaServices;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scenario 2b: one broker of a dedicated 3-broker cluster (topic replication factor 3, min.insync.replicas 2) is
 * stopped and restarted mid-stream. Every other restart (the first included) stops the group's coordinator, the most
 * disruptive choice (commits and heartbeats must move to another broker); the others stop a random broker.
 */
class ClusterBrokerRestartIT extends BrokerRestartScenario {

    private static EmbeddedKafkaCluster cluster;
    private static KafkaTestSupport k;

    @BeforeAll
    static void startCluster() {
        cluster = KafkaServices.embedded(3);
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
    void oneOfThreeBrokersRestartLosesNothing(String variant) throws Exception {
        String group = KafkaTestSupport.uniqueName("g");
        run("cluster-broker-restart", variant, 3, (r, random) -> r % 2 == 0 ? coordinatorIndex(group)
                : random.nextInt(cluster.brokerCount()), k, group);
    }

    private static int coordinatorIndex(String group) {
        try {
            int node = k.admin().describeConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS).get(group)
                    .coordinator().id();
            for (int i = 0; i < cluster.brokerCount(); i++) {
                if (cluster.brokerId(i) == node) {
                    return i;
                }
            }
            throw new IllegalStateException("coordinator node " + node + " is not a broker of the cluster");
        } catch (Exception e) {
            throw new IllegalStateException("cannot find the coordinator of " + group, e);
        }
    }
}
