package dev.kafkafetch.it;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConstants;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/** Records every exchange the route finished: id (the body), partition, offset, key, thread. Thread-safe. */
public final class Recorder implements Processor {

    public record Seen(String id, int partition, long offset, String key, String thread, Map<String, Object> headers) {
    }

    private final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
    private final AtomicInteger concurrent = new AtomicInteger();
    private final AtomicInteger maxConcurrent = new AtomicInteger();

    @Override
    public void process(Exchange exchange) {
        Object key = exchange.getMessage().getHeader(KafkaFetchConstants.KEY);
        seen.add(new Seen(exchange.getMessage().getBody(String.class),
                exchange.getMessage().getHeader(KafkaFetchConstants.PARTITION, Integer.class),
                exchange.getMessage().getHeader(KafkaFetchConstants.OFFSET, Long.class),
                key == null ? null : key.toString(), Thread.currentThread().getName(),
                new HashMap<>(exchange.getMessage().getHeaders())));
    }

    /** Wraps a slow step so that the number of exchanges inside it at once is measured. */
    public Processor measuring(Processor inner) {
        return exchange -> {
            int now = concurrent.incrementAndGet();
            maxConcurrent.accumulateAndGet(now, Math::max);
            try {
                inner.process(exchange);
            } finally {
                concurrent.decrementAndGet();
            }
        };
    }

    public int maxConcurrent() {
        return maxConcurrent.get();
    }

    public List<Seen> all() {
        return new ArrayList<>(seen);
    }

    public int count() {
        return seen.size();
    }

    public Set<String> ids() {
        Set<String> ids = new HashSet<>();
        for (Seen s : seen) {
            ids.add(s.id());
        }
        return ids;
    }

    /** Ids seen more than once. */
    public List<String> duplicates() {
        Set<String> ids = new HashSet<>();
        List<String> dups = new ArrayList<>();
        for (Seen s : seen) {
            if (!ids.add(s.id())) {
                dups.add(s.id());
            }
        }
        return dups;
    }

    /** Produced ids that were never seen. */
    public Set<String> lost(Collection<String> produced) {
        Set<String> lost = new HashSet<>(produced);
        lost.removeAll(ids());
        return lost;
    }

    /** Offsets per partition in the order the route saw them. */
    public Map<Integer, List<Long>> offsetsByPartition() {
        Map<Integer, List<Long>> map = new HashMap<>();
        for (Seen s : seen) {
            map.computeIfAbsent(s.partition(), p -> new ArrayList<>()).add(s.offset());
        }
        return map;
    }

    public void clear() {
        seen.clear();
    }
}
