package dev.kafkafetch.task;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.kafkafetch.error.RetryPlan;
import org.apache.kafka.common.TopicPartition;

/**
 * The first assignment of one route consumer's run, shared by its fetch tasks: what {@code seekTo} applies to.
 * <p>
 * Guarantees: a partition is sought at most once per run of the route, only while the route's first assignment is
 * going on (until every fetch task completed its first rebalance, with partitions or without), and never when it
 * belongs to a retry topic (a retry letter is the only copy of its failed record). So a task that started without
 * partitions and takes one over later (a sibling reconnects, a member of the group leaves, partitions are added)
 * starts it at the group's committed offset, as any later assignment does. Thread-safe: every task calls it from its
 * own rebalance callback.
 */
public final class FirstAssignment {

    private final RetryPlan retries;
    private final Set<TopicPartition> seen = new HashSet<>();
    private int tasksPending;

    /**
     * @param tasks      the route's fetch tasks (consumersCount)
     * @param retries    the route's retry topics (never sought), or null
     */
    public FirstAssignment(int tasks, RetryPlan retries) {
        this.tasksPending = tasks;
        this.retries = retries;
    }

    /**
     * A task was assigned {@code partitions} (possibly none); {@code tasksFirst} when it is that task's first
     * rebalance. Returns the partitions to seek: those of the route's own topics it is the first to get while the
     * route's first assignment is going on.
     */
    synchronized List<TopicPartition> assigned(Collection<TopicPartition> partitions, boolean tasksFirst) {
        List<TopicPartition> seek = new ArrayList<>();
        if (tasksPending > 0) {
            for (TopicPartition tp : partitions) {
                if ((retries == null || !retries.isRetryTopic(tp.topic())) && seen.add(tp)) {
                    seek.add(tp);
                }
            }
        }
        if (tasksFirst && tasksPending > 0) {
            tasksPending--;
        }
        return seek;
    }
}
