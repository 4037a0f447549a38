package dev.kafkafetch.metrics;

import java.util.Map;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Whether a consumer reaches its brokers, read without blocking from two of the client's own metrics (group
 * {@code consumer-metrics}): {@code connection-count} (connections open or being opened) and {@code response-total}
 * (responses received from any broker). A growing response count proves the brokers answer. No reflection into
 * client internals. One instance per KafkaConsumer: its fetch thread looks the metrics up ({@link #update}); health
 * checks may {@link #refresh} from any thread, reading only the metric objects (thread-safe in Kafka), never the
 * consumer, so readiness does not wait for the next poll.
 */
public final class ClientReachability {

    private final long createdTime = System.currentTimeMillis();
    private volatile Metric connectionCountMetric;
    private volatile Metric responseTotalMetric;
    private long nextLookupMs;
    private double lastResponseTotal;
    private int connectionCount = -1;
    private long lastResponseTime;

    /** Reads the metrics (looking them up at most once a second until the client has registered them). */
    public synchronized void update(Map<MetricName, ? extends Metric> metrics, long nowMs) {
        if ((connectionCountMetric == null || responseTotalMetric == null) && nowMs >= nextLookupMs) {
            nextLookupMs = nowMs + 1000;
            for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
                MetricName name = e.getKey();
                if ("consumer-metrics".equals(name.group())) {
                    if ("connection-count".equals(name.name())) {
                        connectionCountMetric = e.getValue();
                    } else if ("response-total".equals(name.name())) {
                        responseTotalMetric = e.getValue();
                    }
                }
            }
        }
        read(nowMs);
    }

    /** Reads the metrics found so far, from any thread (the health checks), without touching the consumer. */
    public synchronized void refresh(long nowMs) {
        read(nowMs);
    }

    private void read(long nowMs) {
        double connections = valueOf(connectionCountMetric);
        connectionCount = Double.isNaN(connections) ? -1 : (int) connections;
        double responses = valueOf(responseTotalMetric);
        if (!Double.isNaN(responses) && responses > lastResponseTotal) {
            lastResponseTotal = responses;
            lastResponseTime = nowMs;
        }
    }

    /** Open (or opening) connections, or -1 when unknown. */
    public synchronized int connectionCount() {
        return connectionCount;
    }

    /** When a broker last answered, or 0 when none has yet. */
    public synchronized long lastResponseTime() {
        return lastResponseTime;
    }

    /** When the consumer these metrics belong to was created. */
    public long createdTime() {
        return createdTime;
    }

    private static double valueOf(Metric metric) {
        if (metric == null) {
            return Double.NaN;
        }
        try {
            Object v = metric.metricValue();
            return v instanceof Number n ? n.doubleValue() : Double.NaN;
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }
}
