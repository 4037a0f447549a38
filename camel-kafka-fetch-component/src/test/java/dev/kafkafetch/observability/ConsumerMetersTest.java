package dev.kafkafetch.observability;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

import dev.kafkafetch.metrics.ConsumerMeters;
import dev.kafkafetch.metrics.MeterBinding;
import dev.kafkafetch.metrics.MeterSource;
import dev.kafkafetch.metrics.OptionalMeters;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.tx.TxSnapshot;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The consumer's meters read the tasks' published snapshots (nothing else), per-partition meters follow the
 * assignment, closing the binding removes every meter and stops the refresh thread, and the MeterRegistry is found in
 * the Camel registry as documented (by name, alone, or as the only composite; none when ambiguous).
 */
class ConsumerMetersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicReferenceArray<TaskSnapshot> published = new AtomicReferenceArray<>(2);
    private final CamelContext context = new DefaultCamelContext();

    @AfterEach
    void stop() {
        context.stop();
    }

    private MeterBinding bind(MeterRegistry meters, boolean perPartition) {
        context.getRegistry().bind("meters", meters);
        return bind(context, perPartition);
    }

    private MeterBinding bind(CamelContext camel, boolean perPartition) {
        return OptionalMeters.bind(camel, this,
                new MeterSource("ctx", "billing", "orders", "g1", 2, published::get, perPartition));
    }

    @Test
    void metersReadThePublishedSnapshots() {
        published.set(0, snapshot("recordsFinished", 10L, "recordsFailed", 3L, "recordsDeadLettered", 2L,
                "recordsStalled", 1L, "recordsRetried", 4L, "recordsRedelivered", 2L, "commits", 7L, "commitFailures",
                1L, "rebalances", 2L,
                "inFlight", 5, "held", 6, "commitCalls", 8L, "commitCallNanos", 8_000_000L,
                "partitions", List.of(partition("orders", 0, 12), partition("orders", 1, -1))));
        MeterBinding meters = bind(registry, false);

        assertThat(counter("records", "0", "outcome", "finished")).isEqualTo(10);
        assertThat(counter("records", "0", "outcome", "failed")).isEqualTo(3);
        assertThat(counter("records", "0", "outcome", "dead_lettered")).isEqualTo(2);
        assertThat(counter("records", "0", "outcome", "stalled")).isEqualTo(1);
        assertThat(counter("records", "0", "outcome", "retried")).as("retry letters and re-deliveries").isEqualTo(6);
        assertThat(counter("commits", "0", "result", "success")).isEqualTo(7);
        assertThat(counter("commits", "0", "result", "failure")).isEqualTo(1);
        assertThat(registry.get("kafka.fetch.rebalances").tag("task", "0").functionCounter().count()).isEqualTo(2);
        assertThat(gauge("lag", "0")).as("unknown lags are left out").isEqualTo(12);
        assertThat(gauge("in.flight", "0")).isEqualTo(5);
        assertThat(gauge("held", "0")).isEqualTo(6);
        assertThat(gauge("assigned.partitions", "0")).isEqualTo(2);
        FunctionTimer latency = registry.get("kafka.fetch.commit.latency").tag("task", "0").functionTimer();
        assertThat(latency.count()).isEqualTo(8);
        assertThat(latency.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(8);
        assertThat(registry.get("kafka.fetch.lag").tag("task", "0").gauge().getId().getTags())
                .extracting(t -> t.getKey() + "=" + t.getValue())
                .containsExactlyInAnyOrder("camelContext=ctx", "routeId=billing", "topic=orders", "groupId=g1",
                        "task=0");
        assertThat(gauge("lag", "1")).as("a task with nothing published yet").isNaN();

        // values follow the next snapshot, without registering anything again
        published.set(0, snapshot("recordsFinished", 11L, "partitions", List.of(partition("orders", 0, 0))));
        assertThat(counter("records", "0", "outcome", "finished")).isEqualTo(11);
        assertThat(gauge("lag", "0")).isZero();
        assertThat(registry.find("kafka.fetch.partition.lag").meters()).as("per partition only when asked").isEmpty();

        meters.close();
        assertThat(kafkaFetchMeters(registry)).isEmpty();
        meters.close(); // idempotent
    }

    @Test
    void transactedTasksHaveTransactionMetersReadFromTheirSnapshots() {
        AtomicReferenceArray<TxSnapshot> tx = new AtomicReferenceArray<>(2);
        tx.set(0, new TxSnapshot("tx-0", 5, 1, 900, 12, 150, 1L, "boom", false));
        context.getRegistry().bind("meters", registry);
        MeterBinding meters = OptionalMeters.bind(context, this,
                new MeterSource("ctx", "billing", "orders", "g1", 2, published::get, false, tx::get));

        assertThat(counter("transactions", "0", "result", "committed")).isEqualTo(5);
        assertThat(counter("transactions", "0", "result", "aborted")).isEqualTo(1);
        assertThat(registry.get("kafka.fetch.transaction.outputs").tag("task", "0").functionCounter().count())
                .isEqualTo(900);
        assertThat(gauge("transaction.outputs.waiting", "0")).isEqualTo(12);
        assertThat(gauge("transaction.waiting.age", "0")).isEqualTo(150);
        assertThat(gauge("transaction.waiting.age", "1")).as("nothing published yet").isNaN();
        meters.close();
        assertThat(kafkaFetchMeters(registry)).isEmpty();
        MeterBinding plain = OptionalMeters.bind(context, this,
                new MeterSource("ctx", "plain", "orders", "g1", 1, published::get, false));
        assertThat(registry.find("kafka.fetch.transactions").meters()).as("none unless transacted").isEmpty();
        assertThat(registry.find("kafka.fetch.in.flight").meters()).hasSize(1);
        plain.close();
    }

    @Test
    void partitionMetersFollowTheAssignmentAndCloseRemovesThem() {
        published.set(0, snapshot("partitions", List.of(partition("orders", 0, 4), partition("orders", 1, 0))));
        published.set(1, snapshot("partitions", List.of(partition("orders", 2, 9))));
        context.start();
        MeterBinding meters = bind(registry, true);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(partitionLags())
                .containsOnly(Map.entry("0/0", 4.0), Map.entry("0/1", 0.0), Map.entry("1/2", 9.0)));
        Gauge p2 = registry.get("kafka.fetch.partition.lag").tag("partition", "2").gauge();
        assertThat(p2.getId().getTag("topic")).isEqualTo("orders");

        // a rebalance: partition 1 moves to task 1, partition 2 goes to another member
        published.set(0, snapshot("partitions", List.of(partition("orders", 0, 3))));
        published.set(1, snapshot("partitions", List.of(partition("orders", 1, 1))));
        assertThat(p2.value()).as("a revoked partition reads NaN until the refresh removes it").isNaN();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(partitionLags())
                .containsOnly(Map.entry("0/0", 3.0), Map.entry("1/1", 1.0)));

        meters.close();
        assertThat(kafkaFetchMeters(registry)).isEmpty();
        await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().contains("KafkaFetchMetrics")));
        assertThat(kafkaFetchMeters(registry)).isEmpty();
    }

    @Test
    void aMeterTheRegistryRefusesLeavesNoMeterBehindAndTheRouteRunsWithout() {
        registry.counter("kafka.fetch.running", "camelContext", "ctx", "routeId", "billing", "topic", "orders",
                "groupId", "g1", "task", "1"); // someone else's counter under a gauge's name and tags
        assertThat(bind(registry, true)).isSameAs(MeterBinding.NONE);
        assertThat(kafkaFetchMeters(registry)).extracting(m -> m.getId().getName())
                .containsExactly("kafka.fetch.running");
    }

    @Test
    void theRegistryIsFoundByNameThenAloneThenAsTheOnlyComposite() {
        assertThat(bind(context, false)).as("no registry").isSameAs(MeterBinding.NONE);

        SimpleMeterRegistry only = new SimpleMeterRegistry();
        context.getRegistry().bind("only", only);
        MeterBinding alone = bind(context, false);
        assertThat(kafkaFetchMeters(only)).isNotEmpty();
        alone.close();

        SimpleMeterRegistry other = new SimpleMeterRegistry();
        context.getRegistry().bind("other", other);
        assertThat(bind(context, false)).as("ambiguous: no meters rather than a guess").isSameAs(MeterBinding.NONE);
        assertThat(kafkaFetchMeters(only)).isEmpty();
        assertThat(kafkaFetchMeters(other)).isEmpty();

        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        context.getRegistry().bind("composite", composite);
        MeterBinding viaComposite = bind(context, false);
        assertThat(kafkaFetchMeters(composite)).isNotEmpty();
        assertThat(kafkaFetchMeters(only)).isEmpty();
        viaComposite.close();

        SimpleMeterRegistry named = new SimpleMeterRegistry();
        context.getRegistry().bind(ConsumerMeters.REGISTRY_NAME, named);
        MeterBinding byName = bind(context, false);
        assertThat(kafkaFetchMeters(named)).isNotEmpty();
        assertThat(kafkaFetchMeters(composite)).isEmpty();
        byName.close();
    }

    private double counter(String name, String task, String tag, String value) {
        FunctionCounter c = registry.get("kafka.fetch." + name).tag("task", task).tag(tag, value).functionCounter();
        return c.count();
    }

    private double gauge(String name, String task) {
        return registry.get("kafka.fetch." + name).tag("task", task).gauge().value();
    }

    private Map<String, Double> partitionLags() {
        Map<String, Double> lags = new HashMap<>();
        for (Gauge g : registry.find("kafka.fetch.partition.lag").gauges()) {
            lags.put(g.getId().getTag("task") + "/" + g.getId().getTag("partition"), g.value());
        }
        assertThat(registry.find("kafka.fetch.partition.in.flight").gauges()).hasSize(lags.size());
        assertThat(registry.find("kafka.fetch.partition.held").gauges()).hasSize(lags.size());
        return lags;
    }

    private static List<Meter> kafkaFetchMeters(MeterRegistry registry) {
        return registry.getMeters().stream().filter(m -> m.getId().getName().startsWith("kafka.fetch.")).toList();
    }

    private static PartitionSnapshot partition(String topic, int partition, long lag) {
        return new PartitionSnapshot(topic, partition, 0, -1, 0, -1, lag, 1, 1, null, 0);
    }

    /**
     * A snapshot with the given components (name, value, name, value...) and neutral values for the others, built by
     * component name, so it keeps compiling when components are added.
     */
    static TaskSnapshot snapshot(Object... namesAndValues) {
        Map<String, Object> values = new HashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            values.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        RecordComponent[] components = TaskSnapshot.class.getRecordComponents();
        Object[] args = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent c = components[i];
            Object v = values.get(c.getName());
            Class<?> type = c.getType();
            if (v == null) {
                v = type == List.class ? List.of() : c.getName().equals("state") ? "RUNNING" : null;
            }
            if (type == long.class) {
                args[i] = v == null ? 0L : ((Number) v).longValue();
            } else if (type == int.class) {
                args[i] = v == null ? 0 : ((Number) v).intValue();
            } else if (type == double.class) {
                args[i] = v == null ? 0.0 : ((Number) v).doubleValue();
            } else {
                args[i] = v;
            }
        }
        try {
            Constructor<TaskSnapshot> canonical = TaskSnapshot.class.getDeclaredConstructor(
                    Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            return canonical.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
