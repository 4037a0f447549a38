package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.kafkafetch.reliability.SoakChecker.clock;

/** Whether every generation change a soak run's tasks saw is explained by a membership fault. */
final class SoakGenerations {

    private final SoakOptions o;
    private final SoakHistory h;

    SoakGenerations(SoakOptions o, SoakHistory h) {
        this.o = o;
        this.h = h;
    }

    /**
     * Generation changes of a task (from one known generation to another) with no membership fault — a member
     * starting, stopping or killed, or a broker stopping or starting — within one session timeout plus 8 s before.
     * Suspend/resume and slow records (within maxPollIntervalMs thanks to the poll loop) must not cause one.
     */
    int unexplainedChanges(List<String> examples) {
        long window = (o.sessionTimeoutMs() + 8000L) * 1000;
        Map<String, Integer> last = new HashMap<>();
        List<SoakHistory.Assignment> sorted = new ArrayList<>(h.assignments);
        sorted.sort(Comparator.comparingLong(SoakHistory.Assignment::micros));
        // a task's first sample is when it really joins: a child JVM starting under load may take longer than the
        // window after its start event
        List<Long> joins = new ArrayList<>();
        for (SoakHistory.Assignment a : sorted) {
            if (!last.containsKey(a.member() + "/" + a.task())) {
                last.put(a.member() + "/" + a.task(), a.generation());
                joins.add(a.micros());
            }
        }
        last.clear();
        int count = 0;
        for (SoakHistory.Assignment a : sorted) {
            String task = a.member() + "/" + a.task();
            Integer before = last.put(task, a.generation());
            if (before == null || before < 0 || a.generation() < 0 || before == a.generation()) {
                continue;
            }
            boolean explained = false;
            for (long join : joins) {
                if (join <= a.micros() && join >= a.micros() - window) {
                    explained = true;
                    break;
                }
            }
            for (SoakHistory.Life l : h.lives) {
                boolean membership = switch (l.what()) {
                    case "start", "stop", "stopped", "kill", "final-stop", "broker-stop", "broker-start" -> true;
                    default -> false;
                };
                if (membership && l.micros() <= a.micros() && l.micros() >= a.micros() - window) {
                    explained = true;
                    break;
                }
            }
            if (!explained) {
                count++;
                if (examples.size() < 5) {
                    examples.add(task + " " + before + "->" + a.generation() + " at " + clock(a.micros()));
                }
            }
        }
        return count;
    }
}
