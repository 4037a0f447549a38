package dev.kafkafetch.metrics;

import java.util.function.IntFunction;

import dev.kafkafetch.tx.TxSnapshot;

/**
 * What the Micrometer meters of one kafka-fetch consumer describe, and where their values come from. No Micrometer
 * type appears here, so the consumer can build it whether or not Micrometer is on the class path.
 *
 * @param camelContext the Camel context's name (tag {@code camelContext})
 * @param routeId      the route's id (tag {@code routeId})
 * @param subscription the endpoint's topic: a name, a comma-separated list or a pattern (tag {@code topic})
 * @param groupId      the consumer group (tag {@code groupId})
 * @param tasks        how many fetch tasks the consumer runs (tag {@code task}: 0 to tasks - 1)
 * @param snapshots    the latest published snapshot of task {@code i}, or null once the task is gone
 * @param perPartition whether to publish per-partition meters too (option {@code metricsPerPartition})
 * @param transactions the latest transactions of task {@code i} (null entries while unknown); null unless the route
 *                     is transacted
 */
public record MeterSource(String camelContext, String routeId, String subscription, String groupId, int tasks,
        IntFunction<TaskSnapshot> snapshots, boolean perPartition, IntFunction<TxSnapshot> transactions) {

    public MeterSource(String camelContext, String routeId, String subscription, String groupId, int tasks,
                       IntFunction<TaskSnapshot> snapshots, boolean perPartition) {
        this(camelContext, routeId, subscription, groupId, tasks, snapshots, perPartition, null);
    }
}
