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
 * Guarantees: a partition is sought at most once per run of the route, only while the route's first assignment is
 * going on, and never when it belongs to a retry topic (a retry letter is the only copy of its failed record). The
 * first assignment goes on until every fetch task was given partitions, or had a rebalance that gave it none and then
 * stayed without for {@code idleGraceMs} (the route's {@code sessionTimeoutMs}). With the consumer protocol a task's
 * first rebalance can bring nothing and the next one its first partitions (the client first reconciles the part of
 * the assignment whose topic ids it knows; the broker computes assignments in the background): those are still the
 * route's first. A task that stayed idle past the grace and takes a partition over later (a member of the group
 * leaves, partitions are added) starts it at the group's committed offset, as any later assignment does. Thread-safe:
 * every task calls it from its own rebalance callback.
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
     * @param idleGraceMs how long a task given no partitions yet still takes part in the first assignment
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
     * to seek: those of the route's own topics no task had yet, while the route's first assignment is going on.
     */
    synchronized List<TopicPartition> assigned(Object task, Collection<TopicPartition> partitions, long nowMs) {
        List<TopicPartition> seek = new ArrayList<>();
        if (goingOn(nowMs)) {
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

    private boolean goingOn(long nowMs) {
        if (given.size() + idleUntil.size() < tasks) {
            return true; // a task has not had its first rebalance yet
        }
        for (long until : idleUntil.values()) {
            if (nowMs < until) {
                return true;
            }
        }
        return false;
    }
}
