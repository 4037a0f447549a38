package dev.kafkafetch.health;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.metrics.OldestUnfinished;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.task.TaskState;
import org.apache.camel.health.HealthCheck;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Readiness and liveness from published task snapshots alone (no consumer, no broker): which task states are ready or
 * alive, when silence from the brokers turns readiness DOWN (and when a short one does not, so a rebalance does not
 * flap it), that dead-letter trouble is not ready, that a task with no poll for longer than maxPollIntervalMs is not
 * alive, that an ALL check answers the kind asked for, and that the message opens with camel-kafka's words.
 */
class KafkaFetchConsumerHealthCheckTest {

    private static final HealthSettings SETTINGS = new HealthSettings("orders", "billing", "host:9092", 100, 10_000,
            1_000, 60_000);

    private final List<TaskSnapshot> tasks = new ArrayList<>();

    private HealthCheck.Result call(HealthCheck.Kind kind) {
        return call(kind, Map.of());
    }

    private HealthCheck.Result call(HealthCheck.Kind kind, Map<String, Object> options) {
        return new KafkaFetchConsumerHealthCheck("route-1", kind, SETTINGS, () -> List.copyOf(tasks)).call(options);
    }

    /** A running task that polled and heard from a broker just now over one open connection. */
    private static Map<String, Object> healthy(long now) {
        Map<String, Object> m = new HashMap<>();
        m.put("state", TaskState.RUNNING.name());
        m.put("clientId", "client-0");
        m.put("consumerCreatedTime", now - 5_000);
        m.put("lastPollTime", now);
        m.put("lastBrokerResponseTime", now);
        m.put("connectionCount", 1);
        return m;
    }

    private void task(Map<String, Object> fields) {
        tasks.add(with(TaskSnapshot.initial("fetch-0", "CONNECTING", "orders", "billing", 1000, 4), fields));
    }

    @Test
    void aConsumerWithoutTasksIsNeitherReadyNorAlive() {
        HealthCheck.Result ready = call(HealthCheck.Kind.READINESS);
        assertThat(ready.getState()).isEqualTo(HealthCheck.State.DOWN);
        assertThat(ready.getMessage()).hasValueSatisfying(m -> assertThat(m).contains("no fetch task is running"));
        assertThat(call(HealthCheck.Kind.LIVENESS).getState()).isEqualTo(HealthCheck.State.DOWN);
    }

    @Test
    void aRunningTaskThatHearsFromTheBrokersIsReadyAndAliveWithItsDetails() {
        task(healthy(System.currentTimeMillis()));

        HealthCheck.Result result = call(HealthCheck.Kind.READINESS);

        assertThat(result.getState()).isEqualTo(HealthCheck.State.UP);
        assertThat(result.getDetails()).containsEntry("route.id", "route-1").containsEntry("topic", "orders")
                .containsEntry("group.id", "billing").containsEntry("bootstrap.servers", "host:9092")
                .containsEntry("task.0.state", "RUNNING").containsEntry("client.id", "client-0");
        assertThat(call(HealthCheck.Kind.LIVENESS).getState()).isEqualTo(HealthCheck.State.UP);
    }

    @Test
    void theDetailsNameTheRecordATaskIsStuckOnWithoutItsKey() {
        Map<String, Object> stuck = healthy(System.currentTimeMillis());
        stuck.put("partitions", List.of(
                new PartitionSnapshot("orders", 0, 12, 10, 10, 20, 8, 1, 2, null, 0,
                        new OldestUnfinished(10, "secret-key", 2, "running", 1_500, 1_400, "w-1", "WAITING", 0, null)),
                new PartitionSnapshot("orders", 1, 40, 33, 33, 40, 0, 1, 7, null, 0,
                        new OldestUnfinished(33, "k", 1, "queued", 90_000, 0, null, null, 5,
                                new OldestUnfinished.LaneHead(33, 1, "running", 95_000, "w-2", "TIMED_WAITING"))),
                new PartitionSnapshot("orders", 2, 5, 5, 5, 5, 0, 0, 0, null, 0, null)));
        task(stuck);

        HealthCheck.Result result = call(HealthCheck.Kind.READINESS);

        assertThat(result.getState()).as("details only").isEqualTo(HealthCheck.State.UP);
        assertThat(result.getDetails()).containsEntry("task.0.stuck.record", "orders-1@33")
                .containsEntry("task.0.stuck.age.ms", 90_000L).containsEntry("task.0.stuck.state", "queued")
                .containsEntry("task.0.stuck.attempt", 1).containsEntry("task.0.stuck.waiting.behind", 5)
                .as("it waits behind its execution from before a rebalance")
                .containsEntry("task.0.stuck.behind.offset", 33L).containsEntry("task.0.stuck.behind.state", "running")
                .containsEntry("task.0.stuck.behind.running.ms", 95_000L);
        assertThat(result.getDetails().values()).as("the key stays in the console").doesNotContain("k", "secret-key");
    }

    @Test
    void aTaskWithNothingUnfinishedHasNoStuckDetails() {
        task(healthy(System.currentTimeMillis()));

        assertThat(call(HealthCheck.Kind.READINESS).getDetails().keySet()).noneMatch(k -> k.contains("stuck"));
    }

    @Test
    void aTaskConnectingIsAliveButNotReady() {
        Map<String, Object> connecting = healthy(System.currentTimeMillis());
        connecting.put("state", TaskState.CONNECTING.name());
        task(connecting);

        HealthCheck.Result ready = call(HealthCheck.Kind.READINESS);

        assertThat(ready.getState()).isEqualTo(HealthCheck.State.DOWN);
        assertThat(ready.getMessage()).hasValueSatisfying(m -> assertThat(m)
                .startsWith("KafkaConsumer is not ready: ").contains("fetch-0 has no working consumer (CONNECTING)"));
        assertThat(call(HealthCheck.Kind.LIVENESS).getState()).isEqualTo(HealthCheck.State.UP);
    }

    @Test
    void aTerminatedTaskIsNotAlive() {
        Map<String, Object> terminated = healthy(System.currentTimeMillis());
        terminated.put("state", TaskState.TERMINATED.name());
        terminated.put("lastError", "authorization failed");
        task(terminated);

        HealthCheck.Result alive = call(HealthCheck.Kind.LIVENESS);

        assertThat(alive.getState()).isEqualTo(HealthCheck.State.DOWN);
        assertThat(alive.getMessage()).hasValueSatisfying(m -> assertThat(m).contains("terminated"));
        assertThat(alive.getDetails()).containsEntry("task.0.last.error", "authorization failed");
    }

    @Test
    void aTaskWithNoPollForLongerThanMaxPollIntervalIsStuck() {
        long now = System.currentTimeMillis();
        Map<String, Object> stuck = healthy(now);
        stuck.put("consumerCreatedTime", now - 200_000);
        stuck.put("lastPollTime", now - 120_000);
        task(stuck);

        HealthCheck.Result alive = call(HealthCheck.Kind.LIVENESS);

        assertThat(alive.getState()).isEqualTo(HealthCheck.State.DOWN);
        assertThat(alive.getMessage()).hasValueSatisfying(m -> assertThat(m).contains("is stuck")
                .contains("maxPollIntervalMs 60000"));
    }

    @Test
    void noResponseSinceTheConsumerWasCreatedIsNotReady() {
        long now = System.currentTimeMillis();
        Map<String, Object> silent = healthy(now);
        silent.put("lastBrokerResponseTime", 0L);
        task(silent);

        HealthCheck.Result ready = call(HealthCheck.Kind.READINESS);

        assertThat(ready.getState()).isEqualTo(HealthCheck.State.DOWN);
        assertThat(ready.getMessage()).hasValueSatisfying(m -> assertThat(m)
                .contains("cannot reach the brokers at host:9092").contains("no response from any broker since"));
    }

    @Test
    void noConnectionIsReadyDuringTheGraceAndNotReadyAfterIt() {
        long now = System.currentTimeMillis();
        Map<String, Object> brief = healthy(now);
        brief.put("connectionCount", 0);
        brief.put("lastBrokerResponseTime", now - 500); // a rebalance or a reconnect: no flapping
        task(brief);
        assertThat(call(HealthCheck.Kind.READINESS).getState()).isEqualTo(HealthCheck.State.UP);

        tasks.clear();
        Map<String, Object> gone = healthy(now);
        gone.put("connectionCount", 0);
        gone.put("consumerCreatedTime", now - 60_000);
        gone.put("lastBrokerResponseTime", now - 6_000); // grace: max(3000, 2 x heartbeat) + pollTimeout
        task(gone);
        HealthCheck.Result ready = call(HealthCheck.Kind.READINESS);
        assertThat(ready.getState()).isEqualTo(HealthCheck.State.DOWN);
        assertThat(ready.getMessage()).hasValueSatisfying(m -> assertThat(m).contains("no open connection"));
    }

    @Test
    void silenceLongerThanTheSessionTimeoutIsNotReadyEvenWithOpenConnections() {
        long now = System.currentTimeMillis();
        Map<String, Object> blackHoled = healthy(now);
        blackHoled.put("lastBrokerResponseTime", now - 11_000); // sessionTimeoutMs 10000 + pollTimeoutMs 100
        task(blackHoled);

        HealthCheck.Result ready = call(HealthCheck.Kind.READINESS);

        assertThat(ready.getState()).isEqualTo(HealthCheck.State.DOWN);
        assertThat(ready.getMessage()).hasValueSatisfying(m -> assertThat(m).contains("no response from any broker"));
    }

    @Test
    void deadLettersTheBrokerRejectsAreNotReadyButAlive() {
        Map<String, Object> troubled = healthy(System.currentTimeMillis());
        troubled.put("deadLetterTrouble", "topic dlt does not exist");
        task(troubled);

        HealthCheck.Result ready = call(HealthCheck.Kind.READINESS);

        assertThat(ready.getState()).isEqualTo(HealthCheck.State.DOWN);
        assertThat(ready.getMessage())
                .hasValueSatisfying(m -> assertThat(m).contains("cannot dead-letter: topic dlt does not exist"));
        assertThat(call(HealthCheck.Kind.LIVENESS).getState()).isEqualTo(HealthCheck.State.UP);
    }

    @Test
    void anAllCheckAnswersTheKindItIsAskedFor() {
        Map<String, Object> connecting = healthy(System.currentTimeMillis());
        connecting.put("state", TaskState.SUBSCRIBING.name());
        task(connecting);

        assertThat(call(HealthCheck.Kind.ALL, Map.of(HealthCheck.CHECK_KIND, HealthCheck.Kind.LIVENESS)).getState())
                .isEqualTo(HealthCheck.State.UP);
        assertThat(call(HealthCheck.Kind.ALL, Map.of(HealthCheck.CHECK_KIND, HealthCheck.Kind.READINESS)).getState())
                .isEqualTo(HealthCheck.State.DOWN);
        assertThat(call(HealthCheck.Kind.ALL).getState()).as("both when not asked").isEqualTo(HealthCheck.State.DOWN);
    }

    @Test
    void theKindDecidesWhatTheRegistrySeesTheCheckAs() {
        KafkaFetchConsumerHealthCheck readiness = new KafkaFetchConsumerHealthCheck("r", HealthCheck.Kind.READINESS,
                SETTINGS, List::of);
        KafkaFetchConsumerHealthCheck liveness = new KafkaFetchConsumerHealthCheck("r", HealthCheck.Kind.LIVENESS,
                SETTINGS, List::of);
        assertThat(readiness.isReadiness()).isTrue();
        assertThat(readiness.isLiveness()).isFalse();
        assertThat(liveness.isReadiness()).isFalse();
        assertThat(liveness.isLiveness()).isTrue();
        assertThat(readiness.getId()).isEqualTo("consumer:kafka-fetch-r");
    }

    /** A copy of the snapshot with the named components replaced (so the test names what it sets). */
    private static TaskSnapshot with(TaskSnapshot base, Map<String, Object> fields) {
        RecordComponent[] components = TaskSnapshot.class.getRecordComponents();
        Object[] values = new Object[components.length];
        Map<String, Object> left = new HashMap<>(fields);
        try {
            for (int i = 0; i < components.length; i++) {
                String name = components[i].getName();
                values[i] = left.containsKey(name) ? left.remove(name) : components[i].getAccessor().invoke(base);
            }
            assertThat(left).as("unknown snapshot fields").isEmpty();
            Constructor<TaskSnapshot> canonical = TaskSnapshot.class.getDeclaredConstructor(
                    Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            return canonical.newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
