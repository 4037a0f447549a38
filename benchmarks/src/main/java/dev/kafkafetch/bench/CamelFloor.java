package dev.kafkafetch.bench;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.sun.management.ThreadMXBean;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.processor.ExchangeBuilder;
import dev.kafkafetch.processor.RouteItemProcessor;
import dev.kafkafetch.serde.DefaultKafkaHeaderDeserializer;
import dev.kafkafetch.serde.KafkaFetchHeaderFilterStrategy;
import dev.kafkafetch.window.PartitionState;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.impl.engine.PooledExchangeFactory;
import org.apache.camel.impl.engine.PooledProcessorExchangeFactory;
import org.apache.camel.support.DefaultConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Scenario 8, Camel's own floor (no Kafka at all): one thread creates an exchange from a route's consumer, sets a
 * 100-byte body (and camel-kafka's headers), runs the route's processor (a trivial one, like the other scenarios) and
 * releases the exchange, as camel-kafka's streaming processor does per record. Variants: camel-kafka's 9 headers set
 * eagerly, no headers, the 9 headers with Camel's pooled exchange factory ({@code camel.main.exchangeFactory=pooled}),
 * and kafka-fetch's own per-record path (a {@link WorkItem} through {@link RouteItemProcessor} and
 * {@link ExchangeBuilder}, headers populated when first read), with both factories. Records/s, CPU and allocation per
 * record of the measuring thread; the floor under any consumer that routes a partition's records one at a time.
 */
final class CamelFloor {

    static final String KIND = "camel-floor";

    private static final String[] VARIANTS = { "camel: 9 headers", "camel: no headers", "camel: 9 headers, pooled",
        "kafka-fetch exchange path", "kafka-fetch exchange path, pooled" };

    private final BenchConfig cfg;
    private final PrintStream log;
    private volatile long sink;

    CamelFloor(BenchConfig cfg, PrintStream log) {
        this.cfg = cfg;
        this.log = log;
    }

    /** A floor variant as a contender spec (kind {@link #KIND}; the label is the variant). */
    static ContenderSpec spec(String variant) {
        return new ContenderSpec(KIND, 1, 1, variant, 0);
    }

    List<Result> run() throws Exception {
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        Map<String, List<Double>> alloc = new LinkedHashMap<>();
        for (int round = -1; round < cfg.rounds; round++) {
            for (String v : VARIANTS) {
                double[] r = measure(v);
                if (round >= 0) {
                    rates.computeIfAbsent(v, k -> new ArrayList<>()).add(r[0]);
                    cpu.computeIfAbsent(v, k -> new ArrayList<>()).add(r[1]);
                    alloc.computeIfAbsent(v, k -> new ArrayList<>()).add(r[2]);
                }
                log.printf("S8 %s %s: %,.0f exchanges/s, %.3f us CPU, %.0f B allocated per exchange%n",
                        round < 0 ? "warm-up" : "round " + (round + 1), v, r[0], r[1], r[2]);
            }
        }
        String note = "one thread, " + cfg.s8RunMs + " ms per variant and round, after a warm-up round; no Kafka";
        List<Result> out = new ArrayList<>();
        for (String v : VARIANTS) {
            out.add(new Result(Harness.S8, spec(v), "records/s", "rec/s", rates.get(v), -1, -1, -1, note));
            out.add(new Result(Harness.S8, spec(v), Harness.CPU_PER_RECORD, "us", cpu.get(v), -1, -1, -1, note));
            out.add(new Result(Harness.S8, spec(v), Harness.ALLOC_PER_RECORD, "B", alloc.get(v), -1, -1, -1, note));
        }
        return out;
    }

    /** {records/s, CPU us per record, bytes allocated per record} of one variant over {@code s8RunMs}. */
    private double[] measure(String variant) throws Exception {
        boolean pooled = variant.contains("pooled");
        CamelContext camel = new DefaultCamelContext();
        if (pooled) {
            camel.getCamelContextExtension().setExchangeFactory(new PooledExchangeFactory());
            camel.getCamelContextExtension().setProcessorExchangeFactory(new PooledProcessorExchangeFactory());
        }
        long[] counter = new long[1];
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:floor").routeId("floor").process(e -> counter[0]++);
            }
        });
        camel.start();
        try {
            DefaultConsumer consumer = (DefaultConsumer) camel.getRoute("floor").getConsumer();
            Loop loop = variant.startsWith("kafka-fetch") ? kafkaFetchLoop(consumer)
                    : camelLoop(consumer, !variant.contains("no headers"));
            ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
            long tid = Thread.currentThread().getId();
            long cpu0 = mx.getThreadCpuTime(tid);
            long alloc0 = mx.getThreadAllocatedBytes(tid);
            long t0 = System.nanoTime();
            long end = t0 + cfg.s8RunMs * 1_000_000L;
            long n = 0;
            while (true) {
                for (int i = 0; i < 1000; i++) {
                    loop.once(n++);
                }
                if (System.nanoTime() >= end) {
                    break;
                }
            }
            long t1 = System.nanoTime();
            double cpu = (mx.getThreadCpuTime(tid) - cpu0) / 1e3 / n;
            double alloc = (double) (mx.getThreadAllocatedBytes(tid) - alloc0) / n;
            sink += counter[0];
            return new double[] { n / ((t1 - t0) / 1e9), cpu, alloc };
        } finally {
            camel.close();
        }
    }

    @FunctionalInterface
    private interface Loop {
        void once(long i) throws Exception;
    }

    /** What camel-kafka 4.22's streaming processor does per record (KafkaRecordProcessor.setupExchangeMessage). */
    private static Loop camelLoop(DefaultConsumer consumer, boolean headers) {
        String value = Payloads.filler(100);
        RecordHeaders kafkaHeaders = new RecordHeaders();
        Processor processor = consumer.getProcessor();
        return i -> {
            Exchange exchange = consumer.createExchange(false);
            Message m = exchange.getMessage();
            if (headers) {
                m.setHeader("CamelKafkaPartition", 0);
                m.setHeader("CamelKafkaTopic", "floor");
                m.setHeader("CamelKafkaOffset", i);
                m.setHeader("CamelKafkaHeaders", kafkaHeaders);
                m.setHeader("CamelKafkaTimestamp", i);
                m.setHeader(Exchange.MESSAGE_TIMESTAMP, i);
                m.setHeader("CamelKafkaKey", "key");
                m.setHeader("CamelKafkaLastRecordBeforeCommit", Boolean.FALSE);
                m.setHeader("CamelKafkaLastPollRecord", Boolean.FALSE);
            }
            m.setBody(value);
            processor.process(exchange);
            consumer.releaseExchange(exchange, false);
        };
    }

    /** kafka-fetch's per-record path without Kafka and without the dispatcher: work item, exchange, route. */
    private static Loop kafkaFetchLoop(DefaultConsumer consumer) {
        String value = Payloads.filler(100);
        byte[] raw = new byte[100];
        PartitionState state = new PartitionState(new TopicPartition("floor", 0), -1);
        ExchangeBuilder builder = new ExchangeBuilder(new KafkaFetchHeaderFilterStrategy(),
                new DefaultKafkaHeaderDeserializer(), "floor-group", false, null, null);
        RouteItemProcessor processor = new RouteItemProcessor(consumer, builder, false, null);
        return i -> {
            WorkItem item = new WorkItem(state, i, 0, 1, i, i, null, raw, new RecordHeaders(), null, value, null);
            processor.process(item, doneSync -> {
            });
        };
    }
}
