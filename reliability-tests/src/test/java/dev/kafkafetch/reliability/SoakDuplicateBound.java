package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How many duplicates a soak combination may legitimately have, derived from its options, its faults and what its
 * history shows (records completed per commit interval, failed executions, stalled dead letters), with the formula
 * that gave it.
 *
 * @param value   the bound
 * @param formula how it was derived, printed on the SOAK line
 */
record SoakDuplicateBound(long value, String formula) {

    /**
     * The duplicate bound of the combination. A committed offset never passes an unfinished record, so a fault
     * re-delivers at most what was finished but not committed when it hit:
     * <ul>
     *   <li>each rebalance (a member's task joining or leaving, including the initial joins and the rejoin after a
     *       kill or restart): nothing when records finish in offset order and revoke commits everything finished
     *       (PARTITION with autoCommitEnable, without retry topics), else up to one window
     *       ({@code maxInFlightRecords}) per task of every member; without autoCommitEnable also what the manual
     *       commits left behind per partition read (the retry topics' too);</li>
     *   <li>each SIGKILL: the killed member's tasks' windows plus one commit interval of work ({@code peak} = most
     *       records completed within any 200 ms); each broker restart: the same for every task of every member;</li>
     *   <li>each breakOnFirstError seek-back (a failed execution): a window, unless PARTITION order keeps everything
     *       behind the failed record from starting;</li>
     *   <li>each record dead-lettered as stalled, or parked by an operator, may still complete; each slow record
     *       running through a fault may be given up by the revoke and run again;</li>
     *   <li>each operator's seek back runs again what its partition had polled since the offset sought to.</li>
     * </ul>
     * Retry topics add no term of their own: a retry letter is a record of a partition the task reads, in the same
     * window, so a fault re-delivers it (or its source record, which then fails into a second letter) within the terms
     * above; a record completes at most once per letter or source delivery.
     */
    static SoakDuplicateBound of(SoakCase soakCase, SoakHistory h, int failedExecutions, int stalled, int parked) {
        SoakOptions o = soakCase.options();
        SoakSchedule s = soakCase.schedule();
        int tasks = o.consumersCount();
        int members = o.maxMembers();
        long window = o.maxInFlightRecords();
        long peak = peakPerCommitInterval(h);
        int manualSpan = o.autoCommitEnable() ? 0 : switch (o.manualCommit()) {
            case "nth" -> o.manualEvery() - 1;
            case "later" -> (int) window;
            default -> 0;
        };
        // with retries a failed record finishes only when its retry letter is acknowledged, after later ones: PARTITION
        // order no longer means records finish in offset order
        boolean inOrder = "PARTITION".equals(o.ordering()) && o.autoCommitEnable() && !o.retries();
        // manual commits leave up to manualSpan behind in every partition read, retry topics' included
        int partitionsRead = o.partitions() * (1 + o.retryStages());
        long perRebalance = (inOrder ? 0 : members * tasks * window) + (long) partitionsRead * manualSpan;
        int rebalances = Math.max(0, tasks * (o.initialMembers() + 2 * s.count(SoakFault.Kind.RESTART)
                                              + s.count(SoakFault.Kind.JOIN) + s.count(SoakFault.Kind.LEAVE)
                                              + s.count(SoakFault.Kind.KILL))
                                     - 1);
        int kills = s.count(SoakFault.Kind.KILL);
        int brokers = s.count(SoakFault.Kind.BROKER);
        long perKill = tasks * (window + peak) + (long) partitionsRead * manualSpan;
        long perBroker = members * tasks * (window + peak) + (long) partitionsRead * manualSpan;
        long perSeekBack = o.breakOnFirstError() && !"PARTITION".equals(o.ordering()) ? window : 0;
        int faults = rebalances + kills + brokers;
        long slow = (long) s.plan().slow() * faults;
        long operatorSeeks = h.operatorSeeks().stream().mapToLong(SoakHistory.OperatorSeek::span).sum();
        long value = rebalances * perRebalance + kills * perKill + brokers * perBroker
                     + (long) failedExecutions * perSeekBack + stalled + slow + parked + operatorSeeks;
        String formula = "rebalances" + rebalances + "*" + perRebalance + "+kills" + kills + "*" + perKill
                         + "+brokerRestarts" + brokers + "*" + perBroker + "+seekBacks" + failedExecutions + "*"
                         + perSeekBack + "+stalled" + stalled + "+slowThroughFaults" + slow
                         + (parked > 0 ? "+parked" + parked : "")
                         + (operatorSeeks > 0 ? "+operatorSeeks" + operatorSeeks : "") + "=" + value
                         + " (window=" + window + ",peakPer200ms=" + peak + ",tasks=" + tasks + ",members=" + members
                         + ")";
        return new SoakDuplicateBound(value, formula);
    }

    private static long peakPerCommitInterval(SoakHistory h) {
        List<Long> times = new ArrayList<>();
        Map<String, Integer> recordsPerExec = new HashMap<>();
        for (SoakHistory.Start s : h.starts) {
            recordsPerExec.merge(s.exec(), 1, Integer::sum);
        }
        recordsPerExec.forEach((exec, count) -> {
            SoakHistory.End e = h.ends.get(exec);
            if (e != null && e.ok()) {
                for (int i = 0; i < count; i++) {
                    times.add(e.at().micros());
                }
            }
        });
        times.sort(null);
        long window = SoakOptions.COMMIT_INTERVAL_MS * 1000L;
        int peak = 0;
        int lo = 0;
        for (int hi = 0; hi < times.size(); hi++) {
            while (times.get(hi) - times.get(lo) >= window) {
                lo++;
            }
            peak = Math.max(peak, hi - lo + 1);
        }
        return peak;
    }
}
