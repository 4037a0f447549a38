package dev.kafkafetch.task;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.kafkafetch.error.RetryPlan;
import org.apache.kafka.common.TopicPartition;

/**
 * The first assignment of one route consumer's run, shared by its fetch tasks: what {@code seekTo} applies to.
 * <p>
 * Guarantees: a partition is sought at most once per run of the route, never when it belongs to a retry topic (a retry
 * letter is the only copy of its failed record), and only as part of the route's first assignment: what a task is
 * given while some task of the route has not completed its first rebalance, and what a task whose first rebalance
 * brought nothing is given first within {@code idleGraceMs} (the route's {@code sessionTimeoutMs}). The consumer
 * protocol can make a task's first rebalance empty and bring its first partitions in the next one (the client first
 * reconciles the part of the assignment whose topic ids it knows; the broker computes assignments in the
 * background): those are still the route's first. Anything else a task takes over later (a member of the group
 * leaves, partitions are added) starts at the group's committed offset, as any later assignment does, also while a
 * sibling is still within its grace. Thread-safe: every task calls it from its own rebalance callback.
 */
public final class FirstAssignment {

    /** Kafka's default session timeout, the idle grace of a task alone. */
    private static final long DEFAULT_SESSION_TIMEOUT_MS = 45_000;

    private final int tasks;
    private final RetryPlan retries;
    private final long idleGraceMs;
    private final Set<TopicPartition> seen = new HashSet<>();
    private final Set<Object> given = new HashSet<>();
    private final Map<Object, Long> idleUntil = new HashMap<>();

    /**
     * @param tasks       the route's fetch tasks (consumersCount)
     * @param retries     the route's retry topics (never sought), or null
     * @param idleGraceMs how long a task whose first rebalance brought no partitions may still be given its first
     */
    public FirstAssignment(int tasks, RetryPlan retries, long idleGraceMs) {
        this.tasks = tasks;
        this.retries = retries;
        this.idleGraceMs = idleGraceMs;
    }

    /** The first assignment of a task that is alone in its route, with Kafka's default session timeout as grace. */
    static FirstAssignment alone(RetryPlan retries) {
        return new FirstAssignment(1, retries, DEFAULT_SESSION_TIMEOUT_MS);
    }

    /**
     * A rebalance gave {@code task} these {@code partitions} (possibly none) at {@code nowMs}. Returns the partitions
     * to seek: those of the route's own topics no task had yet, when they are part of the route's first assignment.
     */
    synchronized List<TopicPartition> assigned(Object task, Collection<TopicPartition> partitions, long nowMs) {
        boolean firstRebalances = given.size() + idleUntil.size() < tasks; // a task has not had its first yet
        Long until = idleUntil.get(task);
        boolean lateFirst = until != null && nowMs < until; // this task's first rebalance brought nothing
        List<TopicPartition> seek = new ArrayList<>();
        if (firstRebalances || lateFirst) {
            for (TopicPartition tp : partitions) {
                if ((retries == null || !retries.isRetryTopic(tp.topic())) && seen.add(tp)) {
                    seek.add(tp);
                }
            }
        }
        if (!partitions.isEmpty()) {
            given.add(task);
            idleUntil.remove(task);
        } else if (!given.contains(task)) {
            idleUntil.putIfAbsent(task, nowMs + idleGraceMs);
        }
        return seek;
    }
}
