package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code seekTo} may do to a soak run, and nothing more: only the partitions of a member's first assignment (each
 * member incarnation is one run of the route) start at their END or BEGINNING; retry topics and partitions a member
 * takes over later start at the committed offset.
 * <p>
 * A member's first assignment is read from the task watcher's history: for each of its fetch tasks, the partitions of
 * the source topic in its first sample that shows it in the group (generation > 0) with partitions, unless it had been
 * seen idle in the group for longer than the route's session timeout before (FirstAssignment's grace: a takeover).
 * With END, a record of such a partition below the first offset that member routed from it (any, when it routed
 * nothing there: it may have joined after the last record) may be skipped; with BEGINNING, the records it routed there
 * again right after that assignment, before its first record nobody had routed yet, are allowed duplicates. The watcher
 * samples, so a first assignment that changed before its first sample is seen as the later one (never wider than the
 * member's real first assignment plus what moved meanwhile).
 */
final class SoakSeekTo {

    /**
     * How long a task idle in its first sample may still be given first-assignment partitions: the route's
     * sessionTimeoutMs (FirstAssignment's grace) plus the watcher's sampling period and slack on a loaded machine.
     */
    private static final long IDLE_GRACE_MICROS = (SoakOptions.SESSION_TIMEOUT_MS + 2_000) * 1000L;

    private final String seekTo;
    private final SoakHistory h;
    /** Per member: its first assignment (source partitions). */
    private final Map<String, Set<Integer>> first = new HashMap<>();
    /** Per member and partition: the lowest source offset it routed. */
    private final Map<String, Map<Integer, Long>> firstRouted = new HashMap<>();

    /** @param seekTo the combination's seekTo (null = none) */
    SoakSeekTo(String seekTo, SoakHistory h) {
        this.seekTo = seekTo;
        this.h = h;
        if (seekTo == null) {
            return;
        }
        // per member/task: when its first sample in the group showed it idle (its first partitions may come later)
        Map<String, Long> idleSince = new HashMap<>();
        Set<String> given = new HashSet<>();
        List<SoakHistory.Assignment> ordered = new ArrayList<>(h.assignments);
        ordered.sort(Comparator.comparingLong(SoakHistory.Assignment::micros));
        for (SoakHistory.Assignment a : ordered) {
            String task = a.member() + "/" + a.task();
            if (a.generation() <= 0 || given.contains(task)) {
                continue;
            }
            Set<Integer> parts = first.computeIfAbsent(a.member(), m -> new HashSet<>());
            if ("-".equals(a.partitions())) {
                idleSince.putIfAbsent(task, a.micros());
                continue;
            }
            Long idle = idleSince.get(task);
            given.add(task);
            if (idle != null && a.micros() - idle > IDLE_GRACE_MICROS) {
                continue; // idle past the grace: a takeover, not part of the first assignment
            }
            for (String p : a.partitions().split(",")) {
                if (!p.startsWith("r")) {
                    parts.add(Integer.parseInt(p));
                }
            }
        }
        for (SoakHistory.Start s : h.starts) {
            if (!s.retried()) {
                firstRouted.computeIfAbsent(s.member(), m -> new HashMap<>()).merge(s.partition(), s.offset(),
                        Math::min);
            }
        }
    }

    /** True when seekTo=END may have skipped the record at {@code pos} (a member's first assignment started above it). */
    boolean mayBeSkipped(IdProducer.Position pos) {
        if (!"END".equals(seekTo)) {
            return false;
        }
        for (Map.Entry<String, Set<Integer>> e : first.entrySet()) {
            if (e.getValue().contains(pos.partition())) {
                // routed nothing there: its first assignment may have come after the last record (a restart at the
                // end of production), so all of it may be skipped; the checker cannot tell that from a stall there
                long routed = firstRouted.getOrDefault(e.getKey(), Map.of()).getOrDefault(pos.partition(),
                        Long.MAX_VALUE);
                if (pos.offset() < routed) {
                    return true;
                }
            }
        }
        return false;
    }

    /** True when seekTo=BEGINNING may replay committed records of {@code partition} for {@code member}. */
    boolean mayReplay(String member, int partition) {
        return "BEGINNING".equals(seekTo) && first.getOrDefault(member, Set.of()).contains(partition);
    }

    /** With BEGINNING: executions that replayed records routed before, at the start of a member's first partitions. */
    long allowedReplays() {
        if (!"BEGINNING".equals(seekTo)) {
            return 0;
        }
        List<SoakHistory.Start> ordered = new ArrayList<>(h.starts);
        ordered.sort(Comparator.comparingLong(s -> s.at().micros()));
        Set<Integer> routedBefore = new HashSet<>();
        Map<String, Set<Integer>> replaying = new HashMap<>(); // member -> first partitions still replaying
        first.forEach((m, parts) -> replaying.put(m, new HashSet<>(parts)));
        long replays = 0;
        for (SoakHistory.Start s : ordered) {
            if (!s.retried()) {
                Set<Integer> open = replaying.getOrDefault(s.member(), Set.of());
                if (open.contains(s.partition())) {
                    if (routedBefore.contains(s.n())) {
                        replays++;
                    } else {
                        open.remove(s.partition()); // the first new record: the replay of this partition is over
                    }
                }
                routedBefore.add(s.n());
            }
        }
        return replays;
    }
}
