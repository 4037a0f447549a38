package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks the history of one share-group combination against kafka-fetch-share's promises (its component docs) and
 * gives the verdict:
 * <ul>
 *   <li><b>lost = 0</b>: every produced record is resolved ({@link ShareSoakOutcomes}: routed successfully, dead-lettered,
 *       or — without a dead-letter topic — rejected after its last delivery failed, the exception handler told).
 *       An unresolved record below the share group's start offset at the end is <em>lost</em> (the broker archived
 *       it, or it was accepted unrouted: archived counts as lost); above it, it is <em>stuck</em> (a hang). The one
 *       exception is a record the run could not save: the last delivery the broker allows went to a member that was
 *       then SIGKILLed (seen, or unseen in the client's buffer: {@link ShareSoakOutcomes#unsaveable}); those are
 *       counted apart ({@code unsaveable}, with how many were {@code unseen}), and at most what the killed members
 *       could hold (kills &times; consumersCount &times; maxPollRecords).</li>
 *   <li><b>final means final</b>: a record is dead-lettered or rejected only when it cannot be deserialized or its
 *       execution on the last delivery (the lower of {@code maxDeliveryAttempts} and the group's
 *       {@code share.delivery.count.limit}) failed; a record that failed on its last delivery is not delivered again
 *       (unless its member was SIGKILLed before it was acknowledged); no delivery runs twice. A record whose
 *       acknowledgement the broker refused to the member that ran it (a broker restart moves share-partition leaders,
 *       and a new leader knows neither the old one's locks nor the delivery counts it had not persisted) is excused
 *       from both.</li>
 *   <li><b>locks hold</b>: no two executions of one record overlap (a renewed lock keeps a slow record from other
 *       members), except after a SIGKILL (its executions end there), a stop that outlasted {@code shutdownTimeout},
 *       or a refused acknowledgement of the earlier execution's record (its lock was lost);
 *       with {@code ordering=KEY} and one fetch task per member, no two records of one key and partition run at once
 *       in one member.</li>
 *   <li><b>duplicates</b> (successes and dead letters beyond one per record) within a bound taken from the run's
 *       history ({@link #dupBound}): what a SIGKILLed member had finished but not yet acknowledged to the broker,
 *       what a stopping member still ran, each record whose acknowledgement the broker refused, and each record a
 *       moved share-partition leader handed out again on a delivery count another member had already had.</li>
 *   <li>no undeserializable record routed, every dead letter attributable, no child JVM out of memory.</li>
 * </ul>
 */
final class ShareSoakChecker {

    private final ShareSoakCase soakCase;
    private final ShareSoakOptions o;
    private final SoakHistory h;
    private final Map<Integer, IdProducer.Position> produced;
    private final ShareSoakOutcomes out;

    ShareSoakChecker(ShareSoakCase soakCase, SoakHistory history, Map<Integer, IdProducer.Position> produced,
                     List<SoakDeadLetters.DeadLetter> deadLetters) {
        this.soakCase = soakCase;
        this.o = soakCase.options();
        this.h = history;
        this.produced = produced;
        Map<IdProducer.Position, Integer> byPosition = new HashMap<>();
        produced.forEach((n, pos) -> byPosition.put(pos, n));
        this.out = new ShareSoakOutcomes(soakCase, history, byPosition, deadLetters);
    }

    /**
     * Produced records not resolved yet (used while waiting for the run to drain; an unsaveable one too, as a member
     * may still resolve it).
     */
    Set<Integer> unresolved() {
        Set<Integer> open = new HashSet<>();
        for (Integer n : produced.keySet()) {
            if (!out.resolved(n)) {
                open.add(n);
            }
        }
        return open;
    }

    /**
     * @param startOffsets the share group's start offset per partition after the final stop (every record below it is
     *                     acknowledged or archived for good)
     */
    SoakVerdict check(Map<Integer, Long> startOffsets, String hangReport, boolean childOutOfMemory) {
        StringBuilder details = new StringBuilder();
        List<String> why = new ArrayList<>();
        Map<Integer, IdProducer.Position> lost = new TreeMap<>();
        Map<Integer, IdProducer.Position> stuck = new TreeMap<>();
        Set<Integer> unsaveable = new HashSet<>();
        Set<Integer> unseen = new HashSet<>();
        produced.forEach((n, pos) -> {
            if (out.unsaveable(n)) {
                unsaveable.add(n);
                SoakHistory.Acquisition last = out.lastDelivery(n);
                if (last == null || last.count() < o.deliveryLimit()) {
                    unseen.add(n);
                }
            } else if (!out.resolved(n)) {
                (pos.offset() < startOffsets.getOrDefault(pos.partition(), 0L) ? lost : stuck).put(n, pos);
            }
        });
        report(why, details, "lost", "lost: archived or acknowledged without being routed or dead-lettered", lost);
        report(why, details, "hang", "stuck: neither resolved nor archived when the run stopped waiting", stuck);
        if (!unsaveable.isEmpty()) {
            details.append("  unsaveable (last delivery at a killed member), e.g.:\n");
            unsaveable.stream().sorted().limit(5).forEach(n -> details.append("    ").append(trace(n)).append('\n'));
        }
        if (!stuck.isEmpty()) {
            details.append("  thread dumps:\n").append(hangReport);
        }
        long kills = h.lives.stream().filter(l -> "kill".equals(l.what())).count();
        long unsaveableBound = kills * o.heldPerMember();
        if (unsaveable.size() > unsaveableBound) {
            why.add("unsaveable");
            details.append("  ").append(unsaveable.size()).append(" records held by killed members on their last")
                    .append(" delivery > ").append(unsaveableBound).append(" they could hold\n");
        }

        List<String> examples = new ArrayList<>();
        int early = 0;
        int releasedFinal = 0;
        int twice = 0;
        for (int n : produced.keySet()) {
            if ((out.dead.containsKey(n) || out.rejected.contains(n)) && !out.failedForGood(n)) {
                early++;
                example(examples, "dead-lettered or rejected before its last delivery failed: " + trace(n));
            }
            List<ShareSoakOutcomes.Exec> execs = new ArrayList<>(out.execsOf(n));
            execs.sort(Comparator.comparingLong(e -> e.start().micros()));
            Map<Integer, ShareSoakOutcomes.Exec> byAttempt = new HashMap<>();
            for (ShareSoakOutcomes.Exec e : execs) {
                ShareSoakOutcomes.Exec before = byAttempt.putIfAbsent(e.attempt(), e);
                // a delivery count the broker never persisted (its leader moved) is handed out again
                if (before != null && !out.refusedSince(before)) {
                    twice++;
                    example(examples, "delivery " + e.attempt() + " routed twice: " + trace(n));
                }
                if (!e.ok() && e.end() != null && e.attempt() >= o.lastDelivery() && out.killedAt(e.member()) < 0
                    && !out.refusedSince(e) && execs.stream().anyMatch(x -> x.attempt() > e.attempt())) {
                    releasedFinal++;
                    example(examples, "delivered again after its last delivery failed: " + trace(n));
                }
            }
        }
        flag(why, early, "final-early");
        flag(why, releasedFinal, "released-final");
        flag(why, twice, "delivery-twice");
        int overlaps = overlaps(examples);
        flag(why, overlaps, "overlap");
        examples.forEach(x -> details.append("    ").append(x).append('\n'));

        long dups = 0;
        Set<Integer> touched = new HashSet<>(out.ok.keySet());
        touched.addAll(out.dead.keySet());
        List<String> dupExamples = new ArrayList<>();
        for (int n : touched) {
            int c = out.ok.getOrDefault(n, 0) + out.dead.getOrDefault(n, 0);
            if (c > 1) {
                dups += c - 1;
                if (dupExamples.size() < 5) {
                    dupExamples.add(trace(n));
                }
            }
        }
        Bound bound = dupBound();
        if (dups > bound.value) {
            why.add("dup");
            details.append("  duplicates ").append(dups).append(" > bound ").append(bound.formula).append('\n');
            dupExamples.forEach(x -> details.append("    ").append(x).append('\n'));
        }
        if (!h.routedUndeserializable.isEmpty()) {
            why.add("routed-undeserializable");
        }
        if (out.unattributedDeadLetters > 0) {
            why.add("dlt-provenance");
        }
        if (childOutOfMemory) {
            why.add("oom");
        }
        int maxDeliveries = produced.keySet().stream().mapToInt(out::deliveryCount).max().orElse(0);
        long failedExecs = out.execs.values().stream().flatMap(List::stream).filter(e -> !e.ok()).count();
        String line = "SOAK seed=" + soakCase.seed() + " options=" + o.describe() + " faults="
                      + soakCase.schedule().describe() + " records=" + produced.size() + " lost=" + lost.size()
                      + (stuck.isEmpty() ? "" : " stuck=" + stuck.size()) + " unsaveable=" + unsaveable.size() + "/"
                      + unsaveableBound + "(unseen:" + unseen.size() + ") dup=" + dups + "/" + bound.value + " verdict="
                      + (why.isEmpty() ? "PASS" : "FAIL") + (why.isEmpty() ? "" : " why=" + String.join(",", why))
                      + " stats=completed:" + out.ok.size() + ",dlt:" + out.dead.size() + ",rejected:"
                      + out.rejected.size() + ",deliveries:"
                      + out.deliveries.values().stream().mapToInt(List::size).sum()
                      + ",failedExecs:" + failedExecs
                      + ",maxDeliveries:" + maxDeliveries + "/" + o.lastDelivery() + ",overlaps:" + overlaps
                      + ",dupRatio:" + ratio(dups, bound.value);
        details.insert(0, "  dupBound " + bound.formula + "\n");
        return new SoakVerdict(soakCase.seed(), line, why.isEmpty(), details.toString());
    }

    private void report(List<String> why, StringBuilder details, String name, String what,
                        Map<Integer, IdProducer.Position> records) {
        if (records.isEmpty()) {
            return;
        }
        why.add(name);
        details.append("  ").append(records.size()).append(' ').append(what).append(" (n partition@offset):");
        records.entrySet().stream().limit(50).forEach(e -> details.append(' ').append(e.getKey()).append(' ')
                .append(e.getValue()).append(';'));
        details.append('\n');
        records.keySet().stream().limit(10).forEach(n -> details.append("    ").append(trace(n)).append('\n'));
    }

    private static void flag(List<String> why, int count, String name) {
        if (count > 0) {
            why.add(name);
        }
    }

    private static void example(List<String> examples, String text) {
        if (examples.size() < 15) {
            examples.add(text);
        }
    }

    /** Every delivery and execution of record n, and what became of the members that had it. */
    private String trace(int n) {
        StringBuilder sb = new StringBuilder("n").append(n).append(' ').append(produced.get(n)).append(':');
        for (SoakHistory.Acquisition a : out.deliveries.getOrDefault(n, List.of())) {
            sb.append(" delivery#").append(a.count()).append(" to ").append(a.member()).append(" at ")
                    .append(SoakChecker.clock(a.at().micros())).append(fate(a.member())).append(';');
        }
        for (ShareSoakOutcomes.Exec e : out.execsOf(n)) {
            sb.append(' ').append(e.exec()).append(" attempt ").append(e.attempt()).append(" at ")
                    .append(SoakChecker.clock(e.start().micros())).append(' ')
                    .append(e.end() == null ? "never ended" : e.ok() ? "ok" : "failed").append(';');
        }
        for (SoakHistory.Refusal r : out.refusals.getOrDefault(n, List.of())) {
            sb.append(" acknowledgement refused to ").append(r.member()).append(" at ")
                    .append(SoakChecker.clock(r.at().micros())).append(';');
        }
        sb.append(out.dead.containsKey(n) ? " dead-lettered x" + out.dead.get(n) + ";" : "")
                .append(out.rejected.contains(n) ? " rejected;" : "");
        return sb.toString();
    }

    private String fate(String member) {
        for (SoakHistory.Life l : h.lives) {
            if (l.member().equals(member) && ("kill".equals(l.what()) || "stop".equals(l.what())
                                              || "suspend".equals(l.what()) || "final-stop".equals(l.what()))) {
                return " (" + l.what() + " at " + SoakChecker.clock(l.micros()) + ")";
            }
        }
        return "";
    }

    /**
     * Executions of one record that overlap (a lock lost), and with KEY and one fetch task per member, executions of
     * one key and partition in one member that overlap. A SIGKILLed or stopped child's executions end when it went.
     */
    private int overlaps(List<String> examples) {
        Map<String, List<ShareSoakOutcomes.Exec>> lanes = new HashMap<>();
        out.execs.forEach((n, list) -> {
            for (ShareSoakOutcomes.Exec e : list) {
                lanes.computeIfAbsent("n" + n, k -> new ArrayList<>()).add(e);
                if ("KEY".equals(o.ordering()) && o.consumersCount() == 1) {
                    lanes.computeIfAbsent(e.member() + " p" + e.partition() + " " + e.key(), k -> new ArrayList<>())
                            .add(e);
                }
            }
        });
        int count = 0;
        for (Map.Entry<String, List<ShareSoakOutcomes.Exec>> lane : lanes.entrySet()) {
            List<ShareSoakOutcomes.Exec> list = lane.getValue();
            list.sort(Comparator.comparingLong(e -> e.start().micros()));
            for (int i = 0; i < list.size(); i++) {
                for (int j = i + 1; j < list.size(); j++) {
                    ShareSoakOutcomes.Exec a = list.get(i);
                    ShareSoakOutcomes.Exec b = list.get(j);
                    if (b.start().compare(end(a)) < 0 && !stoppedLong(a, b) && !out.refusedSince(a)) {
                        count++;
                        example(examples, lane.getKey() + ": " + a.exec() + " (attempt " + a.attempt()
                                          + ") still running when " + b.exec() + " (attempt " + b.attempt()
                                          + ") started at " + SoakChecker.clock(b.start().micros()));
                    }
                }
            }
        }
        return count;
    }

    private SoakHistory.Clock end(ShareSoakOutcomes.Exec e) {
        if (e.end() != null) {
            return e.end();
        }
        long gone = h.endOfMember(e.member());
        return gone >= 0 ? new SoakHistory.Clock(e.start().jvm(), Long.MAX_VALUE, gone) : SoakHistory.Clock.END_OF_TIME;
    }

    /** {@code a}'s member was asked to stop before {@code b} started, and {@code a} outlasted shutdownTimeout. */
    private boolean stoppedLong(ShareSoakOutcomes.Exec a, ShareSoakOutcomes.Exec b) {
        for (SoakHistory.Life l : h.lives) {
            if (l.member().equals(a.member()) && ("stop".equals(l.what()) || "final-stop".equals(l.what()))
                && l.micros() <= b.start().micros()
                && b.start().micros() - Math.max(a.start().micros(), l.micros())
                   >= ShareSoakOptions.SHUTDOWN_TIMEOUT_MS * 1000L) {
                return true;
            }
        }
        return false;
    }

    private record Bound(long value, String formula) {
    }

    /**
     * What the run could legitimately deliver again after it was finished, from its history: per SIGKILL, the records
     * the killed member finished successfully within half an acquisition lock (plus 2 s) before the kill — a member
     * sends its acknowledgements with its next poll or lock renewal, at most half a lock later — at most what it can
     * hold; per stop, the records the member still ran when asked to stop (a stop accepts them, unless the last commit
     * fails or they outlast shutdownTimeout); per record whose acknowledgement the broker refused to a member (a broker
     * restart, a moved share-partition leader: {@link ShareSoakOutcomes#refusedSince}), one delivery more; per
     * acquisition a moved leader handed out on a delivery count another member had already had
     * ({@link ShareSoakOutcomes#reissuedAfterBrokerStop}), one delivery more. A kill is logged just before SIGKILL
     * lands, so what the killed life finished after that moment counts as finished before the kill. A suspend
     * adds nothing by itself: it gives back only records that have not started and accepts the running ones.
     */
    private Bound dupBound() {
        long ackWindow = (o.lockMs() / 2 + 2000L) * 1000;
        long killed = 0;
        long stopped = 0;
        List<ShareSoakOutcomes.Exec> all = out.execs.values().stream().flatMap(List::stream).toList();
        for (SoakHistory.Life l : h.lives) {
            if ("kill".equals(l.what())) {
                // the life's own executions: those ending after the kill was logged ended before SIGKILL landed
                long finished = all.stream().filter(e -> e.member().equals(l.member()) && e.ok()
                                                         && e.end().micros() >= l.micros() - ackWindow)
                        .count();
                killed += Math.min(finished, o.heldPerMember());
            } else if ("stop".equals(l.what()) || "final-stop".equals(l.what())) {
                stopped += all.stream().filter(e -> e.member().equals(l.member()) && e.start().micros() <= l.micros()
                                                    && (e.end() == null || e.end().micros() >= l.micros()))
                        .count();
            }
        }
        long refused = out.refusedRecords();
        long reissued = out.reissuedAfterBrokerStop();
        long value = killed + stopped + refused + reissued;
        return new Bound(value, "unacknowledgedAtKills" + killed + "+runningAtStops" + stopped + "+refused" + refused
                                + "+reissuedAfterBrokerStop" + reissued + "=" + value + " (ackWindow="
                                + ackWindow / 1000 + "ms)");
    }

    private static String ratio(long dups, long bound) {
        if (bound == 0) {
            return dups == 0 ? "0" : "inf";
        }
        return String.format(Locale.ROOT, "%.3f", (double) dups / bound);
    }
}
