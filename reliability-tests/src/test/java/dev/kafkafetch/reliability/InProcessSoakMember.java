package dev.kafkafetch.reliability;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.metrics.TaskSnapshot;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;

/** A soak member running as a CamelContext in the test JVM. */
final class InProcessSoakMember implements SoakMember {

    private final String name;
    private final CamelContext context;
    private final SoakHistoryLog log;
    private final SoakRoute route;
    private final SoakTaskWatcher watcher;

    private InProcessSoakMember(String name, CamelContext context, SoakHistoryLog log, SoakRoute route,
                                SoakTaskWatcher watcher) {
        this.name = name;
        this.context = context;
        this.log = log;
        this.route = route;
        this.watcher = watcher;
    }

    static InProcessSoakMember start(String name, SoakCase soakCase, String uri, Path history) throws Exception {
        SoakHistoryLog log = new SoakHistoryLog(history);
        SoakRoute route = new SoakRoute(name, log, soakCase);
        CamelContext context = new DefaultCamelContext();
        context.getShutdownStrategy().setTimeout(20);
        route.bindTo(context);
        context.addRoutes(route.builder(uri));
        context.start();
        SoakTaskWatcher watcher = new SoakTaskWatcher(name, log,
                () -> SoakTaskWatcher.snapshots(context)).start();
        return new InProcessSoakMember(name, context, log, route, watcher);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean child() {
        return false;
    }

    @Override
    public void stop() {
        try {
            context.stop();
        } finally {
            watcher.stop();
            route.close();
            log.close();
        }
    }

    @Override
    public void kill() {
        throw new UnsupportedOperationException("an in-process member cannot be SIGKILLed");
    }

    @Override
    public void suspend() {
        try {
            context.getRouteController().suspendRoute(SoakOptions.ROUTE_ID, 20, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("suspend of " + name + " failed", e);
        }
    }

    @Override
    public void resume() {
        try {
            context.getRouteController().resumeRoute(SoakOptions.ROUTE_ID);
        } catch (Exception e) {
            throw new IllegalStateException("resume of " + name + " failed", e);
        }
    }

    /**
     * An operator pauses the lowest-numbered partition of {@code topic} the member holds now (refused unless the route
     * has operatorActions=true); returns it, or -1 when the member holds none.
     */
    int pauseOnePartition(String topic) {
        int lowest = heldPartition(topic);
        if (lowest >= 0) {
            consumer().pausePartition(topic, lowest, "the soak");
        }
        return lowest;
    }

    /** Resumes a partition {@link #pauseOnePartition} paused. */
    void resumePartition(String topic, int partition) {
        consumer().resumePartition(topic, partition, "the soak");
    }

    /** What an operator's seek did: the partition, where it was sought back to, and the offset below which it ran. */
    record Seek(int partition, long offset, long until, String outcome) {
    }

    /**
     * An operator seeks the lowest-numbered partition of {@code topic} the member holds with a committed offset back
     * to {@code back} records before that offset (what it ran since runs again, committed or not); null when no
     * partition qualifies now.
     */
    Seek seekOneBack(String topic, int back) {
        PartitionSnapshot target = null;
        for (TaskSnapshot t : SoakTaskWatcher.snapshots(context)) {
            for (PartitionSnapshot p : t.partitions()) {
                if (p.topic().equals(topic) && p.committed() > 0
                    && (target == null || p.partition() < target.partition())) {
                    target = p;
                }
            }
        }
        if (target == null) {
            return null;
        }
        long offset = Math.max(0, target.committed() - back);
        try {
            String outcome = consumer().seekPartition(topic, target.partition(), offset, false, "the soak");
            return new Seek(target.partition(), offset, Math.max(target.position(), target.committed()), outcome);
        } catch (IllegalArgumentException notHeldNow) {
            return null; // revoked meanwhile: try again
        }
    }

    /** The lowest-numbered partition of {@code topic} the member holds, or -1. */
    int heldPartition(String topic) {
        int lowest = -1;
        for (TaskSnapshot t : SoakTaskWatcher.snapshots(context)) {
            for (PartitionSnapshot p : t.partitions()) {
                if (p.topic().equals(topic) && (lowest < 0 || p.partition() < lowest)) {
                    lowest = p.partition();
                }
            }
        }
        return lowest;
    }

    /** Why the last {@link #park} could not park, for the run's output. */
    private volatile String lastRefusal = "";

    /** An operator parks the record at that offset, running or waiting; the outcome, or null when it cannot now. */
    String park(String topic, int partition, long offset) {
        try {
            return consumer().parkRecord(topic, partition, offset, "the soak");
        } catch (IllegalArgumentException | IllegalStateException notNow) {
            lastRefusal = notNow.getMessage();
            return null; // not polled yet, or held by another task of this member: try again
        }
    }

    String lastRefusal() {
        return lastRefusal;
    }

    private KafkaFetchConsumer consumer() {
        return (KafkaFetchConsumer) context.getRoute(SoakOptions.ROUTE_ID).getConsumer();
    }

    @Override
    public String threadDump() {
        return dumpKafkaFetchThreads();
    }

    /** A summary of the member's fetch tasks (state, in flight, running, queued, partitions, last error). */
    String describeTasks() {
        StringBuilder sb = new StringBuilder();
        for (TaskSnapshot t : SoakTaskWatcher.snapshots(context)) {
            sb.append("\n    ").append(t.threadName()).append(' ').append(t.state()).append(" gen ")
                    .append(t.generation()).append(" inFlight ").append(t.inFlight()).append(" running ")
                    .append(t.running()).append(" queued ").append(t.queued()).append(" lastError ")
                    .append(t.lastError());
            for (PartitionSnapshot p : t.partitions()) {
                sb.append("\n      p").append(p.partition()).append(" position ").append(p.position())
                        .append(" committed ").append(p.committed()).append(" committable ").append(p.committable())
                        .append(" inFlight ").append(p.inFlight()).append(" paused ").append(p.pausedReason());
            }
        }
        return sb.toString();
    }

    /** The stacks of this JVM's kafka-fetch threads (fetch tasks, workers, dead-letter senders). */
    static String dumpKafkaFetchThreads() {
        StringBuilder sb = new StringBuilder();
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            StackTraceElement[] stack = t.getStackTrace();
            if (!t.getThreadName().contains("KafkaFetch") || idleWorker(stack)) {
                continue;
            }
            sb.append("  \"").append(t.getThreadName()).append("\" ").append(t.getThreadState());
            if (t.getLockName() != null) {
                sb.append(" on ").append(t.getLockName());
            }
            sb.append('\n');
            for (int i = 0; i < Math.min(stack.length, 14); i++) {
                sb.append("      at ").append(stack[i]).append('\n');
            }
        }
        return sb.toString();
    }

    /** A pool thread waiting for work: nothing to see. */
    private static boolean idleWorker(StackTraceElement[] stack) {
        for (StackTraceElement e : stack) {
            if ("getTask".equals(e.getMethodName()) && e.getClassName().endsWith("ThreadPoolExecutor")) {
                return true;
            }
        }
        return false;
    }
}
