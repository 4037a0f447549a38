package dev.kafkafetch.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.kafkafetch.metrics.ClientReachability;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.task.TaskState;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheck.Kind;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Readiness and liveness of one {@code kafka-fetch} consumer (all its fetch tasks). It only reads the tasks' states
 * and published snapshots: it never touches a KafkaConsumer and never blocks.
 * <p>
 * <b>Readiness</b> is DOWN while any task has no working consumer (CONNECTING, SUBSCRIBING, RECONNECTING,
 * TERMINATED), cannot reach the brokers, or cannot get its dead letters acknowledged (the records stay unfinished, so
 * its partitions stop moving). Reachability comes from the client's own metrics, published by the fetch
 * thread: a task reaches the brokers when the client's {@code response-total} grew recently (a healthy member gets
 * fetch responses every {@code fetch.max.wait.ms} and heartbeat responses every heartbeat interval, even with every
 * partition paused). It is DOWN when the consumer has not received a single response since it was created, when it
 * has no connection at all ({@code connection-count} 0) and no response for a short grace (refused connections, a
 * stopped broker), or when no response came for {@code sessionTimeoutMs} (a black-holed host, whose connection
 * attempts stay open; by then the group has evicted the member anyway). A rebalance keeps requests flowing and so
 * stays UP. Reachability is read live from each task's client metrics when the consumer gives access to them (a
 * stopped broker turns readiness DOWN about {@value #DISCONNECTED_GRACE_MS} ms after its last response, as quickly as
 * camel-kafka's check); from a snapshot otherwise, which is published once per poll loop, so each bound is then
 * widened by {@code pollTimeoutMs}.
 * <p>
 * <b>Liveness</b> is DOWN when a task TERMINATED (gave up) or is stuck: polling, yet no poll returned for longer than
 * {@code maxPollIntervalMs} (Kafka's default 300000 when not set). A task retrying to connect is alive.
 * <p>
 * Details name the route, topic, group, brokers and, per task, its client id, state and last error (masked by the
 * task when it was recorded), the record it is stuck on ({@link StuckRecordDetails}), and what the scheme adds per task ({@link #setTaskDetails}: a share task's counters, a
 * transacted task's transactions, {@link TransactionDetails}).
 * <p>
 * Camel's consumers repository asks {@link org.apache.camel.health.HealthCheckAware} consumers for readiness only
 * (its wrapper, {@code consumer:<routeId>}, is not a liveness check), so the consumer hands it a {@link Kind#READINESS}
 * instance and registers a {@link Kind#LIVENESS} instance with the registry itself. A {@link Kind#ALL} instance
 * answers what the caller's {@code check.kind} option asks for (both when absent).
 */
public class KafkaFetchConsumerHealthCheck extends AbstractHealthCheck {

    /** With live client metrics: how long a consumer may have no connection and no response before it is not ready. */
    static final long DISCONNECTED_GRACE_MS = 2000;

    private final String routeId;
    private final Kind kind;
    private final HealthSettings settings;
    private final Supplier<List<TaskSnapshot>> tasks;
    private final Function<String, ClientReachability> live;
    private volatile Function<String, Map<String, Object>> taskDetails = name -> Map.of();

    /** The consumer checks reachability from a snapshot only (each bound widened by pollTimeoutMs). */
    public KafkaFetchConsumerHealthCheck(String routeId, Kind kind, HealthSettings settings,
                                         Supplier<List<TaskSnapshot>> tasks) {
        this(routeId, kind, settings, tasks, name -> null);
    }

    /**
     * @param kind  what this instance checks: READINESS, LIVENESS, or ALL (as the caller's check.kind asks)
     * @param tasks the latest snapshot of every fetch task of the consumer (never blocks)
     * @param live  the live reachability of a task by its thread name (null when unknown)
     */
    public KafkaFetchConsumerHealthCheck(String routeId, Kind kind, HealthSettings settings,
                                         Supplier<List<TaskSnapshot>> tasks,
                                         Function<String, ClientReachability> live) {
        super("camel", "consumer:kafka-fetch-" + routeId);
        this.routeId = routeId;
        this.kind = kind;
        this.settings = settings;
        this.tasks = tasks;
        this.live = live;
    }

    /**
     * Extra details of each task, by its thread name, shown as {@code task.<i>.<key>} (the share-group counters of a
     * kafka-fetch-share task); they never change the result.
     */
    public void setTaskDetails(Function<String, Map<String, Object>> taskDetails) {
        this.taskDetails = taskDetails;
    }

    @Override
    public boolean isReadiness() {
        return kind != Kind.LIVENESS;
    }

    @Override
    public boolean isLiveness() {
        return kind != Kind.READINESS;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        Kind asked = kind;
        if (asked == Kind.ALL) {
            Object option = options.get(HealthCheck.CHECK_KIND);
            asked = option instanceof Kind k ? k : Kind.ALL;
        }
        boolean readiness = asked != Kind.LIVENESS;
        boolean liveness = asked != Kind.READINESS;

        if (routeId != null) {
            builder.detail("route.id", routeId);
        }
        builder.detail("topic", settings.topic());
        builder.detail("group.id", settings.groupId());
        builder.detail("bootstrap.servers", settings.brokers());

        long now = System.currentTimeMillis();
        long maxPollInterval = settings.maxPollIntervalMs();
        // snapshots are published once per poll loop, so they may be up to one pollTimeoutMs old
        long pollTimeout = settings.pollTimeoutMs();
        long unreachableAfter = settings.sessionTimeoutMs() + pollTimeout;
        long disconnectedGrace = Math.min(unreachableAfter, Math.max(3000, 2L * settings.heartbeatIntervalMs()))
                                 + pollTimeout;
        long liveUnreachableAfter = settings.sessionTimeoutMs();
        long liveDisconnectedGrace = Math.min(liveUnreachableAfter, DISCONNECTED_GRACE_MS);

        List<TaskSnapshot> snapshots = tasks.get();
        List<String> problems = new ArrayList<>();
        if (snapshots.isEmpty()) {
            problems.add("no fetch task is running (the consumer is not started)");
        }
        List<String> clientIds = new ArrayList<>();
        for (int i = 0; i < snapshots.size(); i++) {
            TaskSnapshot snap = snapshots.get(i);
            TaskState state = TaskState.valueOf(snap.state());
            String prefix = "task." + i + ".";
            String name = snap.threadName();
            builder.detail(prefix + "name", name);
            builder.detail(prefix + "state", state.name());
            if (snap.clientId() != null) {
                builder.detail(prefix + "client.id", snap.clientId());
                clientIds.add(snap.clientId());
            }
            builder.detail(prefix + "generation", snap.generation());
            builder.detail(prefix + "partitions", snap.partitions().size());
            builder.detail(prefix + "connections", snap.connectionCount());
            if (snap.lastPollTime() > 0) {
                builder.detail(prefix + "last.poll.age.ms", now - snap.lastPollTime());
            }
            if (snap.lastBrokerResponseTime() > 0) {
                builder.detail(prefix + "last.broker.response.age.ms", now - snap.lastBrokerResponseTime());
            }
            String lastError = snap.lastError();
            if (lastError != null) {
                builder.detail(prefix + "last.error", lastError);
            }
            StuckRecordDetails.of(snap.partitions()).forEach((key, value) -> builder.detail(prefix + key, value));
            taskDetails.apply(name).forEach((key, value) -> builder.detail(prefix + key, value));

            if (liveness) {
                String problem = livenessProblem(state, snap, now, maxPollInterval);
                if (problem != null) {
                    problems.add(name + " " + problem);
                }
            }
            if (readiness) {
                ClientReachability reach = live.apply(name);
                String problem;
                if (reach != null && isPolling(state) && snap.deadLetterTrouble() == null) {
                    reach.refresh(now);
                    problem = reachabilityProblem(reach.createdTime(), reach.connectionCount(),
                            reach.lastResponseTime(), now, liveUnreachableAfter, liveDisconnectedGrace,
                            settings.brokers());
                } else {
                    problem = readinessProblem(state, snap, now, unreachableAfter, disconnectedGrace,
                            settings.brokers());
                }
                if (problem != null) {
                    problems.add(name + " " + problem + (lastError != null ? " (last error: " + lastError + ")" : ""));
                }
            }
        }
        if (!clientIds.isEmpty()) {
            builder.detail("client.id", String.join(",", clientIds));
        }
        if (problems.isEmpty()) {
            builder.up();
        } else {
            builder.down();
            // readiness opens with camel-kafka's words, so what matches on them keeps working; then the reasons
            builder.message((readiness ? "KafkaConsumer is not ready: " : "") + String.join("; ", problems));
        }
    }

    private static String livenessProblem(TaskState state, TaskSnapshot snap, long now, long maxPollInterval) {
        if (state == TaskState.TERMINATED) {
            return "terminated and no longer consumes";
        }
        if (!isPolling(state)) {
            // creating or subscribing the consumer, with retry and backoff: alive, not ready
            return null;
        }
        long since = Math.max(snap.lastPollTime(), snap.consumerCreatedTime());
        if (since > 0 && now - since > maxPollInterval) {
            return "is stuck: no poll for " + (now - since) + " ms (maxPollIntervalMs " + maxPollInterval + ")";
        }
        return null;
    }

    private static String readinessProblem(TaskState state, TaskSnapshot snap, long now, long unreachableAfter,
                                           long disconnectedGrace, String brokers) {
        if (!isPolling(state)) {
            return "has no working consumer (" + state + ")";
        }
        if (snap.deadLetterTrouble() != null) {
            return "cannot dead-letter: " + snap.deadLetterTrouble();
        }
        return reachabilityProblem(snap.consumerCreatedTime(), snap.connectionCount(), snap.lastBrokerResponseTime(),
                now, unreachableAfter, disconnectedGrace, brokers);
    }

    private static String reachabilityProblem(long createdTime, int connectionCount, long lastResponseTime, long now,
                                              long unreachableAfter, long disconnectedGrace, String brokers) {
        if (createdTime <= 0 || connectionCount < 0) {
            // reachability unknown (no client metrics): the state alone decides
            return null;
        }
        if (lastResponseTime < createdTime) {
            return "cannot reach the brokers at " + brokers + ": no response from any broker since its consumer was"
                   + " created " + (now - createdTime) + " ms ago (open connections: " + connectionCount + ")";
        }
        long silence = now - lastResponseTime;
        if (connectionCount == 0 && silence > disconnectedGrace) {
            return "cannot reach the brokers at " + brokers + ": no open connection and no response for " + silence
                   + " ms";
        }
        if (silence > unreachableAfter) {
            return "cannot reach the brokers at " + brokers + ": no response from any broker for " + silence
                   + " ms";
        }
        return null;
    }

    private static boolean isPolling(TaskState state) {
        return state == TaskState.RUNNING || state == TaskState.PAUSE_REQUESTED || state == TaskState.PAUSED
               || state == TaskState.RESUME_REQUESTED;
    }
}
