package dev.kafkafetch.reliability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;

/**
 * Runs one soak combination on the 3-broker cluster: creates its topics, starts the members, produces the workload
 * (a backlog, then a steady rate, with the plan's misbehaving records), applies the faults of the schedule one after
 * another, waits until every produced record is resolved (or the drain deadline passes: a hang, with thread dumps),
 * stops the members, reads the dead-letter topic and the committed offsets, and hands everything to the
 * {@link SoakChecker}. With {@code retryDelays} the retry topics (which the component creates) are read too, and the
 * drain lets duplicate retry letters run before the final stop. A transacted combination's output topic is read
 * after the final stop with a read_committed consumer ({@link SoakTxOutput}). A share-group combination ({@link ShareSoakCase}) sets
 * its group's configs first, and {@link ShareSoakChecker} checks it. The harness's own events (member starts, stops, kills, suspends; broker stops and starts) go to
 * {@code harness.history} in the combination's directory, beside the members' histories.
 */
final class SoakRun {

    private final SoakCase soakCase;
    /** The share-group combination this run is, or null for a classic one. */
    private final ShareSoakCase share;
    private final SoakOptions o;
    private final SoakSchedule s;
    private final EmbeddedKafkaCluster cluster;
    private final KafkaTestSupport kafka;
    private final Path dir;
    private final long drainMs;
    private final SoakMember[] slots;
    /** The combination's source topic (set by {@link #run}). */
    private String topic;
    private final int[] incarnations;
    private final List<ChildSoakMember> children = new ArrayList<>();
    private SoakHistoryLog harness;
    private String uri;
    private String group;

    SoakRun(SoakCase soakCase, EmbeddedKafkaCluster cluster, KafkaTestSupport kafka, Path dir, long drainMs) {
        this(soakCase, null, cluster, kafka, dir, drainMs);
    }

    /**
     * A share-group combination: the share group's configs are set before the first member starts, the drain ends
     * once nothing happened for {@link ShareSoakCase#quietMs()}, and the {@link ShareSoakChecker} gives the verdict.
     */
    SoakRun(ShareSoakCase share, EmbeddedKafkaCluster cluster, KafkaTestSupport kafka, Path dir, long drainMs) {
        this(share.routeCase(), share, cluster, kafka, dir, drainMs);
    }

    private SoakRun(SoakCase soakCase, ShareSoakCase share, EmbeddedKafkaCluster cluster, KafkaTestSupport kafka,
                    Path dir, long drainMs) {
        this.soakCase = soakCase;
        this.share = share;
        this.o = soakCase.options();
        this.s = soakCase.schedule();
        this.cluster = cluster;
        this.kafka = kafka;
        this.dir = dir;
        this.drainMs = drainMs;
        this.slots = new SoakMember[o.maxMembers()];
        this.incarnations = new int[o.maxMembers()];
    }

    SoakVerdict run() throws Exception {
        Files.createDirectories(dir);
        harness = new SoakHistoryLog(dir.resolve(SoakHistory.HARNESS));
        String topic = KafkaTestSupport.uniqueName("soak-" + Long.toHexString(soakCase.seed()));
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("soak-g");
        createTopic(topic, o.partitions());
        if (o.deadLetterTopic()) {
            createTopic(dlt, 2);
        }
        String output = SoakOptions.outputTopic(topic);
        if (o.transacted()) {
            createTopic(output, 3);
        }
        this.group = group;
        this.topic = topic;
        uri = share != null ? share.options().uri(cluster.bootstrapServers(), topic, group, dlt)
                : o.uri(cluster.bootstrapServers(), topic, group, dlt);
        if (share != null) {
            ShareGroups.prepare(kafka.admin(), group, share.options().groupConfigs());
        }
        Files.writeString(dir.resolve("case.txt"), "seed " + soakCase.seed() + "\noptions "
                                                   + (share != null ? share.options().describe() : o.describe())
                                                   + "\nfaults " + s.describe() + "\nuri " + uri + "\n");
        IdProducer producer = new IdProducer(cluster.bootstrapServers(), topic, "soak", 1);
        SoakDeadLetters deadLetters = o.deadLetterTopic() ? new SoakDeadLetters(cluster.bootstrapServers(), dlt, 2)
                : null;
        List<String> retryTopics = o.retryTopics(topic);
        // the component creates the retry topics (createRetryTopics defaults to true) when a member's route starts
        SoakDeadLetters retryLetters = o.retries()
                ? new SoakDeadLetters(cluster.bootstrapServers(), kafka.admin(), retryTopics, o.partitions(), true)
                : null;
        SoakHistory history = new SoakHistory(dir);
        SoakRoute.newRun(); // "first execution in a JVM" counts from this run on
        try {
            for (int i = 0; i < o.initialMembers(); i++) {
                start(i);
            }
            if ("END".equals(o.extra().seekTo())) {
                awaitFirstAssignment(history);
            }
            long t0 = System.nanoTime();
            Thread load = load(producer, t0);
            for (SoakFault fault : s.faults()) {
                sleepUntil(t0, fault.atMs());
                apply(fault, producer);
            }
            load.join();
            producer.stop();
            Map<Integer, IdProducer.Position> produced = new HashMap<>();
            producer.acked().forEach((id, pos) -> produced.put(Integer.parseInt(id), pos));

            // drain: until every produced record is resolved, or the group committed everything and went quiet
            // (what is still unresolved then was committed past: lost, not hung), or the deadline (a hang)
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(drainMs + s.plan().slow() * 7000L
                                                                              + 3 * o.retryWaitMs()
                                                                              + (share != null ? share.drainMs() : 0));
            Set<Integer> open;
            int events = -1;
            long quietSince = System.nanoTime();
            boolean committedPast = false;
            long lettersDeadline = 0;
            while (true) {
                history.refresh();
                open = share != null
                        ? new ShareSoakChecker(share, history, produced, letters(deadLetters)).unresolved()
                        : new SoakChecker(soakCase, history, produced, letters(deadLetters), letters(retryLetters))
                                .unresolved();
                if (open.isEmpty() && (endStillSkipping(group, topic) || seekStillRerunning(history, group, topic))
                    && System.nanoTime() <= deadline) {
                    // with seekTo=END a record counts as resolved when a member started above it, which the checker
                    // also excuses for a member that has routed nothing yet; such a member may still be working
                    // towards it, so wait until the group committed to the end (or the deadline)
                } else if (open.isEmpty()) {
                    // every record is resolved; duplicate retry letters may still wait for their delay: let them run
                    // before the final stop, so that the retry topics are committed to their ends
                    if (lettersDeadline == 0) {
                        lettersDeadline = System.nanoTime()
                                          + TimeUnit.MILLISECONDS.toNanos(o.retryWaitMs() + 10_000);
                    }
                    if (!o.retries() || !o.autoCommitEnable() || System.nanoTime() > lettersDeadline
                        || committedAtEnd(group, topic) && retryTopics.stream().allMatch(
                                t -> committedAtEnd(group, t))) {
                        break;
                    }
                } else if (System.nanoTime() > deadline) {
                    break;
                }
                int now = history.starts.size() + history.ends.size() + history.acquisitions.size();
                if (now != events) {
                    events = now;
                    quietSince = System.nanoTime();
                } else if (o.autoCommitEnable() && System.nanoTime() - quietSince > TimeUnit.SECONDS.toNanos(5)
                           && !open.isEmpty() && settled(group, topic, System.nanoTime() - quietSince)
                           && retryTopics.stream().allMatch(t -> committedAtEnd(group, t))) {
                    committedPast = true;
                    break;
                }
                Thread.sleep(500);
            }
            String hangReport = !open.isEmpty() && !committedPast ? hangReport() : "";

            finalStop();
            if (share != null) {
                if (deadLetters != null) {
                    deadLetters.awaitEnd(kafka.endOffsets(dlt), Duration.ofSeconds(15));
                }
                history.refresh();
                return new ShareSoakChecker(share, history, produced, letters(deadLetters))
                        .check(ShareGroups.startOffsets(kafka.admin(), group, topic, o.partitions()), hangReport,
                                childOutOfMemory());
            }
            Map<Integer, Long> end = byPartition(kafka.endOffsets(topic));
            Map<Integer, Long> committed = byPartition(kafka.committedOffsets(group, topic));
            Map<TopicPartition, Long> retryEnd = new HashMap<>();
            Map<TopicPartition, Long> retryCommitted = new HashMap<>();
            for (String t : retryTopics) {
                retryEnd.putAll(kafka.endOffsets(t));
                retryCommitted.putAll(kafka.committedOffsets(group, t));
            }
            if (deadLetters != null) {
                deadLetters.awaitEnd(kafka.endOffsets(dlt), Duration.ofSeconds(15));
            }
            if (retryLetters != null) {
                retryLetters.awaitEnd(retryEnd, Duration.ofSeconds(15));
            }
            history.refresh();
            SoakTxOutput.Read txOut = o.transacted()
                    ? SoakTxOutput.read(cluster.bootstrapServers(), output, kafka.endOffsets(output),
                            Duration.ofSeconds(30))
                    : null;
            return new SoakChecker(soakCase, history, produced, letters(deadLetters), letters(retryLetters))
                    .withOutput(txOut).check(committed, end, retryCommitted, retryEnd, hangReport, childOutOfMemory());
        } finally {
            finalStop();
            for (ChildSoakMember c : children) {
                if (c.alive()) {
                    c.kill();
                }
            }
            if (deadLetters != null) {
                deadLetters.close();
            }
            if (retryLetters != null) {
                retryLetters.close();
            }
            producer.close();
            harness.close();
            try {
                List<String> topics = new ArrayList<>(retryTopics);
                topics.add(topic);
                if (o.deadLetterTopic()) {
                    topics.add(dlt);
                }
                if (o.transacted()) {
                    topics.add(output);
                }
                kafka.admin().deleteTopics(topics).all().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                // best effort: the cluster is closed after the class anyway
            }
        }
    }

    private static List<SoakDeadLetters.DeadLetter> letters(SoakDeadLetters deadLetters) {
        return deadLetters == null ? List.of() : deadLetters.all();
    }

    private void createTopic(String topic, int partitions) throws Exception {
        NewTopic t = new NewTopic(topic, partitions, (short) 3).configs(Map.of("min.insync.replicas", "2"));
        kafka.admin().createTopics(List.of(t)).all().get(30, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                if (kafka.endOffsets(topic).size() == partitions) {
                    return;
                }
            } catch (RuntimeException e) {
                // not yet
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topic " + topic + " not ready");
            }
            Thread.sleep(100);
        }
    }

    /** Produces the backlog, then {@code ratePerSecond} records a second until {@code durationMs} after t0. */
    private Thread load(IdProducer producer, long t0) {
        Thread t = new Thread(() -> {
            int n = 0;
            for (; n < s.backlog(); n++) {
                send(producer, n);
            }
            long sent = 0;
            while (true) {
                long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                if (elapsed >= s.durationMs()) {
                    break;
                }
                long due = elapsed * s.ratePerSecond() / 1000;
                while (sent < due) {
                    send(producer, n++);
                    sent++;
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "soak-load");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private void send(IdProducer producer, int n) {
        SoakRecordPlan.Behaviour b = s.plan().of(n);
        boolean undeserializable = b != null && b.kind() == SoakRecordPlan.Kind.UNDESERIALIZABLE;
        producer.send(Integer.toString(n), null, ("k" + n % o.keys()).getBytes(StandardCharsets.UTF_8),
                SoakRoute.value(n, undeserializable));
    }

    private void apply(SoakFault fault, IdProducer producer) throws Exception {
        int i = fault.target();
        if (fault.kind() != SoakFault.Kind.BROKER && fault.kind() != SoakFault.Kind.JOIN) {
            awaitActive(slots[i]); // a fault on a member that has not even joined yet would test nothing
        }
        switch (fault.kind()) {
            case KILL -> {
                SoakMember m = slots[i];
                event("L " + m.name() + " " + SoakHistoryLog.micros() + " kill");
                m.kill();
                slots[i] = null;
                Thread.sleep(fault.durationMs());
                start(i);
            }
            case RESTART -> {
                stop(i, "stop");
                Thread.sleep(fault.durationMs());
                start(i);
            }
            case SUSPEND -> {
                SoakMember m = slots[i];
                event("L " + m.name() + " " + SoakHistoryLog.micros() + " suspend");
                m.suspend();
                Thread.sleep(fault.durationMs());
                event("L " + m.name() + " " + SoakHistoryLog.micros() + " resume");
                m.resume();
            }
            case BROKER -> {
                event("F " + SoakHistoryLog.micros() + " broker-stop b" + i);
                cluster.stopBroker(i);
                Thread.sleep(fault.durationMs());
                cluster.startBroker(i);
                event("F " + SoakHistoryLog.micros() + " broker-start b" + i);
            }
            case JOIN -> start(i);
            case LEAVE -> stop(i, "stop");
            case PAUSE_PARTITION -> {
                // the drawn member first; another in-process member when it holds nothing (between two assignments,
                // or more members than partitions): the pause waits (at most 10 s) for one that holds a partition
                long holdsBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                InProcessSoakMember m = (InProcessSoakMember) slots[i]; // drawn for in-process members only
                int partition = -1;
                while (true) {
                    for (InProcessSoakMember candidate : inProcessMembers(i)) {
                        partition = candidate.pauseOnePartition(topic);
                        if (partition >= 0) {
                            m = candidate;
                            break;
                        }
                    }
                    if (partition >= 0 || System.nanoTime() >= holdsBy) {
                        break;
                    }
                    Thread.sleep(100);
                }
                event("L " + m.name() + " " + SoakHistoryLog.micros() + " operator-pause "
                      + (partition < 0 ? "none" : "p" + partition));
                System.out.printf("SOAK seed=%d operator pause: %s p%d for %d ms%n", soakCase.seed(), m.name(),
                        partition, fault.durationMs());
                Thread.sleep(fault.durationMs());
                if (partition >= 0) {
                    m.resumePartition(topic, partition);
                    event("L " + m.name() + " " + SoakHistoryLog.micros() + " operator-resume p" + partition);
                }
            }
            case OPERATOR_SEEK -> {
                // the drawn member first; another in-process member when it holds nothing committed (an empty
                // partition), so that the action drawn is carried out
                long by = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
                InProcessSoakMember.Seek seek = null;
                InProcessSoakMember on = null;
                boolean fed = false;
                while (seek == null && System.nanoTime() < by) {
                    if (!fed && System.nanoTime() > by - TimeUnit.SECONDS.toNanos(13)) {
                        // nothing committed on any in-process member after 2 s (its partitions are empty): give the
                        // drawn one records to commit and seek back over
                        fed = feedOperatorRecords((InProcessSoakMember) slots[i], producer);
                    }
                    for (InProcessSoakMember m : inProcessMembers(i)) {
                        seek = m.seekOneBack(topic, OPERATOR_SEEK_BACK);
                        if (seek != null) {
                            on = m;
                            break;
                        }
                    }
                    if (seek == null) {
                        Thread.sleep(100);
                    }
                }
                // the records from the offset sought to, below the position then, run once more after this line
                String who = on != null ? on.name() : "m" + i;
                event("L " + who + " " + SoakHistoryLog.micros() + " operator-seek "
                      + (seek == null ? "none" : "p" + seek.partition() + " " + seek.offset() + " " + seek.until()));
                System.out.printf("SOAK seed=%d operator seek: %s %s%n", soakCase.seed(), who,
                        seek == null ? "none (no partition committed yet)" : seek.outcome());
            }
            case OPERATOR_PARK -> {
                InProcessSoakMember m = (InProcessSoakMember) slots[i]; // drawn for in-process members only
                String outcome = parkOperatorRecord(m, producer);
                System.out.printf("SOAK seed=%d operator park: %s %s%n", soakCase.seed(), m.name(), outcome);
            }
            default -> throw new IllegalStateException("unknown fault " + fault);
        }
    }

    /**
     * Produces {@link #OPERATOR_SEEK_BACK} healthy records (numbered after {@link SoakRecordPlan#OPERATOR_RECORD}) to a
     * partition the member holds, for an operator's seek to go back over; false when it holds none.
     */
    private boolean feedOperatorRecords(InProcessSoakMember m, IdProducer producer) {
        int partition = m.heldPartition(topic);
        if (partition < 0) {
            return false;
        }
        for (int k = 1; k <= OPERATOR_SEEK_BACK; k++) {
            int n = SoakRecordPlan.OPERATOR_RECORD + k;
            producer.send(Integer.toString(n), partition, ("k" + n % o.keys()).getBytes(StandardCharsets.UTF_8),
                    SoakRoute.value(n, false));
        }
        return true;
    }

    /**
     * Produces the operator's record ({@link SoakRecordPlan#OPERATOR_RECORD}, which runs for seconds) to a partition
     * the member holds and parks it there, running or waiting; what was done, for the run's output.
     */
    private String parkOperatorRecord(InProcessSoakMember m, IdProducer producer) throws InterruptedException {
        long by = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); // its partition may be busy re-delivering
        int partition = m.heldPartition(topic);
        while (partition < 0 && System.nanoTime() < by) {
            Thread.sleep(100);
            partition = m.heldPartition(topic);
        }
        if (partition < 0) {
            event("L " + m.name() + " " + SoakHistoryLog.micros() + " operator-park none");
            return "none (the member holds no partition)";
        }
        int n = SoakRecordPlan.OPERATOR_RECORD;
        producer.send(Integer.toString(n), partition, ("k" + n % o.keys()).getBytes(StandardCharsets.UTF_8),
                SoakRoute.value(n, false));
        IdProducer.Position at = producer.acked().get(Integer.toString(n));
        while (at == null && System.nanoTime() < by) {
            Thread.sleep(20);
            at = producer.acked().get(Integer.toString(n));
        }
        String outcome = null;
        while (at != null && System.nanoTime() < by) {
            outcome = m.park(topic, at.partition(), at.offset());
            if (outcome != null) {
                break;
            }
            Thread.sleep(50); // not polled yet
        }
        event("L " + m.name() + " " + SoakHistoryLog.micros() + " operator-park "
              + (outcome == null ? "none" : "p" + at.partition() + " " + at.offset()));
        return outcome != null ? outcome
                : "none (its record was not acknowledged or parked in 30 s; last refusal: " + m.lastRefusal() + ")";
    }

    /**
     * Waits (at most 20 s) until the member has partitions or has started a record: a child JVM needs a few seconds
     * to boot and join, and a fault that hits it before would prove nothing.
     */
    private void awaitActive(SoakMember m) throws InterruptedException {
        Path file = dir.resolve(m.name() + ".history");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            try {
                if (Files.exists(file)) {
                    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                        if (line.startsWith("S ") || line.startsWith("G ") && !line.endsWith(" -")) {
                            return;
                        }
                    }
                }
            } catch (IOException e) {
                // being written: try again
            }
            Thread.sleep(100);
        }
    }

    /** The running in-process members, the one in {@code slot} first. */
    private List<InProcessSoakMember> inProcessMembers(int slot) {
        List<InProcessSoakMember> members = new ArrayList<>();
        if (slots[slot] instanceof InProcessSoakMember m) {
            members.add(m);
        }
        for (SoakMember m : slots) {
            if (m instanceof InProcessSoakMember in && m != slots[slot]) {
                members.add(in);
            }
        }
        return members;
    }

    /** How far before its committed offset an operator's seek goes back (committed records run again too). */
    private static final int OPERATOR_SEEK_BACK = 20;

    private void event(String line) {
        harness.write(line);
    }

    private void start(int slot) throws Exception {
        String name = "m" + slot + "." + incarnations[slot]++;
        boolean child = o.childSlots().get(slot);
        event("L " + name + " " + SoakHistoryLog.micros() + " start " + (child ? "child" : "in"));
        Path history = dir.resolve(name + ".history");
        String memberUri = SoakOptions.memberUri(uri, o.transacted(), group, slot);
        if (child) {
            ChildSoakMember c = ChildSoakMember.start(name, soakCase.seed(), memberUri, history,
                    dir.resolve(name + ".log"));
            children.add(c);
            slots[slot] = c;
        } else {
            slots[slot] = InProcessSoakMember.start(name, soakCase, memberUri, history);
        }
    }

    private void stop(int slot, String why) {
        SoakMember m = slots[slot];
        slots[slot] = null;
        event("L " + m.name() + " " + SoakHistoryLog.micros() + " " + why);
        try {
            m.stop();
        } finally {
            event("L " + m.name() + " " + SoakHistoryLog.micros() + " stopped");
        }
    }

    /** Stops every running member, all at once (each is bounded by its own shutdown timeouts). */
    private void finalStop() throws InterruptedException {
        List<Thread> stops = new ArrayList<>();
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != null) {
                int slot = i;
                Thread t = new Thread(() -> stop(slot, "final-stop"), "soak-final-stop-" + i);
                t.start();
                stops.add(t);
            }
        }
        for (Thread t : stops) {
            t.join(60_000);
        }
    }

    private String hangReport() throws InterruptedException {
        StringBuilder sb = new StringBuilder();
        sb.append("  in-process kafka-fetch threads:\n").append(InProcessSoakMember.dumpKafkaFetchThreads());
        for (SoakMember m : slots) {
            if (m instanceof InProcessSoakMember in) {
                sb.append("  tasks of ").append(m.name()).append(": ").append(in.describeTasks()).append('\n');
            } else if (m != null) {
                sb.append(m.threadDump());
            }
        }
        return sb.toString();
    }

    private boolean childOutOfMemory() {
        for (ChildSoakMember c : children) {
            try {
                if (Files.exists(c.log()) && Files.readString(c.log()).contains("OutOfMemoryError")) {
                    return true;
                }
            } catch (IOException e) {
                // unreadable log: not evidence of anything
            }
        }
        return false;
    }

    /**
     * True when nothing the group still has can change: a classic group committed the end of every partition; a share
     * group delivered nothing for {@link ShareSoakCase#quietMs()} (its start offset is no sign: the broker moves it on
     * lazily).
     */
    private boolean settled(String group, String topic, long quietNanos) {
        if (share == null) {
            return committedAtEnd(group, topic);
        }
        return quietNanos > TimeUnit.MILLISECONDS.toNanos(share.quietMs());
    }

    /** True when the group's committed offset is the end offset of every partition (none committed = 0). */
    /**
     * With seekTo=END, records produced before a member's first assignment are skipped by design: a run that produced
     * them all before a (slow-starting child) member joined would check nothing, so production waits for the first
     * assignment (or 60 s, then the run goes on and the checker judges what happened).
     */
    private static void awaitFirstAssignment(SoakHistory history) throws IOException, InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < until) {
            history.refresh();
            if (history.assignments.stream().anyMatch(a -> a.generation() > 0 && !"-".equals(a.partitions()))) {
                return;
            }
            Thread.sleep(200);
        }
    }

    /** With seekTo=END and commits made by kafka-fetch: true until the group committed the source topic to its end. */
    private boolean endStillSkipping(String group, String topic) {
        return "END".equals(o.extra().seekTo()) && o.autoCommitEnable() && !committedAtEnd(group, topic);
    }

    /**
     * An operator sought a partition back over records that were resolved already: each runs once more (or is skipped
     * once more by the exception handler), and the group commits to the end again, before the final stop. The
     * group's commit alone would not do: right after the seek it still shows the offset from before.
     */
    private boolean seekStillRerunning(SoakHistory h, String group, String topic) {
        if (s.count(SoakFault.Kind.OPERATOR_SEEK) == 0 || !o.autoCommitEnable()) {
            return false;
        }
        for (SoakHistory.OperatorSeek op : h.operatorSeeks()) {
            Set<Long> again = new HashSet<>();
            for (SoakHistory.Start st : h.starts) {
                if (!st.retried() && st.partition() == op.partition() && st.offset() >= op.offset()
                    && st.offset() < op.position() && st.at().micros() > op.micros() && h.ends.containsKey(st.exec())) {
                    again.add(st.offset());
                }
            }
            for (SoakHistory.RecordEvent x : h.skips) {
                if (x.partition() == op.partition() && x.offset() >= op.offset() && x.offset() < op.position()
                    && x.at().micros() > op.micros()) {
                    again.add(x.offset());
                }
            }
            if (again.size() < op.span()) {
                return true;
            }
        }
        return !committedAtEnd(group, topic);
    }

    private boolean committedAtEnd(String group, String topic) {
        Map<TopicPartition, Long> committed = kafka.committedOffsets(group, topic);
        for (Map.Entry<TopicPartition, Long> e : kafka.endOffsets(topic).entrySet()) {
            if (committed.getOrDefault(e.getKey(), 0L).longValue() != e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private static Map<Integer, Long> byPartition(Map<TopicPartition, Long> offsets) {
        Map<Integer, Long> map = new HashMap<>();
        offsets.forEach((tp, offset) -> map.put(tp.partition(), offset));
        return map;
    }

    private static void sleepUntil(long t0, long atMs) throws InterruptedException {
        long wait = atMs - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    /** Deletes a combination's directory (histories and child logs) once it passed. */
    static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // leave it
        }
    }
}
