package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The durable record of an in-process route: the last step of the route adds the record's id (the body) with the
 * time it finished. Duplicates are kept. Thread-safe; shared by every CamelContext of a scenario.
 */
final class Finished implements Processor {

    private final ConcurrentLinkedQueue<Finish> all = new ConcurrentLinkedQueue<>();
    private final Set<String> distinct = ConcurrentHashMap.newKeySet();

    @Override
    public void process(Exchange exchange) {
        record(exchange.getMessage().getBody(String.class));
    }

    void record(String id) {
        all.add(new Finish(id, System.currentTimeMillis()));
        distinct.add(id);
    }

    int count() {
        return all.size();
    }

    /** How many different records finished. */
    int distinctCount() {
        return distinct.size();
    }

    boolean containsAll(Set<String> ids) {
        return distinct.containsAll(ids);
    }

    List<Finish> all() {
        return new ArrayList<>(all);
    }
}
