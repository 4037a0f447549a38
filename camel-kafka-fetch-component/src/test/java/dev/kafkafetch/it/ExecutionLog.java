package dev.kafkafetch.it;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

import dev.kafkafetch.KafkaFetchConstants;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Every execution of a route step (one record, one delivery): which record, when it started and ended
 * ({@link System#nanoTime()}) and whether it succeeded; for order checks across executions. Thread-safe.
 */
public final class ExecutionLog {

    /** One execution; {@code end} is 0 while it runs. */
    public static final class Execution {
        private final String id;
        private final String key;
        private final int partition;
        private final long offset;
        private final long start;
        private volatile long end;
        private volatile boolean ok;

        Execution(String id, String key, int partition, long offset, long start) {
            this.id = id;
            this.key = key;
            this.partition = partition;
            this.offset = offset;
            this.start = start;
        }

        public String id() {
            return id;
        }

        public String key() {
            return key;
        }

        public int partition() {
            return partition;
        }

        public long offset() {
            return offset;
        }

        public long start() {
            return start;
        }

        public long end() {
            return end;
        }

        public boolean ok() {
            return ok;
        }

        /** True when the two executions were running at the same time (one still running counts as open-ended). */
        boolean overlaps(Execution other) {
            long thisEnd = end == 0 ? Long.MAX_VALUE : end;
            long otherEnd = other.end == 0 ? Long.MAX_VALUE : other.end;
            return start < otherEnd && other.start < thisEnd;
        }

        @Override
        public String toString() {
            return id + "(p" + partition + "@" + offset + (key == null ? "" : ", key " + key) + ", "
                   + (end == 0 ? "running" : ok ? "ok" : "failed") + ")";
        }
    }

    private final ConcurrentLinkedQueue<Execution> executions = new ConcurrentLinkedQueue<>();

    /** Wraps a route step: records its execution around it; an exception marks it failed and is rethrown. */
    public Processor around(Processor step) {
        return exchange -> {
            Execution x = start(exchange);
            boolean ok = false;
            try {
                step.process(exchange);
                ok = true;
            } finally {
                end(x, ok);
            }
        };
    }

    public Execution start(Exchange exchange) {
        Object key = exchange.getMessage().getHeader(KafkaFetchConstants.KEY);
        Execution x = new Execution(exchange.getMessage().getBody(String.class), key == null ? null : key.toString(),
                exchange.getMessage().getHeader(KafkaFetchConstants.PARTITION, Integer.class),
                exchange.getMessage().getHeader(KafkaFetchConstants.OFFSET, Long.class), System.nanoTime());
        executions.add(x);
        return x;
    }

    public void end(Execution x, boolean ok) {
        x.ok = ok;
        x.end = System.nanoTime();
    }

    public List<Execution> all() {
        return new ArrayList<>(executions);
    }

    /** Executions of {@code id} started so far. */
    public List<Execution> of(String id) {
        return executions.stream().filter(x -> x.id.equals(id)).toList();
    }

    /** Ids with at least one successful execution. */
    public Set<String> succeededIds() {
        Set<String> ids = new HashSet<>();
        for (Execution x : executions) {
            if (x.ok) {
                ids.add(x.id);
            }
        }
        return ids;
    }

    /** Every pair of executions of one lane ({@code laneOf}) that ran at the same time. */
    public List<String> overlaps(Function<Execution, Object> laneOf) {
        List<Execution> list = all();
        List<String> found = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            for (int j = i + 1; j < list.size(); j++) {
                Execution a = list.get(i);
                Execution b = list.get(j);
                if (Objects.equals(laneOf.apply(a), laneOf.apply(b)) && a.overlaps(b)) {
                    found.add(a + " overlaps " + b);
                }
            }
        }
        return found;
    }

    /**
     * Per lane, the offsets in the order their first successful execution started; returns the lanes whose order is
     * not ascending, as "lane: offsets".
     */
    public List<String> outOfOrder(Function<Execution, Object> laneOf) {
        Map<String, Execution> firstOk = new HashMap<>();
        for (Execution x : all()) {
            if (x.ok) {
                firstOk.merge(x.partition + "@" + x.offset, x, (a, b) -> a.start <= b.start ? a : b);
            }
        }
        Map<Object, List<Execution>> byLane = new HashMap<>();
        for (Execution x : firstOk.values()) {
            byLane.computeIfAbsent(laneOf.apply(x), l -> new ArrayList<>()).add(x);
        }
        List<String> wrong = new ArrayList<>();
        byLane.forEach((lane, xs) -> {
            xs.sort(Comparator.comparingLong(Execution::start));
            List<Long> offsets = xs.stream().map(Execution::offset).toList();
            if (!offsets.equals(offsets.stream().sorted().toList())) {
                wrong.add(lane + ": " + offsets);
            }
        });
        return wrong;
    }
}
