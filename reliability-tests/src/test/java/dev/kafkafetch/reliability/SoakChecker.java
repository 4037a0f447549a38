package dev.kafkafetch.reliability;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.apache.kafka.common.TopicPartition;

/**
 * Checks the history of one soak combination against kafka-fetch's promises and gives the verdict.
 * <ul>
 *   <li><b>lost = 0</b>: every produced record below the committed offset is resolved — completed by the route (an
 *       execution that ended {@code ok}, or that called the record's synchronous manual {@code commit()} before its
 *       member was killed), present in the dead-letter topic (mapped back by its provenance headers), or skipped by the
 *       documented log-and-skip rule (the consumer's exception handler got it, or breakOnFirstError without a
 *       dead-letter topic gave up after {@code breakOnFirstErrorMaxAttempts} — a batch as a whole, once the highest
 *       attempt of its records reaches it —, or it failed in the last retry topic without one). With
 *       {@code retryDelays} a record succeeding on any attempt (from the source or a retry topic) is completed; a record handed to a retry topic counts finished in its source partition, so an unresolved
 *       record is lost only when every retry letter of it was committed past too, else it is stuck.</li>
 *   <li><b>seekTo</b> ({@link SoakSeekTo}): with END, records of a member's first assignment below the first offset
 *       it routed there may be skipped (neither lost nor stuck; the committed offset may stay below them); with
 *       BEGINNING, the replays at the start of a member's first partitions add to the duplicate bound. Nothing else:
 *       a retry topic or a partition taken over later that is sought shows up as lost or duplicated.</li>
 *   <li><b>no overlap</b> of two executions of one lane: a partition (PARTITION) or a key of a partition (KEY); a
 *       record read from a retry topic runs in the lane of its partition (and key) there, not in its source lane.
 *       <em>Within one fetch task</em> (one member, i.e. one CamelContext or JVM incarnation, with
 *       {@code consumersCount=1}) the only excused overlap is a record abandoned as stalled: with
 *       {@code stallTimeoutMs} and a dead-letter topic the record is dead-lettered and its lane moves on while its
 *       thread still runs, so the later execution started at least {@code stallTimeoutMs} after the earlier one.
 *       Seek-backs, revokes and re-assignments within one task excuse nothing (docs/design.md §4.6).
 *       <em>Across members</em> (and across the fetch tasks of one member, which the route cannot tell apart, as they
 *       are distinct group members) an overlap is also excused when a rebalance explains it: the earlier execution
 *       had run at least {@code revokeTimeoutMs} when the later one started (the revoke callback gave it up and the
 *       partition moved on — docs/design.md §4.5; a stop waits {@code shutdownTimeout}, which is longer), or a
 *       broker was stopped before the later execution started and restarted less than one session timeout before
 *       the earlier one started (its member may have lost the partition without a revoke callback). A SIGKILLed
 *       member's executions end at the kill. No other cross-member overlap is excused: a member still running a
 *       record of a partition that the group gave to another member less than {@code revokeTimeoutMs} earlier
 *       means the revoke did not wait.</li>
 *   <li><b>order</b> (PARTITION, KEY): per lane, the first successful executions of the records are in offset order.
 *       Records that were dead-lettered or skipped are left out (a stalled or failed record is passed by design), and
 *       re-deliveries after faults do not count (only each record's first success does). With {@code retryDelays}
 *       records that failed, have a retry letter or ran from a retry topic are left out too: a retried record leaves
 *       its partition's and key's order by design.</li>
 *   <li><b>duplicates</b> (completions + dead letters beyond one per record) within the bound the combination's
 *       options and faults give ({@link #dupBound}) and, with {@code autoCommitEnable}, within {@link #MAX_DUP_RATIO}
 *       of the records produced (seekTo=BEGINNING's replays aside); and,
 *       from the history, no execution of a record that an accepted commit had already covered
 *       ({@link SoakCommittedRedeliveries}; a run that logged no commit fails, as the check would have nothing).</li>
 *   <li><b>exactly once</b> (transacted combinations): the output topic, read with read_committed to its end, holds
 *       every record the route completed (dead-lettered and skipped ones aside) exactly once, and nothing else
 *       ({@link SoakTxOutput#check}); the route's own re-runs stay under the duplicate bound as above.</li>
 *   <li><b>no hang</b>: no record left neither resolved nor committed past when the run stops waiting (thread dumps
 *       then); bounded memory (records held per task since the
 *       committable offset never above maxInFlightRecords; no child JVM out of memory), no undeserializable record
 *       routed, every dead letter attributable, group generations changing only near a membership fault (a start,
 *       stop, kill, broker restart, or a task's first sample, when a slow child JVM really joins), and (with
 *       autoCommitEnable) committed offsets at the end of every partition after the final stop.</li>
 * </ul>
 */
final class SoakChecker {

    /**
     * The most duplicates a run whose commits kafka-fetch makes ({@code autoCommitEnable}) may have, as a share of the
     * records produced (seekTo=BEGINNING's replays aside), whatever its bound.
     */
    static final double MAX_DUP_RATIO = 0.1;

    private final SoakCase soakCase;
    private final SoakOptions o;
    private final SoakHistory h;
    private final Map<Integer, IdProducer.Position> produced;
    private final Map<IdProducer.Position, Integer> byPosition = new HashMap<>();
    private final List<SoakDeadLetters.DeadLetter> deadLetters;
    private final List<SoakDeadLetters.DeadLetter> retryLetters;
    /** A transacted combination's output topic as a read_committed reader saw it; null otherwise. */
    private SoakTxOutput.Read output;

    /** @param retryLetters what the retry topics hold (none without retryDelays) */
    SoakChecker(SoakCase soakCase, SoakHistory history, Map<Integer, IdProducer.Position> produced,
                List<SoakDeadLetters.DeadLetter> deadLetters, List<SoakDeadLetters.DeadLetter> retryLetters) {
        this.soakCase = soakCase;
        this.o = soakCase.options();
        this.h = history;
        this.produced = produced;
        this.deadLetters = deadLetters;
        this.retryLetters = retryLetters;
        produced.forEach((n, pos) -> byPosition.put(pos, n));
    }

    /** Checks a transacted combination's output too: each completed record in it exactly once. */
    SoakChecker withOutput(SoakTxOutput.Read read) {
        this.output = read;
        return this;
    }

    private SoakSeekTo seekTo() {
        return new SoakSeekTo(o.extra().seekTo(), h);
    }

    private SoakOutcomes outcomes() {
        return new SoakOutcomes(o, h, byPosition, deadLetters, retryLetters);
    }

    /**
     * The operator actions of the schedule whose history line says they found nothing to act on. A pause or a park
     * that found nothing counts as carried out when the member's own assignment lines show it held no partition then
     * (more members than partitions): there was nothing an operator could have paused or parked on it.
     */
    static List<String> missedOperatorActions(SoakSchedule schedule, SoakHistory h) {
        Map<String, Integer> done = new HashMap<>();
        for (SoakHistory.Life l : h.lives) {
            if (!l.what().startsWith("operator-") || l.what().equals("operator-resume") || l.detail().isEmpty()) {
                continue;
            }
            boolean nothingToHold = (l.what().equals("operator-pause") || l.what().equals("operator-park"))
                                    && heldNothing(h, l.member(), l.micros());
            if (!l.detail().startsWith("none") || nothingToHold) {
                done.merge(l.what(), 1, Integer::sum);
            }
        }
        List<String> missed = new ArrayList<>();
        Map<SoakFault.Kind, String> lines = Map.of(SoakFault.Kind.PAUSE_PARTITION, "operator-pause",
                SoakFault.Kind.OPERATOR_SEEK, "operator-seek", SoakFault.Kind.OPERATOR_PARK, "operator-park");
        lines.forEach((kind, line) -> {
            int drawn = schedule.count(kind);
            if (done.getOrDefault(line, 0) < drawn) {
                missed.add(line + " " + done.getOrDefault(line, 0) + "/" + drawn);
            }
        });
        return missed;
    }

    /** Whether every fetch task of {@code member} had, by its last assignment line before {@code micros}, nothing. */
    private static boolean heldNothing(SoakHistory h, String member, long micros) {
        Map<String, SoakHistory.Assignment> last = new HashMap<>();
        for (SoakHistory.Assignment a : h.assignments) {
            if (a.member().equals(member) && a.micros() <= micros) {
                last.merge(a.task(), a, (was, now) -> now.micros() >= was.micros() ? now : was);
            }
        }
        return !last.isEmpty() && last.values().stream().allMatch(a -> a.partitions().equals("-"));
    }

    /** Every execution of the record at {@code pos}: member, attempt, outcome (with the failure's reason). */
    private String trace(IdProducer.Position pos) {
        StringBuilder sb = new StringBuilder(pos.toString()).append(':');
        int found = 0;
        for (SoakHistory.Start s : h.starts) {
            if (s.partition() == pos.partition() && s.offset() == pos.offset()) {
                SoakHistory.End e = h.ends.get(s.exec());
                sb.append(' ').append(s.exec()).append(s.retried() ? " retry-" + s.stage() + "@" + s.retryPartition()
                                                                     + "/" + s.retryOffset()
                        : "")
                        .append(" attempt ").append(s.attempt()).append(" at ")
                        .append(clock(s.at().micros())).append(' ')
                        .append(e == null ? "never ended" : e.ok() ? "ok" : "fail " + e.reason()).append(';');
                found++;
            }
        }
        return found == 0 ? sb.append(" never executed").toString() : sb.toString();
    }

    private Integer number(int partition, long offset) {
        return byPosition.get(new IdProducer.Position(partition, offset));
    }

    /** Produced records not resolved yet (used while waiting for the run to drain). */
    Set<Integer> unresolved() {
        SoakOutcomes out = outcomes();
        SoakSeekTo seek = seekTo();
        Set<Integer> open = new HashSet<>();
        for (Integer n : produced.keySet()) {
            if (!out.resolved(n) && !seek.mayBeSkipped(produced.get(n))) {
                open.add(n);
            }
        }
        return open;
    }

    /**
     * @param committed      the group's committed offsets after the final stop (partition to offset)
     * @param endOffsets     the topic's end offsets
     * @param retryCommitted the group's committed offsets of the retry topics after the final stop
     * @param retryEnd       the retry topics' end offsets
     * @param hangReport     thread dumps taken when the run stopped waiting with records unresolved
     */
    SoakVerdict check(Map<Integer, Long> committed, Map<Integer, Long> endOffsets,
                      Map<TopicPartition, Long> retryCommitted, Map<TopicPartition, Long> retryEnd, String hangReport,
                      boolean childOutOfMemory) {
        SoakOutcomes out = outcomes();
        StringBuilder details = new StringBuilder();
        List<String> why = new ArrayList<>();

        // unresolved records are lost when the group committed past them (in the source topic and, with retries, in
        // every retry topic holding a letter of theirs), else stuck (a hang)
        Map<Integer, IdProducer.Position> lost = new TreeMap<>();
        Map<Integer, IdProducer.Position> stuck = new TreeMap<>();
        SoakSeekTo seek = seekTo();
        produced.forEach((n, pos) -> {
            if (!out.resolved(n) && !seek.mayBeSkipped(pos)) { // seekTo=END skips records before a first assignment
                boolean committedPast = pos.offset() < committed.getOrDefault(pos.partition(), 0L);
                for (SoakDeadLetters.DeadLetter l : out.retryLetters.getOrDefault(n, List.of())) {
                    TopicPartition where = new TopicPartition(l.topic(), l.letterPartition());
                    if (l.letterOffset() >= retryCommitted.getOrDefault(where, 0L)) {
                        committedPast = false; // it still waits in a retry topic
                    }
                }
                (committedPast ? lost : stuck).put(n, pos);
            }
        });
        if (!lost.isEmpty()) {
            why.add("lost");
            details.append("  lost, committed past (n partition@offset):");
            lost.entrySet().stream().limit(100).forEach(e -> details.append(' ').append(e.getKey()).append(' ')
                    .append(e.getValue()).append(';'));
            details.append('\n');
            lost.values().stream().limit(10).forEach(pos -> details.append("    ").append(trace(pos)).append('\n'));
        }
        boolean hang = !stuck.isEmpty();
        if (hang) {
            why.add("hang");
            details.append("  ").append(stuck.size()).append(" record(s) neither resolved nor committed past when the"
                                                             + " run stopped waiting (n partition@offset):");
            stuck.entrySet().stream().limit(30).forEach(e -> details.append(' ').append(e.getKey()).append(' ')
                    .append(e.getValue()).append(';'));
            details.append("\n  thread dumps:\n").append(hangReport);
        }

        // duplicates
        long dups = 0;
        Set<Integer> all = new HashSet<>(out.ok.keySet());
        all.addAll(out.dead.keySet());
        List<String> dupExamples = new ArrayList<>();
        for (int n : all) {
            int c = out.ok.getOrDefault(n, 0) + out.dead.getOrDefault(n, 0);
            if (c > 1) {
                dups += c - 1;
                if (dupExamples.size() < 10) {
                    dupExamples.add(n + "(" + produced.get(n) + " ok" + out.ok.getOrDefault(n, 0) + " dlt"
                                    + out.dead.getOrDefault(n, 0) + ")");
                }
            }
        }
        int stalledDeadLetters = 0;
        Set<IdProducer.Position> parked = new HashSet<>();
        for (SoakDeadLetters.DeadLetter d : deadLetters) {
            if ("stalled".equals(d.reason())) {
                stalledDeadLetters++;
            } else if ("parked".equals(d.reason())) {
                parked.add(new IdProducer.Position(d.partition(), d.offset()));
            }
        }
        SoakDuplicateBound bound = SoakDuplicateBound.of(soakCase, h, out.failedExecutions, stalledDeadLetters,
                parked.size());
        long replays = seek.allowedReplays(); // seekTo=BEGINNING replays a member's first partitions
        if (replays > 0) {
            bound = new SoakDuplicateBound(bound.value() + replays,
                    bound.formula() + "+seekToBeginningReplays" + replays);
        }
        if (dups > bound.value()) {
            why.add("dup");
            details.append("  duplicates ").append(dups).append(" > bound ").append(bound.formula()).append(" e.g. ")
                    .append(dupExamples).append('\n');
        }
        // a bound near the records produced could not fire: where kafka-fetch makes the commits, whatever the options
        // allow, a run re-delivering more than this share of its records fails, besides what runs twice by design:
        // seekTo=BEGINNING's replays, an operator's seek back, records dead-lettered as stalled or parked that
        // still complete, what a SIGKILLed member had finished above the committed offsets, and a transacted
        // member's records it runs again after it aborted their transaction; with
        // manual commits only, the route decides what is committed, and the bound alone applies
        long byDesign = replays + h.operatorSeeks().stream().mapToLong(SoakHistory.OperatorSeek::span).sum()
                        + stalledDeadLetters + parked.size() + SoakAbortedReruns.count(h, produced)
                        + SoakKilledUncommitted.count(h);
        long cap = o.autoCommitEnable() ? (long) (MAX_DUP_RATIO * produced.size()) + byDesign : Long.MAX_VALUE;
        if (dups > cap) {
            why.add("dup-ratio");
            details.append("  duplicates ").append(dups).append(" > ").append(MAX_DUP_RATIO)
                    .append(" of the records produced (").append(cap).append(")\n");
        }

        // a transacted pipeline's output: every completed record exactly once, whatever ran twice in the route
        SoakTxOutput.Check tx = output == null ? null : SoakTxOutput.check(output, out, produced);
        if (tx != null && !tx.passed()) {
            if (tx.lost() > 0) {
                why.add("tx-lost");
            }
            if (tx.dups() > 0) {
                why.add("tx-dup");
            }
            if (tx.unrouted() > 0) {
                why.add("tx-unrouted");
            }
            details.append("  transacted output: lost ").append(tx.lost()).append(", duplicates ").append(tx.dups())
                    .append(", outputs of records never completed ").append(tx.unrouted()).append(" (n partition@offset"
                                                                                                  + " problem):")
                    .append(tx.examples()).append('\n');
        }
        if (output != null && !output.reachedEnd()) {
            why.add("tx-open");
            details.append("  the read_committed reader did not reach the output's end (partition:position/end): ")
                    .append(output.behind()).append('\n');
        }

        // re-runs of committed work: from the history, whatever the bound
        SoakCommittedRedeliveries committedRuns = new SoakCommittedRedeliveries(h, seek);
        List<SoakCommittedRedeliveries.Redelivery> reruns = committedRuns.find();
        if (!reruns.isEmpty()) {
            why.add("committed-rerun");
            details.append("  ").append(reruns.size()).append(" execution(s) of records a commit had covered:\n");
            reruns.stream().limit(10).forEach(r -> details.append("    ").append(r).append('\n'));
        }
        if (committedRuns.commitsSeen() == 0 && !produced.isEmpty()) {
            why.add("no-commits"); // nothing to check re-runs against: the commit log or the commits are broken
        }
        // an operator's action that was drawn must have taken effect, or the run proved nothing about it
        List<String> missed = missedOperatorActions(soakCase.schedule(), h);
        if (!missed.isEmpty()) {
            why.add("operator-action-missed");
            details.append("  operator actions drawn but not carried out: ").append(missed).append('\n');
        }

        // overlaps and order
        int overlaps = 0;
        int inversions = 0;
        if (o.ordered()) {
            SoakLaneOrder order = new SoakLaneOrder(o, h, byPosition, parked);
            List<String> overlapExamples = new ArrayList<>();
            overlaps = order.overlaps(overlapExamples);
            if (overlaps > 0) {
                why.add("overlap");
                details.append("  overlapping executions of one lane (").append(overlaps).append("):\n");
                overlapExamples.forEach(x -> details.append("    ").append(x).append('\n'));
            }
            List<String> inversionExamples = new ArrayList<>();
            inversions = order.inversions(out, inversionExamples);
            if (inversions > 0) {
                why.add("order");
                details.append("  first successes out of offset order (").append(inversions).append("):\n");
                inversionExamples.forEach(x -> details.append("    ").append(x).append('\n'));
            }
        }

        long maxHeld = 0;
        for (SoakHistory.Held held : h.held) {
            maxHeld = Math.max(maxHeld, held.held());
        }
        if (maxHeld > o.maxInFlightRecords()) {
            why.add("held");
            SoakHistory.Held first = h.held.stream().filter(x -> x.held() > o.maxInFlightRecords()).findFirst()
                    .orElseThrow();
            details.append("  records held since the committable offset ").append(maxHeld)
                    .append(" > maxInFlightRecords ").append(o.maxInFlightRecords()).append(" (first: ")
                    .append(first.member()).append(' ').append(first.task()).append(" held ").append(first.held())
                    .append(" inFlight ").append(first.inFlight()).append(" at ").append(clock(first.micros()))
                    .append(first.inFlight() <= o.maxInFlightRecords()
                            ? "; unfinished records stayed within the window: records finished behind an unfinished"
                              + " one are not counted by back-pressure"
                            : "")
                    .append(")\n");
        }
        if (childOutOfMemory) {
            why.add("oom");
        }
        if (!h.routedUndeserializable.isEmpty()) {
            why.add("routed-undeserializable");
            details.append("  undeserializable records reached the route: ").append(h.routedUndeserializable.size())
                    .append(", e.g. ").append(h.routedUndeserializable.get(0).partition()).append('@')
                    .append(h.routedUndeserializable.get(0).offset()).append('\n');
        }
        if (out.unattributedDeadLetters > 0) {
            why.add("dlt-provenance");
            details.append("  dead letters whose provenance names no produced record: ")
                    .append(out.unattributedDeadLetters).append('\n');
        }
        if (out.unattributedRetryLetters > 0) {
            why.add("retry-provenance");
            details.append("  retry letters whose provenance names no produced record: ")
                    .append(out.unattributedRetryLetters).append('\n');
        }
        List<String> generationExamples = new ArrayList<>();
        int unexplained = new SoakGenerations(o, h).unexplainedChanges(generationExamples);
        if (unexplained > 0) {
            why.add("generation");
            details.append("  group generation changes no membership fault explains: ").append(generationExamples)
                    .append('\n');
        }
        if (!hang) {
            List<String> behind = new ArrayList<>();
            endOffsets.forEach((p, end) -> {
                long c = committed.getOrDefault(p, 0L);
                if ((o.autoCommitEnable() ? c != end : c > end) && !skippedUpTo(seek, p, c, end)) {
                    behind.add("p" + p + " committed " + c + " end " + end);
                }
            });
            retryEnd.forEach((tp, end) -> {
                long c = retryCommitted.getOrDefault(tp, 0L);
                if (o.autoCommitEnable() ? c != end : c > end) {
                    behind.add("retry-" + SoakOutcomes.stageOf(tp.topic()) + "/p" + tp.partition() + " committed " + c
                               + " end " + end);
                }
            });
            if (!behind.isEmpty()) {
                why.add("committed");
                details.append("  committed offsets after the final stop: ").append(behind).append('\n');
            }
        }
        if (!hang) {
            int running = 0;
            for (String exec : executionsOf()) {
                if (!h.ends.containsKey(exec) && endOfMember(exec) < 0) {
                    running++;
                }
            }
            if (running > 0) {
                details.append("  (").append(running).append(" execution(s) never ended)\n");
            }
        }

        String line = "SOAK seed=" + soakCase.seed() + " options=" + o.describe() + " faults="
                      + soakCase.schedule().describe() + " records=" + produced.size() + " lost=" + lost.size()
                      + (hang ? " stuck=" + stuck.size() : "") + " dup=" + dups + "/" + Math.min(bound.value(), cap)
                      + (tx == null ? ""
                              : " txOut=" + output.outputs() + " txLost=" + tx.lost() + " txDup=" + tx.dups())
                      + " order-violations=" + (overlaps + inversions)
                      + " verdict=" + (why.isEmpty() ? "PASS" : "FAIL")
                      + (why.isEmpty() ? "" : " why=" + String.join(",", why))
                      + " stats=completed:" + out.ok.size() + ",dlt:" + deadLetters.size()
                      + (o.retries() ? ",retryLetters:" + retryLetters.size() + ",retried:" + retriedRecords(out) : "")
                      + ",skipped:" + out.skipped.size() + ",failedExecs:" + out.failedExecutions + ",overlaps:"
                      + overlaps
                      + ",inversions:" + inversions + ",heldMax:" + maxHeld + "/" + o.maxInFlightRecords()
                      + ",dupRatio:" + ratio(dups, bound.value()) + ",commits:" + committedRuns.commitsSeen()
                      + ",committedReruns:" + reruns.size() + ",dupPerRecord:" + ratio(dups, produced.size());
        line += " dupBound=" + (cap == Long.MAX_VALUE ? bound.formula() + " (manual commits only: no cap)"
                : "min(" + bound.formula() + ";" + MAX_DUP_RATIO + "*records+replays=" + cap + ")");
        return new SoakVerdict(soakCase.seed(), line, why.isEmpty(), details.toString());
    }

    /** True when every record from {@code from} to {@code end} may have been skipped by seekTo=END (none committed). */
    private boolean skippedUpTo(SoakSeekTo seek, int partition, long from, long end) {
        if (from >= end) {
            return false;
        }
        for (long off = from; off < end; off++) {
            IdProducer.Position pos = new IdProducer.Position(partition, off);
            if (byPosition.containsKey(pos) && !seek.mayBeSkipped(pos)) {
                return false;
            }
        }
        return true;
    }

    /** Records with at least one retry letter. */
    private static int retriedRecords(SoakOutcomes out) {
        return out.retryLetters.size();
    }

    private static String ratio(long dups, long bound) {
        if (bound == 0) {
            return dups == 0 ? "0" : "inf";
        }
        return String.format(Locale.ROOT, "%.3f", (double) dups / bound);
    }

    private Set<String> executionsOf() {
        Set<String> execs = new HashSet<>();
        for (SoakHistory.Start s : h.starts) {
            execs.add(s.exec());
        }
        return execs;
    }

    private long endOfMember(String exec) {
        return h.endOfMember(exec.substring(0, exec.indexOf('#')));
    }

    static String clock(long micros) {
        return LocalTime.ofInstant(Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000),
                ZoneId.systemDefault()).toString();
    }
}
