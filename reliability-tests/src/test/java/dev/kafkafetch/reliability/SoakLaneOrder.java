package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.kafkafetch.reliability.SoakChecker.clock;

/**
 * The order a soak run kept in each lane (a partition, or a partition and key with KEY ordering; a retry topic's
 * partition for records read from it): no two executions of a lane overlap unless a stall, an operator's park, a revoke
 * timeout or a broker outage excuses it, and records first succeed in offset order.
 */
final class SoakLaneOrder {

    /**
     * The component times a stall from when it hands the record to the route, the route logs the start a little
     * later: at least 5 ms for the first exchange of a fresh child JVM (seed 644372720638159251); allowed up to this.
     */
    static final long STALL_CLOCK_SLACK_MS = 100;

    private final SoakOptions o;
    private final SoakHistory h;
    private final Map<IdProducer.Position, Integer> byPosition;
    /** Records an operator parked: their lane moves on while an execution of them may still run. */
    private final Set<IdProducer.Position> parked;

    SoakLaneOrder(SoakOptions o, SoakHistory h, Map<IdProducer.Position, Integer> byPosition,
                  Set<IdProducer.Position> parked) {
        this.o = o;
        this.h = h;
        this.byPosition = byPosition;
        this.parked = parked;
    }

    /** An execution's time span in one lane. */
    private record Interval(String exec, String member, SoakHistory.Clock start, SoakHistory.Clock end, int n,
            int partition, long offset) {
    }

    private Integer number(int partition, long offset) {
        return byPosition.get(new IdProducer.Position(partition, offset));
    }

    /**
     * The lane of an execution: its partition (and key). A record read from a retry topic runs in the lane of its
     * partition there (it left the order of its source partition by design).
     */
    private String lane(SoakHistory.Start s) {
        String partition = s.retried() ? "r" + s.stage() + ":p" + s.retryPartition() : "p" + s.partition();
        return "KEY".equals(o.ordering()) ? partition + "/" + s.key() : partition;
    }

    private SoakHistory.Clock endOf(SoakHistory.Start s) {
        SoakHistory.End e = h.ends.get(s.exec());
        if (e != null) {
            return e.at();
        }
        long gone = h.endOfMember(s.member());
        if (gone >= 0) {
            return new SoakHistory.Clock(s.at().jvm(), Long.MAX_VALUE, gone);
        }
        return SoakHistory.Clock.END_OF_TIME;
    }

    /** Overlapping executions in one lane that nothing excuses; the first ten go to {@code examples}. */
    int overlaps(List<String> examples) {
        Map<String, Map<String, Interval>> lanes = new HashMap<>();
        for (SoakHistory.Start s : h.starts) {
            Integer n = number(s.partition(), s.offset());
            Map<String, Interval> lane = lanes.computeIfAbsent(lane(s), k -> new HashMap<>());
            lane.putIfAbsent(s.exec(), new Interval(s.exec(), s.member(), s.at(), endOf(s), n == null ? s.n() : n,
                    s.partition(), s.offset()));
        }
        int count = 0;
        for (Map.Entry<String, Map<String, Interval>> lane : lanes.entrySet()) {
            List<Interval> list = new ArrayList<>(lane.getValue().values());
            list.sort(Comparator.comparingLong(i -> i.start().micros()));
            List<Interval> active = new ArrayList<>();
            for (Interval i : list) {
                active.removeIf(a -> a.end().micros() < i.start().micros());
                for (Interval a : active) {
                    if (a.start().compare(i.start()) <= 0 && i.start().compare(a.end()) < 0) {
                        String excuse = excuse(a, i);
                        if (excuse == null) {
                            count++;
                            if (examples.size() < 10) {
                                examples.add(lane.getKey() + ": " + describe(a) + " still running when " + describe(i)
                                             + " started");
                            }
                        }
                    }
                }
                active.add(i);
            }
        }
        return count;
    }

    /** Why an overlap of {@code a} (started first) and {@code b} is allowed, or null when it is a violation. */
    private String excuse(Interval a, Interval b) {
        long ageMs = (b.start().micros() - a.start().micros()) / 1000;
        if (o.deadLetterTopic() && o.stallTimeoutMs() > 0 && ageMs >= o.stallTimeoutMs() - STALL_CLOCK_SLACK_MS) {
            return "stalled";
        }
        if (parked.contains(new IdProducer.Position(a.partition(), a.offset()))) {
            return "parked";
        }
        if (a.member().equals(b.member()) && o.consumersCount() == 1) {
            return null;
        }
        if (ageMs >= SoakOptions.REVOKE_TIMEOUT_MS) {
            return "revoke-timeout";
        }
        long stop = -1;
        for (SoakHistory.Life l : h.lives) {
            if ("broker-stop".equals(l.what())) {
                stop = l.micros();
            } else if ("broker-start".equals(l.what()) && stop >= 0) {
                long until = l.micros() + o.sessionTimeoutMs() * 1000L;
                if (stop <= b.start().micros() && until >= a.start().micros()) {
                    return "broker-outage";
                }
                stop = -1;
            }
        }
        return null;
    }

    private static String describe(Interval i) {
        return "n" + i.n() + "@" + i.offset() + "[" + i.member() + " " + i.exec() + " " + clock(i.start().micros())
               + ".." + (i.end().micros() == Long.MAX_VALUE ? "never" : clock(i.end().micros())) + "]";
    }

    /** Records that first succeeded before an earlier offset of their lane; the first ten go to {@code examples}. */
    int inversions(SoakOutcomes out, List<String> examples) {
        Map<Integer, SoakHistory.Start> firstOk = new HashMap<>();
        for (SoakHistory.Start s : h.starts) {
            SoakHistory.End e = h.ends.get(s.exec());
            Integer n = number(s.partition(), s.offset());
            if (e == null || !e.ok() || n == null || out.dead.containsKey(n) || out.skipped.contains(n)
                || out.leftOrder.contains(n)) {
                continue;
            }
            firstOk.merge(n, s, (x, y) -> x.at().compare(y.at()) <= 0 ? x : y);
        }
        Map<String, List<SoakHistory.Start>> lanes = new HashMap<>();
        for (SoakHistory.Start s : firstOk.values()) {
            lanes.computeIfAbsent(lane(s), k -> new ArrayList<>()).add(s);
        }
        int count = 0;
        for (Map.Entry<String, List<SoakHistory.Start>> lane : lanes.entrySet()) {
            List<SoakHistory.Start> list = lane.getValue();
            list.sort(Comparator.comparingLong(SoakHistory.Start::offset));
            SoakHistory.Start latest = null;
            for (SoakHistory.Start s : list) {
                if (latest != null && s.at().compare(latest.at()) < 0) {
                    count++;
                    if (examples.size() < 10) {
                        examples.add(lane.getKey() + ": offset " + s.offset() + " (n" + s.n() + ", " + s.member()
                                     + ") first succeeded at " + clock(s.at().micros()) + ", before offset "
                                     + latest.offset() + " (n" + latest.n() + ", " + latest.member() + ") at "
                                     + clock(latest.at().micros()));
                    }
                } else {
                    latest = s;
                }
            }
        }
        return count;
    }
}
