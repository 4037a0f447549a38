package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The records a transacted member ran again because it aborted their transaction: an aborted transaction takes back
 * the offsets that counted its records finished (a transactional offset commit refused during a rebalance, "group
 * generation id is not valid", aborts it), and the member reads them again, by design. Counted per successful
 * execution that follows another successful execution of the same record by the same member with one of that
 * member's aborts in between.
 */
final class SoakAbortedReruns {

    private SoakAbortedReruns() {
    }

    private record Run(String member, long start, long end) {
    }

    static long count(SoakHistory h, Map<Integer, IdProducer.Position> produced) {
        if (h.aborts.isEmpty()) {
            return 0;
        }
        Map<IdProducer.Position, Integer> byPosition = new HashMap<>();
        produced.forEach((n, pos) -> byPosition.put(pos, n));
        Map<Integer, List<Run>> runs = new HashMap<>();
        for (SoakHistory.Start s : h.starts) {
            SoakHistory.End e = h.ends.get(s.exec());
            Integer n = byPosition.get(new IdProducer.Position(s.partition(), s.offset()));
            if (n != null && e != null && e.ok()) {
                runs.computeIfAbsent(n, k -> new ArrayList<>())
                        .add(new Run(s.member(), s.at().micros(), e.at().micros()));
            }
        }
        long reruns = 0;
        for (List<Run> l : runs.values()) {
            l.sort(Comparator.comparingLong(Run::start));
            for (int i = 1; i < l.size(); i++) {
                Run before = l.get(i - 1);
                Run again = l.get(i);
                if (before.member().equals(again.member()) && h.aborts.stream()
                        .anyMatch(a -> a.member().equals(again.member()) && a.at().micros() >= before.end()
                                       && a.at().micros() <= again.start())) {
                    reruns++;
                }
            }
        }
        return reruns;
    }
}
