package dev.kafkafetch.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.metrics.OldestUnfinished;
import dev.kafkafetch.metrics.PartitionSnapshot;

/**
 * The health details of what a fetch task is stuck on: of the records its partitions' commits wait for, the one that
 * has waited longest ({@code stuck.record} as topic-partition@offset, {@code stuck.age.ms}, {@code stuck.state},
 * {@code stuck.attempt}, with KEY ordering {@code stuck.waiting.behind}, and when it waits behind an execution still
 * running from before a seek back or a rebalance, {@code stuck.behind.offset}, {@code stuck.behind.state} and
 * {@code stuck.behind.running.ms}). The key is left out: health details go
 * to load balancers and logs, the console shows it. Details only: they never change a check's result.
 */
final class StuckRecordDetails {

    private StuckRecordDetails() {
    }

    /** The details of the task's longest-waiting unfinished record, keys without the task prefix; empty when none. */
    static Map<String, Object> of(List<PartitionSnapshot> partitions) {
        PartitionSnapshot worst = null;
        for (PartitionSnapshot p : partitions) {
            OldestUnfinished o = p.oldestUnfinished();
            if (o != null && (worst == null || o.ageMs() > worst.oldestUnfinished().ageMs())) {
                worst = p;
            }
        }
        if (worst == null) {
            return Map.of();
        }
        OldestUnfinished o = worst.oldestUnfinished();
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("stuck.record", worst.topic() + "-" + worst.partition() + "@" + o.offset());
        d.put("stuck.age.ms", o.ageMs());
        d.put("stuck.state", o.state());
        d.put("stuck.attempt", o.attempt());
        if (o.waitingBehind() > 0) {
            d.put("stuck.waiting.behind", o.waitingBehind());
        }
        if (o.waitsBehind() != null) {
            d.put("stuck.behind.offset", o.waitsBehind().offset());
            d.put("stuck.behind.state", o.waitsBehind().state());
            d.put("stuck.behind.running.ms", o.waitsBehind().runningMs());
        }
        return d;
    }
}
