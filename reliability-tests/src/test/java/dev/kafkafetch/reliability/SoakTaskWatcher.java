package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.metrics.TaskSnapshot;
import org.apache.camel.CamelContext;
import org.apache.camel.Route;

/**
 * Samples a member's fetch task snapshots ({@code KafkaFetchConsumer#taskSnapshots()}) every 200 ms and writes to the
 * member's history:
 * <pre>
 * G member micros task generation partitions    when a task's group generation or assignment changed (a retry
 *                                               topic's partition as r&lt;stage&gt;:&lt;partition&gt;)
 * H member micros task held inFlight            a task's new peak of records held since the committable offset
 * </pre>
 * "Held" is, summed over the task's partitions, position minus committable offset: the records the task keeps since
 * the offset it could commit, finished or not (docs/design.md §4.3 bounds it by maxInFlightRecords; the topic has
 * no gaps, so offsets count records).
 */
final class SoakTaskWatcher {

    private final String member;
    private final SoakHistoryLog log;
    private final Supplier<List<TaskSnapshot>> snapshots;
    private final Map<String, String> lastAssignment = new HashMap<>();
    private final Map<String, Long> peakHeld = new HashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    SoakTaskWatcher(String member, SoakHistoryLog log, Supplier<List<TaskSnapshot>> snapshots) {
        this.member = member;
        this.log = log;
        this.snapshots = snapshots;
        this.thread = new Thread(this::loop, "soak-watcher-" + member);
        this.thread.setDaemon(true);
    }

    /** The fetch task snapshots of the soak route of {@code context}, or none while it is not running. */
    static List<TaskSnapshot> snapshots(CamelContext context) {
        Route route = context.getRoute(SoakOptions.ROUTE_ID);
        if (route == null || !(route.getConsumer() instanceof KafkaFetchConsumer consumer)) {
            return List.of();
        }
        return consumer.taskSnapshots();
    }

    SoakTaskWatcher start() {
        thread.start();
        return this;
    }

    void stop() {
        running = false;
        thread.interrupt();
    }

    private void loop() {
        while (running) {
            try {
                sample();
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // the route is starting or stopping: try again
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    private void sample() {
        for (TaskSnapshot s : snapshots.get()) {
            String task = s.threadName().replace(' ', '_');
            List<String> parts = new ArrayList<>();
            long held = 0;
            for (PartitionSnapshot p : s.partitions()) {
                int stage = p.topic() == null ? 0 : SoakOutcomes.stageOf(p.topic());
                parts.add(stage > 0 ? "r" + stage + ":" + p.partition() : Integer.toString(p.partition()));
                if (p.position() >= 0 && p.committable() >= 0 && p.position() > p.committable()) {
                    held += p.position() - p.committable();
                }
            }
            parts.sort(null);
            String assignment = s.generation() + " " + (parts.isEmpty() ? "-" : join(parts));
            if (!assignment.equals(lastAssignment.put(task, assignment))) {
                log.write("G " + member + " " + SoakHistoryLog.micros() + " " + task + " " + assignment);
            }
            if (held > peakHeld.getOrDefault(task, 0L)) {
                peakHeld.put(task, held);
                log.write("H " + member + " " + SoakHistoryLog.micros() + " " + task + " " + held + " " + s.inFlight());
            }
        }
    }

    private static String join(List<String> parts) {
        StringBuilder sb = new StringBuilder();
        for (String p : parts) {
            sb.append(sb.length() == 0 ? "" : ",").append(p);
        }
        return sb.toString();
    }
}
