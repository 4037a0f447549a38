package dev.kafkafetch.examples;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.metrics.TaskSnapshot;
import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs, once per second, what every kafka-fetch route consumed in that second, from the fetch tasks' own snapshots
 * ({@link KafkaFetchConsumer#taskSnapshots()}), never one line per record. Quiet while nothing happens.
 */
public final class ConsumptionReporter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumptionReporter.class);

    /** Totals of one kafka-fetch route, summed over its fetch tasks. */
    public record RouteTotals(String routeId, String subscription, long finished, long failed, long retried,
            long deadLettered, int inFlight, long lag) {
    }

    private final CamelContext context;
    private final LongSupplier produced;
    private final Map<String, Long> lastFinished = new LinkedHashMap<>();
    private long lastProduced;
    private ScheduledExecutorService timer;

    /** @param produced how many sample records were produced so far (for the log line), or null */
    public ConsumptionReporter(CamelContext context, LongSupplier produced) {
        this.context = context;
        this.produced = produced;
    }

    public synchronized void start(long periodMillis) {
        if (timer != null) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kafka-fetch-example-reporter");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::reportSafely, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    /** The totals of every running kafka-fetch route, in route order. */
    public List<RouteTotals> totals() {
        List<RouteTotals> result = new ArrayList<>();
        for (Route route : context.getRoutes()) {
            if (route.getConsumer() instanceof KafkaFetchConsumer consumer) {
                result.add(totals(route.getRouteId(), consumer.taskSnapshots()));
            }
        }
        return result;
    }

    /** Records finished so far by the kafka-fetch route {@code routeId} (0 when it has no running consumer). */
    public long finished(String routeId) {
        return totals().stream().filter(t -> t.routeId().equals(routeId)).mapToLong(RouteTotals::finished).sum();
    }

    /** Writes one line if anything happened since the last one. */
    public synchronized void report() {
        List<RouteTotals> all = totals();
        long producedNow = produced == null ? 0 : produced.getAsLong();
        boolean busy = producedNow != lastProduced;
        StringBuilder line = new StringBuilder();
        if (produced != null) {
            line.append("produced ").append(producedNow - lastProduced).append("/s");
        }
        for (RouteTotals t : all) {
            long delta = t.finished() - lastFinished.getOrDefault(t.routeId(), 0L);
            busy |= delta != 0 || t.inFlight() > 0;
            lastFinished.put(t.routeId(), t.finished());
            if (line.length() > 0) {
                line.append(" | ");
            }
            line.append(t.routeId()).append(" [").append(t.subscription()).append("]: ")
                    .append(delta).append(" rec/s, ").append(t.finished()).append(" finished");
            if (t.retried() > 0 || t.deadLettered() > 0) {
                line.append(" (").append(t.retried()).append(" sent to retry topics, ").append(t.deadLettered())
                        .append(" dead-lettered)");
            }
            line.append(", in flight ").append(t.inFlight());
            if (t.lag() >= 0) {
                line.append(", lag ").append(t.lag());
            }
        }
        lastProduced = producedNow;
        if (busy) {
            LOG.info("{}", line);
        }
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    private void reportSafely() {
        try {
            report();
        } catch (RuntimeException e) {
            LOG.debug("Report failed", e);
        }
    }

    static RouteTotals totals(String routeId, List<TaskSnapshot> tasks) {
        long finished = 0;
        long failed = 0;
        long retried = 0;
        long deadLettered = 0;
        int inFlight = 0;
        long lag = -1;
        String subscription = "";
        for (TaskSnapshot s : tasks) {
            subscription = s.subscription();
            finished += s.recordsFinished();
            failed += s.recordsFailed();
            retried += s.recordsRetried();
            deadLettered += s.recordsDeadLettered();
            inFlight += s.inFlight();
            for (PartitionSnapshot p : s.partitions()) {
                if (p.lag() >= 0) {
                    lag = Math.max(lag, 0) + p.lag();
                }
            }
        }
        return new RouteTotals(routeId, subscription, finished, failed, retried, deadLettered, inFlight, lag);
    }
}
