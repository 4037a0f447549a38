package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

/**
 * The share soak's dealings with the broker about its share group: setting the group's configs (they live on the
 * broker, never in a consumer) and reading the group's start offset per partition, below which every record is
 * acknowledged or archived for good.
 */
final class ShareGroups {

    private ShareGroups() {
    }

    /** Sets the group's configs (incrementalAlterConfigs on the GROUP resource); the group need not exist yet. */
    static void prepare(Admin admin, String group, Map<String, String> configs) throws Exception {
        List<AlterConfigOp> ops = new ArrayList<>();
        configs.forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
        admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), ops)).all()
                .get(30, TimeUnit.SECONDS);
    }

    /** The share group's start offset of each partition of {@code topic} (0 where it has none, or on an error). */
    static Map<Integer, Long> startOffsets(Admin admin, String group, String topic, int partitions) {
        List<TopicPartition> tps = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            tps.add(new TopicPartition(topic, p));
        }
        Map<Integer, Long> start = new HashMap<>();
        try {
            Map<TopicPartition, SharePartitionOffsetInfo> info = admin
                    .listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec().topicPartitions(tps)))
                    .partitionsToOffsetInfo(group).get(30, TimeUnit.SECONDS);
            info.forEach((tp, i) -> start.put(tp.partition(), i == null ? 0L : i.startOffset()));
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            // unknown yet: as if nothing were done
        }
        return start;
    }
}
