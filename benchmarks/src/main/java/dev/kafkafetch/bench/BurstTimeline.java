package dev.kafkafetch.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * When each record of a burst started and ended in the route, and on which thread: it splits a burst's time into the
 * ramp (until every slot ran a record), the hand-offs (a thread's end of one record to its start of the next) and the
 * tail. Written by the route's threads without locks (one slot per record), read once the burst is done.
 */
final class BurstTimeline {

    private final long[] starts;
    private final long[] ends;
    private final long[] threads;
    private final AtomicInteger next = new AtomicInteger();

    BurstTimeline(int records) {
        starts = new long[records];
        ends = new long[records];
        threads = new long[records];
    }

    /** A record starts; returns its slot for {@link #ended}, or -1 past the burst's size. */
    int started() {
        int i = next.getAndIncrement();
        if (i >= starts.length) {
            return -1;
        }
        starts[i] = System.nanoTime();
        threads[i] = Thread.currentThread().getId();
        return i;
    }

    void ended(int slot) {
        if (slot >= 0) {
            ends[slot] = System.nanoTime();
        }
    }

    /**
     * When the {@code slots}-th record of the burst started, in ms after the first: how long the slots took to fill
     * (NaN when the burst had fewer records).
     */
    double filledAfterMs(int slots) {
        int n = Math.min(next.get(), starts.length);
        if (n < slots) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(starts, n);
        Arrays.sort(sorted);
        return (sorted[slots - 1] - sorted[0]) / 1e6;
    }

    /**
     * One line: when the slots filled ({@link #filledAfterMs}) and how many records ran at once, the mean gap between a thread's records, the
     * burst's span from the first start to the last end and the shortest span its slots allowed at the route's
     * measured time per record.
     */
    String summary(int slots, double routeMs) {
        int n = Math.min(next.get(), starts.length);
        if (n == 0) {
            return "no record";
        }
        long t0 = Arrays.stream(starts, 0, n).min().getAsLong();
        long last = Arrays.stream(ends, 0, n).max().getAsLong();
        List<long[]> events = new ArrayList<>();
        Map<Long, List<long[]>> byThread = new HashMap<>();
        for (int i = 0; i < n; i++) {
            events.add(new long[] { starts[i], 1 });
            events.add(new long[] { ends[i], -1 });
            byThread.computeIfAbsent(threads[i], t -> new ArrayList<>()).add(new long[] { starts[i], ends[i] });
        }
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int running = 0;
        int peak = 0;
        long full = -1;
        StringBuilder ramp = new StringBuilder();
        int quarter = Math.max(1, slots / 4);
        for (long[] e : events) {
            running += (int) e[1];
            if (running > peak && running % quarter == 0) {
                ramp.append(ramp.length() == 0 ? "" : ", ").append(running)
                        .append(String.format(" at %.1f", (e[0] - t0) / 1e6));
            }
            peak = Math.max(peak, running);
            if (running >= slots && full < 0) {
                full = e[0];
            }
        }
        long gaps = 0;
        int handOffs = 0;
        for (List<long[]> runs : byThread.values()) {
            runs.sort((a, b) -> Long.compare(a[0], b[0]));
            for (int i = 1; i < runs.size(); i++) {
                gaps += runs.get(i)[0] - runs.get(i - 1)[1];
                handOffs++;
            }
        }
        double spanMs = (last - t0) / 1e6;
        double boundMs = Math.ceil((double) n / slots) * routeMs;
        return String.format("%d records on %d threads, the %d-th started after %.1f ms; peak %d at once (%s ms); %s;"
                             + " hand-off %.2f ms mean over %d;"
                             + " span %.1f ms where its slots allowed %.1f",
                n, byThread.size(), slots, filledAfterMs(slots), peak, ramp,
                full < 0 ? "never " + slots + " at once" : String.format("%d at once after %.1f ms", slots,
                        (full - t0) / 1e6),
                handOffs == 0 ? 0 : gaps / 1e6 / handOffs, handOffs, spanMs, boundMs);
    }
}
