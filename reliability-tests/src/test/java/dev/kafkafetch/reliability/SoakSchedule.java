package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.List;

/**
 * The workload and the faults of one soak combination: a backlog, then {@code ratePerSecond} records a second for
 * {@code durationMs} while the {@code faults} happen one after another, and the misbehaving records of {@code plan}.
 */
record SoakSchedule(int backlog, int ratePerSecond, long durationMs, List<SoakFault> faults, SoakRecordPlan plan) {

    /** Records the generator planned for (backlog plus the continuous part); the plan's records are among them. */
    int plannedRecords() {
        return backlog + (int) (ratePerSecond * durationMs / 1000);
    }

    int count(SoakFault.Kind kind) {
        int c = 0;
        for (SoakFault f : faults) {
            if (f.kind() == kind) {
                c++;
            }
        }
        return c;
    }

    /** e.g. {@code kill(m0@2.1s+1.3s),broker(b2@5.0s+3.1s),undeser:2,slowStall2500:1}, or {@code none}. */
    String describe() {
        List<String> d = new ArrayList<>();
        for (SoakFault f : faults) {
            d.add(f.describe());
        }
        String records = plan.describe();
        if (!records.isEmpty()) {
            d.add(records);
        }
        return d.isEmpty() ? "none" : String.join(",", d);
    }
}
