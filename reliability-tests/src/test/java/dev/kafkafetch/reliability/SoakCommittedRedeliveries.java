package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.kafkafetch.commit.OffsetMap;
import dev.kafkafetch.window.FinishedOffsets;

/**
 * The duplicates a run may not have, read from its history rather than bounded by its options: an execution that
 * started after the group's last accepted commit of its partition had covered its record (an offset above it, or the
 * commit's offset map naming it finished) re-ran committed work, which no fault excuses. Only seekTo=BEGINNING may
 * replay committed records, at the start of a member's first partitions ({@link SoakSeekTo#mayReplay}), and an
 * operator's seek back runs once more what its partition had polled since the offset sought to (the first execution
 * after it of each such record). A record read
 * from a retry topic is judged by its place there. Commits are known from the {@code O} lines of {@link SoakCommitLog};
 * a commit missing there only excuses more.
 */
final class SoakCommittedRedeliveries {

    /** An execution of a record that a commit had covered when it started. */
    record Redelivery(SoakHistory.Start start, SoakHistory.Commit coveredBy) {

        @Override
        public String toString() {
            return start.exec() + "@" + start.member() + " " + where(start) + " started "
                   + (start.at().micros() - coveredBy.at().micros()) / 1000 + " ms after " + coveredBy.member()
                   + " committed " + coveredBy.offset()
                   + ("-".equals(coveredBy.metadata()) ? "" : " with an offset map");
        }
    }

    private record Place(int stage, int partition) {
    }

    private final Map<Place, List<SoakHistory.Commit>> commits = new HashMap<>();
    private final Map<SoakHistory.Commit, FinishedOffsets> maps = new HashMap<>();

    private final SoakHistory h;
    private final SoakSeekTo seek;
    /** The first execution after each operator's seek back of each record it sought back over. */
    private final Set<String> rerunBySeek = new HashSet<>();

    SoakCommittedRedeliveries(SoakHistory h, SoakSeekTo seek) {
        this.h = h;
        this.seek = seek;
        for (SoakHistory.Commit c : h.commits) {
            commits.computeIfAbsent(new Place(c.stage(), c.partition()), p -> new ArrayList<>()).add(c);
        }
        commits.values().forEach(list -> list.sort(Comparator.comparingLong(c -> c.at().micros())));
        for (SoakHistory.OperatorSeek op : h.operatorSeeks()) {
            Map<Long, SoakHistory.Start> first = new HashMap<>();
            for (SoakHistory.Start s : h.starts) {
                if (!s.retried() && s.partition() == op.partition() && s.offset() >= op.offset()
                    && s.offset() < op.position() && s.at().micros() > op.micros()) {
                    first.merge(s.offset(), s, (x, y) -> x.at().compare(y.at()) <= 0 ? x : y);
                }
            }
            first.values().forEach(s -> rerunBySeek.add(s.exec() + "@" + s.offset()));
        }
    }

    /** How many commits the history holds (0 means the check had nothing to go on). */
    int commitsSeen() {
        return h.commits.size();
    }

    /** Every execution that started on a record a commit had already covered. */
    List<Redelivery> find() {
        List<Redelivery> found = new ArrayList<>();
        for (SoakHistory.Start s : h.starts) {
            if (!s.retried() && (seek.mayReplay(s.member(), s.partition())
                                 || rerunBySeek.contains(s.exec() + "@" + s.offset()))) {
                continue;
            }
            SoakHistory.Commit last = lastBefore(place(s), s.at().micros());
            if (last != null && covers(last, offset(s))) {
                found.add(new Redelivery(s, last));
            }
        }
        return found;
    }

    private SoakHistory.Commit lastBefore(Place place, long micros) {
        List<SoakHistory.Commit> list = commits.get(place);
        if (list == null) {
            return null;
        }
        int lo = 0;
        int hi = list.size(); // first commit at or after micros
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (list.get(mid).at().micros() < micros) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == 0 ? null : list.get(lo - 1);
    }

    private boolean covers(SoakHistory.Commit c, long offset) {
        if (offset < c.offset()) {
            return true;
        }
        FinishedOffsets finished = maps.computeIfAbsent(c, k -> "-".equals(k.metadata()) ? null
                : OffsetMap.decode(k.metadata(), k.offset()));
        return finished != null && finished.contains(offset);
    }

    private static Place place(SoakHistory.Start s) {
        return s.retried() ? new Place(s.stage(), s.retryPartition()) : new Place(0, s.partition());
    }

    private static long offset(SoakHistory.Start s) {
        return s.retried() ? s.retryOffset() : s.offset();
    }

    private static String where(SoakHistory.Start s) {
        return s.retried() ? "retry-" + s.stage() + " " + s.retryPartition() + "@" + s.retryOffset()
                : s.partition() + "@" + s.offset();
    }
}
