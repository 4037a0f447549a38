package dev.kafkafetch.reliability;

import java.util.HashMap;
import java.util.Map;

/**
 * The records a SIGKILLed member had finished above its group's committed offsets when it died: the group reads them
 * again from the committed offset, by design. A fast route finishes far more than its window between two commits (a
 * partition whose leader comes back hands over a burst), so this, not the window, is what a kill re-delivers. Counted
 * per kill over the killed life's successful executions of source-topic records at or above the last commit of their
 * partition the history holds before the kill (by any member: commits are the group's).
 */
final class SoakKilledUncommitted {

    private SoakKilledUncommitted() {
    }

    static long count(SoakHistory h) {
        long uncommitted = 0;
        for (SoakHistory.Life kill : h.lives) {
            if (!"kill".equals(kill.what())) {
                continue;
            }
            Map<Integer, Long> committed = new HashMap<>();
            for (SoakHistory.Commit c : h.commits) {
                if (c.stage() == 0 && c.at().micros() <= kill.micros()) {
                    committed.merge(c.partition(), c.offset(), Math::max);
                }
            }
            for (SoakHistory.Start s : h.starts) {
                SoakHistory.End e = h.ends.get(s.exec());
                if (s.member().equals(kill.member()) && !s.retried() && e != null && e.ok()
                    && s.offset() >= committed.getOrDefault(s.partition(), 0L)) {
                    uncommitted++;
                }
            }
        }
        return uncommitted;
    }
}
