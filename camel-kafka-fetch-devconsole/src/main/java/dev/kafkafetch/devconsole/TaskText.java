package dev.kafkafetch.devconsole;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import dev.kafkafetch.metrics.OldestUnfinished;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.tx.TxSnapshot;
import org.apache.camel.util.TimeUtils;

/**
 * The text form of the {@code kafka-fetch} dev console: a fetch task's line, its share-group and transaction lines and
 * one line per assigned partition, from the task's published snapshots only.
 */
final class TaskText {

    private TaskText() {
    }

    static void appendTask(StringBuilder sb, TaskSnapshot t, long now, boolean showPartitions) {
        sb.append(String.format("  Task: %s  state: %s%n", t.threadName(), t.state()));
        sb.append(
                String.format("    Subscription: %s  group: %s  instance: %s  member: %s  generation: %s  client: %s%n",
                        t.subscription(), dash(t.groupId()), dash(t.groupInstanceId()), dash(t.memberId()),
                        t.generation() < 0 ? "-" : String.valueOf(t.generation()), dash(t.clientId())));
        sb.append(String.format(
                "    Held: %d/%d (peak %d)  in flight: %d  running: %d/%d  queued: %d  longest running: %s%s%n",
                t.held(), t.maxInFlightRecords(), t.peakHeld(), t.inFlight(), t.running(), t.maxConcurrency(),
                t.queued(), t.oldestRunningAgeMs() > 0 ? TimeUtils.printDuration(t.oldestRunningAgeMs(), true) : "-",
                t.stalledRunning() > 0 ? "  stalled, still on their threads: " + t.stalledRunning() : ""));
        sb.append(String.format(Locale.ROOT,
                "    Records: polled %d  finished %d  failed %d  re-delivered %d  sent to retry topics %d"
                                             + "  dead-lettered %d  stalled %d  parked %d  skipped as finished %d"
                                             + "  rate %.1f/s (last minute)%n",
                t.recordsPolled(), t.recordsFinished(), t.recordsFailed(), t.recordsRedelivered(),
                t.recordsRetried(), t.recordsDeadLettered(), t.recordsStalled(), t.recordsParked(), t.skippedFinished(),
                t.recordsPerSecond()));
        sb.append(String.format(
                "    Polls: %d  commits: %d  commit failures: %d  rebalances: %d  reconnects: %d  back-pressure pauses: %d%n",
                t.polls(), t.commits(), t.commitFailures(), t.rebalances(), t.reconnects(), t.backPressurePauses()));
        sb.append(String.format("    Last poll: %s  last commit: %s  snapshot age: %s%n", ago(t.lastPollTime(), now),
                ago(t.lastCommitTime(), now), TimeUtils.printDuration(Math.max(0, now - t.snapshotTime()), true)));
        if (t.seeks() > 0) {
            sb.append(String.format("    Operator seeks: %d  offsets skipped: %d  last: %s%n", t.seeks(),
                    t.offsetsSkipped(), t.lastSeek()));
        }
        if (t.deadLetterTrouble() != null) {
            sb.append(String.format("    Dead letters: %s%n", t.deadLetterTrouble()));
        }
        if (t.lastError() != null) {
            sb.append(String.format("    Last error: %s (%s)%n", t.lastError(), ago(t.lastErrorTime(), now)));
        } else {
            sb.append(String.format("    Last error: -%n"));
        }
        if (showPartitions) {
            appendPartitions(sb, t.partitions(), now);
        }
    }

    static void appendShare(StringBuilder sb, ShareSnapshot s) {
        sb.append(String.format("    Share group: held %d  acquired %d  accepted %d  released %d  rejected %d"
                                + "  dead-lettered %d  renewed %d  locks lost %d  acknowledgements refused %d%n",
                s.held(), s.acquired(), s.accepted(), s.released(), s.rejected(), s.deadLettered(), s.renewed(),
                s.lockLost(), s.acknowledgementFailures()));
        sb.append(String.format("    Deliveries: counts %s  final on delivery %d (group limit %s)  lock %s%n",
                s.deliveryCounts(), s.maxDeliveryAttempts(),
                s.deliveryCountLimit() < 0 ? "-" : String.valueOf(s.deliveryCountLimit()),
                s.lockDurationMs() < 0 ? "-" : TimeUtils.printDuration(s.lockDurationMs(), true)));
    }

    static void appendTransactions(StringBuilder sb, TxSnapshot tx, long now) {
        sb.append(String.format("    Transactions: %s  committed %d  aborted %d  outputs sent %d  waiting %d"
                                + " (oldest %s)  last commit: %s%s%n",
                tx.transactionalId(), tx.committed(), tx.aborted(), tx.outputsSent(), tx.outputsWaiting(),
                tx.oldestWaitingMs() > 0 ? TimeUtils.printDuration(tx.oldestWaitingMs(), true) : "-",
                ago(tx.lastCommitTimeMs(), now), tx.fenced() ? "  FENCED" : ""));
        if (tx.lastAbort() != null) {
            sb.append(String.format("    Last abort: %s%n", tx.lastAbort()));
        }
    }

    static void appendPartitions(StringBuilder sb, List<PartitionSnapshot> partitions, long now) {
        if (partitions.isEmpty()) {
            sb.append(String.format("    Partitions: none assigned%n"));
            return;
        }
        List<PartitionSnapshot> sorted = new ArrayList<>(partitions);
        sorted.sort(Comparator.comparing(PartitionSnapshot::topic).thenComparingInt(PartitionSnapshot::partition));
        int width = "PARTITION".length();
        for (PartitionSnapshot p : sorted) {
            width = Math.max(width, p.topic().length() + 1 + String.valueOf(p.partition()).length());
        }
        String row = "      %-" + width + "s %10s %10s %12s %10s %8s %10s %8s  %s%n";
        sb.append(String.format("    Partitions:%n"));
        sb.append(String.format(row, "PARTITION", "POSITION", "COMMITTED", "COMMITTABLE", "END", "LAG", "IN-FLIGHT",
                "HELD", "PAUSED"));
        for (PartitionSnapshot p : sorted) {
            sb.append(String.format(row, p.topic() + "-" + p.partition(), num(p.position()), num(p.committed()),
                    num(p.committable()), num(p.endOffset()), num(p.lag()), p.inFlight(), p.held(),
                    pausedText(p, now)));
        }
        for (PartitionSnapshot p : sorted) {
            if (p.oldestUnfinished() != null) {
                sb.append(String.format("      %s-%d stuck on: %s%n", p.topic(), p.partition(),
                        stuckText(p.oldestUnfinished())));
            }
        }
    }

    /** The oldest unfinished record of a partition, in one line. */
    private static String stuckText(OldestUnfinished o) {
        StringBuilder sb = new StringBuilder();
        sb.append("offset ").append(o.offset()).append("  key ").append(o.key() == null ? "-" : o.key())
                .append("  attempt ").append(o.attempt()).append("  ").append(o.state())
                .append("  polled ").append(TimeUtils.printDuration(o.ageMs(), true)).append(" ago");
        if (o.thread() != null) {
            sb.append("  running ").append(TimeUtils.printDuration(o.runningMs(), true)).append(" on ")
                    .append(o.thread()).append(" (").append(o.threadState()).append(')');
        }
        if (o.waitingBehind() >= 0) {
            sb.append("  waiting behind it in its key lane: ").append(o.waitingBehind());
        }
        OldestUnfinished.LaneHead ahead = o.waitsBehind();
        if (ahead != null) {
            sb.append("  waits behind offset ").append(ahead.offset()).append(" (attempt ").append(ahead.attempt())
                    .append(", ").append(ahead.state());
            if (ahead.thread() != null) {
                sb.append(' ').append(TimeUtils.printDuration(ahead.runningMs(), true)).append(" on ")
                        .append(ahead.thread()).append(" (").append(ahead.threadState()).append(')');
            }
            sb.append(", from before a seek back or a rebalance)");
        }
        return sb.toString();
    }

    private static String pausedText(PartitionSnapshot p, long now) {
        if (!p.paused()) {
            return "no";
        }
        if (p.delayedUntil() > 0) {
            return "yes (" + p.pausedReason() + ", next retry due in "
                   + TimeUtils.printDuration(Math.max(0, p.delayedUntil() - now), true) + ")";
        }
        return "yes (" + p.pausedReason() + ")";
    }

    private static String dash(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }

    private static String num(long n) {
        return n < 0 ? "-" : String.valueOf(n);
    }

    private static String ago(long time, long now) {
        return time <= 0 ? "never" : TimeUtils.printDuration(Math.max(0, now - time), true) + " ago";
    }
}
