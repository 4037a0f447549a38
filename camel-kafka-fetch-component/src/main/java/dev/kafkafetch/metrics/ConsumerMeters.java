package dev.kafkafetch.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import dev.kafkafetch.tx.TxSnapshot;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.spi.ExecutorServiceManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Micrometer meters of one kafka-fetch consumer (one route), per fetch task (tags {@code camelContext},
 * {@code routeId}, {@code topic}, {@code groupId}, {@code task}):
 * <ul>
 * <li>gauges {@code kafka.fetch.lag}, {@code kafka.fetch.in.flight}, {@code kafka.fetch.held},
 * {@code kafka.fetch.running} (records) and {@code kafka.fetch.assigned.partitions};</li>
 * <li>counters {@code kafka.fetch.records} (tag {@code outcome}: finished, failed, dead_lettered, stalled, retried),
 * {@code kafka.fetch.commits} (tag {@code result}: success, failure), {@code kafka.fetch.rebalances},
 * {@code kafka.fetch.reconnects}, {@code kafka.fetch.back.pressure.pauses};</li>
 * <li>timer {@code kafka.fetch.commit.latency} (every commitSync call);</li>
 * <li>with {@code metricsPerPartition}, per assigned partition, see {@link PartitionMeters}.</li>
 * </ul>
 * Guarantees: every value is read from the tasks' published snapshots when the registry asks for it, never from a
 * KafkaConsumer and never on a fetch thread; {@link #close()} removes every meter registered here (the consumer calls
 * it when its route stops), so a stopped or removed route leaves no stale series; a registry that refuses a meter
 * never stops the route. Only {@link OptionalMeters} reaches this class, after checking that Micrometer is on the
 * class path.
 */
public final class ConsumerMeters implements MeterBinding {

    /** The name under which a MeterRegistry is preferred when the Camel registry holds several (as camel-micrometer). */
    public static final String REGISTRY_NAME = "metricsRegistry";

    static final String PREFIX = "kafka.fetch.";
    static final long PARTITION_REFRESH_MS = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerMeters.class);

    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    /** Micrometer keeps only weak references to what its function meters read: these keep the views alive. */
    private final List<TaskView> views = new ArrayList<>();
    private final List<TxView> txViews = new ArrayList<>();
    private final PartitionMeters partitions;
    private volatile Runnable stopRefresh = () -> {
    };
    private boolean closed;

    /** One fetch task as its meters see it. */
    private record TaskView(MeterSource source, int index) {
        TaskSnapshot snapshot() {
            return source.snapshots().apply(index);
        }
    }

    private ConsumerMeters(MeterRegistry registry, MeterSource source) {
        this.registry = registry;
        this.partitions = source.perPartition() ? new PartitionMeters(registry, source) : null;
    }

    /**
     * Registers the consumer's meters in the Camel registry's MeterRegistry, if there is one. Meters never stop a
     * route: when the registry refuses one (say, a meter of another type under the same name and tags), whatever was
     * registered is removed again, a WARN says why, and the route runs without meters.
     */
    static MeterBinding bind(CamelContext context, Object owner, MeterSource source) {
        MeterRegistry registry = lookup(context);
        if (registry == null) {
            return NONE;
        }
        ConsumerMeters binding = new ConsumerMeters(registry, source);
        try {
            for (int i = 0; i < source.tasks(); i++) {
                TaskView view = new TaskView(source, i);
                binding.views.add(view);
                binding.registerTask(view, commonTags(source).and("task", String.valueOf(i)));
                if (source.transactions() != null) {
                    binding.registerTransactions(source.transactions(), i,
                            commonTags(source).and("task", String.valueOf(i)));
                }
            }
            if (binding.partitions != null) {
                ExecutorServiceManager esm = context.getExecutorServiceManager();
                ScheduledExecutorService refresher = esm.newSingleThreadScheduledExecutor(owner,
                        "KafkaFetchMetrics[" + source.subscription() + "]");
                binding.stopRefresh = () -> esm.shutdownNow(refresher);
                refresher.scheduleWithFixedDelay(binding::refreshPartitions, 0, PARTITION_REFRESH_MS,
                        TimeUnit.MILLISECONDS);
            }
        } catch (RuntimeException e) {
            binding.close();
            LOG.warn("Route {} runs without its kafka.fetch meters: {} refused them ({})", source.routeId(), registry,
                    e.toString());
            return NONE;
        }
        LOG.debug("Registered {} meters of route {} in {}", binding.meters.size(), source.routeId(), registry);
        return binding;
    }

    /**
     * The MeterRegistry to use: the one named {@value #REGISTRY_NAME}, else the only one, else the only composite
     * among several (Spring Boot's); null when there is none or the choice is ambiguous (logged).
     */
    static MeterRegistry lookup(CamelContext context) {
        MeterRegistry named = context.getRegistry().lookupByNameAndType(REGISTRY_NAME, MeterRegistry.class);
        if (named != null) {
            return named;
        }
        Set<MeterRegistry> all = context.getRegistry().findByType(MeterRegistry.class);
        if (all.size() <= 1) {
            return all.isEmpty() ? null : all.iterator().next();
        }
        List<MeterRegistry> composites = all.stream().filter(CompositeMeterRegistry.class::isInstance).toList();
        if (composites.size() == 1) {
            return composites.get(0);
        }
        LOG.warn("The Camel registry holds {} MeterRegistry beans and none is named {}: kafka-fetch registers no"
                 + " meters. Bind the one to use under the name {}.",
                all.size(), REGISTRY_NAME, REGISTRY_NAME);
        return null;
    }

    static Tags commonTags(MeterSource source) {
        return Tags.of("camelContext", Objects.toString(source.camelContext(), ""),
                "routeId", Objects.toString(source.routeId(), ""),
                "topic", Objects.toString(source.subscription(), ""),
                "groupId", Objects.toString(source.groupId(), ""));
    }

    private void registerTask(TaskView task, Tags tags) {
        gauge("lag", "records", "Records between the fetch position and the log end, over the task's partitions",
                task, tags, s -> s.totalLag() < 0 ? Double.NaN : s.totalLag());
        gauge("in.flight", "records", "Records polled and not finished yet", task, tags, TaskSnapshot::inFlight);
        gauge("held", "records", "Records held since the committable offsets, finished or not (at most"
                                 + " maxInFlightRecords)",
                task, tags, TaskSnapshot::held);
        gauge("running", "records", "Records inside the route now", task, tags, TaskSnapshot::running);
        gauge("assigned.partitions", "partitions", "Partitions assigned to the task", task, tags,
                s -> s.partitions().size());

        String records = "Records by outcome: finished (all, failed ones included), failed (finished failed),"
                         + " dead_lettered, stalled, retried (to be delivered again: a breakOnFirstError or"
                         + " Pausable EIP re-delivery, or a letter to a retry topic)";
        counter("records", "records", records, task, tags.and("outcome", "finished"), TaskSnapshot::recordsFinished);
        counter("records", "records", records, task, tags.and("outcome", "failed"), TaskSnapshot::recordsFailed);
        counter("records", "records", records, task, tags.and("outcome", "dead_lettered"),
                TaskSnapshot::recordsDeadLettered);
        counter("records", "records", records, task, tags.and("outcome", "stalled"), TaskSnapshot::recordsStalled);
        counter("records", "records", records, task, tags.and("outcome", "retried"),
                s -> s.recordsRetried() + s.recordsRedelivered());
        counter("commits", null, "Offset commits by result", task, tags.and("result", "success"),
                TaskSnapshot::commits);
        counter("commits", null, "Offset commits by result", task, tags.and("result", "failure"),
                TaskSnapshot::commitFailures);
        counter("rebalances", null, "Partition assignments, revocations and losses seen by the task", task, tags,
                TaskSnapshot::rebalances);
        counter("reconnects", null, "Times the task closed its KafkaConsumer to create it again", task, tags,
                TaskSnapshot::reconnects);
        counter("back.pressure.pauses", null, "Times the task paused its partitions because its window was full", task,
                tags, TaskSnapshot::backPressurePauses);

        meters.add(FunctionTimer.builder(PREFIX + "commit.latency", task,
                t -> orZero(t.snapshot(), TaskSnapshot::commitCalls),
                t -> orZero(t.snapshot(), TaskSnapshot::commitCallNanos), TimeUnit.NANOSECONDS)
                .description("Time of the task's commitSync calls, successful or failed")
                .tags(tags).register(registry));
    }

    /**
     * transacted: {@code kafka.fetch.transactions} (tag {@code result}: committed, aborted),
     * {@code kafka.fetch.transaction.outputs} (committed output records), gauges
     * {@code kafka.fetch.transaction.outputs.waiting} and {@code kafka.fetch.transaction.waiting.age} (ms the oldest
     * waiting output has waited: the open age of the next transaction's content).
     */
    private void registerTransactions(IntFunction<TxSnapshot> source, int index, Tags tags) {
        TxView tx = new TxView(source, index);
        txViews.add(tx);
        String txs = "Transactions of the task's producer by result (an aborted one's records are read again)";
        txCounter("transactions", txs, tx, tags.and("result", "committed"), TxSnapshot::committed);
        txCounter("transactions", txs, tx, tags.and("result", "aborted"), TxSnapshot::aborted);
        txCounter("transaction.outputs", "Output records committed in the task's transactions", tx, tags,
                TxSnapshot::outputsSent);
        meters.add(Gauge.builder(PREFIX + "transaction.outputs.waiting", tx, t -> {
            TxSnapshot s = t.snapshot();
            return s == null ? Double.NaN : s.outputsWaiting();
        }).description("Output records of finished records waiting for the next transaction").baseUnit("records")
                .tags(tags).register(registry));
        meters.add(Gauge.builder(PREFIX + "transaction.waiting.age", tx, t -> {
            TxSnapshot s = t.snapshot();
            return s == null ? Double.NaN : s.oldestWaitingMs();
        }).description("How long the oldest output waiting for the next transaction has waited")
                .baseUnit("milliseconds").tags(tags).register(registry));
    }

    private record TxView(IntFunction<TxSnapshot> source, int index) {
        TxSnapshot snapshot() {
            return source.apply(index);
        }
    }

    private void txCounter(String name, String description, TxView tx, Tags tags, ToLongFunction<TxSnapshot> value) {
        meters.add(FunctionCounter.builder(PREFIX + name, tx, t -> {
            TxSnapshot s = t.snapshot();
            return s == null ? 0 : value.applyAsLong(s);
        }).description(description).tags(tags).register(registry));
    }

    private void gauge(String name, String unit, String description, TaskView task, Tags tags,
                       ToDoubleFunction<TaskSnapshot> value) {
        meters.add(Gauge.builder(PREFIX + name, task, t -> {
            TaskSnapshot s = t.snapshot();
            return s == null ? Double.NaN : value.applyAsDouble(s);
        }).description(description).baseUnit(unit).tags(tags).register(registry));
    }

    private void counter(String name, String unit, String description, TaskView task, Tags tags,
                         ToLongFunction<TaskSnapshot> value) {
        meters.add(FunctionCounter.builder(PREFIX + name, task, t -> orZero(t.snapshot(), value))
                .description(description).baseUnit(unit).tags(tags).register(registry));
    }

    private static long orZero(TaskSnapshot s, ToLongFunction<TaskSnapshot> value) {
        return s == null ? 0 : value.applyAsLong(s);
    }

    /** Brings the per-partition meters in line with the tasks' assignments (the refresh thread calls it). */
    void refreshPartitions() {
        try {
            synchronized (this) {
                if (!closed) {
                    partitions.refresh();
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("Could not refresh the per-partition meters: {}", e.toString());
        }
    }

    @Override
    public void close() {
        stopRefresh.run();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (partitions != null) {
                partitions.close();
            }
            meters.forEach(registry::remove);
            meters.clear();
        }
    }
}
