package dev.kafkafetch.testinfra;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * The broker configuration and bootstrap metadata every embedded cluster starts from.
 * <p>
 * Guarantees: the cluster behaves like a released broker (production metadata version and features, no unstable APIs),
 * with timeouts short enough that a broker restart takes seconds and a rebalance does not wait, and internal topics
 * replicated as far as the broker count allows ({@code min(brokers, 3)}, min ISR {@code min(brokers, 2)}). Every value
 * can be overridden with {@link EmbeddedKafkaClusterBuilder#config(String, String)}.
 */
final class BrokerDefaults {

    private BrokerDefaults() {
    }

    /**
     * Bootstrap metadata of a released broker: the latest production metadata.version and the default level of every
     * production feature for it (group.version=1 enables the KIP-848 consumer protocol, etc.). kraft.version is left to
     * the formatter (static quorum).
     */
    static BootstrapMetadata productionBootstrapMetadata() {
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

    /** The broker (and controller) configuration of a cluster of {@code brokers} brokers, in a new mutable map. */
    static Map<String, String> config(int brokers) {
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
}
