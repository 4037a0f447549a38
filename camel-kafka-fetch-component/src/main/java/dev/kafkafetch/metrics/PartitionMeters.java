package dev.kafkafetch.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Per-partition meters of one consumer (option {@code metricsPerPartition}): gauges {@code kafka.fetch.partition.lag},
 * {@code kafka.fetch.partition.in.flight} and {@code kafka.fetch.partition.held}, tagged like the task meters plus
 * {@code partition}, with {@code topic} the partition's own topic.
 * <p>
 * Guarantees: a partition has meters while a task of this consumer has it assigned in its latest snapshot; each
 * {@link #refresh()} registers the meters of newly assigned partitions and removes those of partitions that went away
 * (a rebalance moved them), so the number of series stays the number of assigned partitions. Not thread-safe: its
 * owner, {@link ConsumerMeters}, serializes the calls.
 */
final class PartitionMeters {

    private record Key(int task, String topic, int partition) {
    }

    /** One partition as its gauges see it (held strongly by them). */
    private record PartitionView(MeterSource source, Key key) {
        PartitionSnapshot snapshot() {
            TaskSnapshot task = source.snapshots().apply(key.task());
            if (task == null) {
                return null;
            }
            for (PartitionSnapshot p : task.partitions()) {
                if (p.partition() == key.partition() && p.topic().equals(key.topic())) {
                    return p;
                }
            }
            return null;
        }
    }

    private final MeterRegistry registry;
    private final MeterSource source;
    private final Map<Key, List<Meter>> registered = new HashMap<>();

    PartitionMeters(MeterRegistry registry, MeterSource source) {
        this.registry = registry;
        this.source = source;
    }

    /** Registers the meters of partitions assigned now, removes those of partitions no longer assigned. */
    void refresh() {
        Set<Key> assigned = new HashSet<>();
        for (int task = 0; task < source.tasks(); task++) {
            TaskSnapshot s = source.snapshots().apply(task);
            if (s != null) {
                for (PartitionSnapshot p : s.partitions()) {
                    assigned.add(new Key(task, p.topic(), p.partition()));
                }
            }
        }
        for (Iterator<Map.Entry<Key, List<Meter>>> it = registered.entrySet().iterator(); it.hasNext();) {
            Map.Entry<Key, List<Meter>> e = it.next();
            if (!assigned.contains(e.getKey())) {
                e.getValue().forEach(registry::remove);
                it.remove();
            }
        }
        for (Key key : assigned) {
            registered.computeIfAbsent(key, this::register);
        }
    }

    /** How many partitions have meters now. */
    int partitions() {
        return registered.size();
    }

    void close() {
        registered.values().forEach(meters -> meters.forEach(registry::remove));
        registered.clear();
    }

    private List<Meter> register(Key key) {
        PartitionView view = new PartitionView(source, key);
        Tags tags = ConsumerMeters.commonTags(source).and("topic", key.topic(), "task", String.valueOf(key.task()),
                "partition", String.valueOf(key.partition()));
        List<Meter> meters = new ArrayList<>(3);
        meters.add(gauge("lag", "Records between the fetch position and the log end of the partition", view, tags,
                p -> p.lag() >= 0 ? p.lag() : Double.NaN));
        meters.add(gauge("in.flight", "Records of the partition polled and not finished yet", view, tags,
                PartitionSnapshot::inFlight));
        meters.add(gauge("held", "Records of the partition held since its committable offset, finished or not", view,
                tags, PartitionSnapshot::held));
        return meters;
    }

    private Gauge gauge(String name, String description, PartitionView view, Tags tags,
                        ToDoubleFunction<PartitionSnapshot> value) {
        return Gauge.builder(ConsumerMeters.PREFIX + "partition." + name, view, v -> {
            PartitionSnapshot p = v.snapshot();
            return p == null ? Double.NaN : value.applyAsDouble(p);
        }).description(description).baseUnit("records").tags(tags).strongReference(true).register(registry);
    }
}
