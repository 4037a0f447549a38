package dev.kafkafetch.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link SlowIoScenario}'s table: per N and contender, rate, % of ideal, threads; Java 17 and Java 21+ side by side.
 * With several rounds, each cell shows the round with the median rate and, in brackets, the rates' range.
 */
final class SlowIoReport {

    private final long sleepMs;
    private final boolean java21;
    /** Per N and contender: the rounds measured on Java 17 (0) and on virtual threads (1). */
    private final Map<String, List<List<SlowIoRun.Measured>>> rows = new LinkedHashMap<>();
    private final List<Integer> ns = new ArrayList<>();

    SlowIoReport(long sleepMs, boolean java21) {
        this.sleepMs = sleepMs;
        this.java21 = java21;
    }

    void add(int n, String label, boolean virtual, SlowIoRun.Measured m) {
        if (!ns.contains(n)) {
            ns.add(n);
        }
        rows.computeIfAbsent(n + "\t" + label, k -> List.of(new ArrayList<>(), new ArrayList<>())).get(virtual ? 1 : 0)
                .add(m);
    }

    String render() {
        StringBuilder sb = new StringBuilder();
        sb.append("Ideal = N / ").append(sleepMs).append(" ms. Threads: the most live platform threads during the"
                                                         + " window beyond those alive before the start (virtual"
                                                         + " threads are not counted); in brackets, those of them"
                                                         + " that are kafka-fetch workers. In route: the mean of"
                                                         + " the records running in kafka-fetch's route (below N: the"
                                                         + " supply of records fell short; at N: each took longer than"
                                                         + " the route's wait). CPU: this JVM's CPU time per record"
                                                         + " (the broker's included when it runs in the harness"
                                                         + " JVM). Heap: the live set the running contender holds"
                                                         + " (heap in use after a forced full GC at the window's end,"
                                                         + " less the same before it started; an in-process broker's"
                                                         + " growth included). With more than one round: the"
                                                         + " round with the median rate, and in brackets the lowest"
                                                         + " and highest rate of the rounds.\n\n");
        sb.append("| N | contender | Java ").append(Runtime.version().feature())
                .append(" rec/s | % of ideal | threads | in route | CPU µs/rec | heap MB |");
        if (java21) {
            sb.append(" Java 21+ virtual threads rec/s | % of ideal | platform threads | in route | CPU µs/rec |"
                      + " heap MB |");
        }
        sb.append('\n').append(java21 ? "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                : "|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (Map.Entry<String, List<List<SlowIoRun.Measured>>> row : rows.entrySet()) {
            String[] key = row.getKey().split("\t");
            int n = Integer.parseInt(key[0]);
            double ideal = n * 1000.0 / sleepMs;
            sb.append("| ").append(String.format("%,d", n)).append(" | ").append(key[1]).append(" | ");
            boolean kafkaFetch = key[1].startsWith("kafka-fetch");
            cells(sb, row.getValue().get(0), ideal, kafkaFetch, false);
            if (java21) {
                cells(sb, row.getValue().get(1), ideal, kafkaFetch, true);
            }
            sb.append('\n');
        }
        keyAgainstUnordered(sb, false, "Java " + Runtime.version().feature());
        if (java21) {
            keyAgainstUnordered(sb, true, "Java 21+ virtual threads");
        }
        return sb.toString();
    }

    /**
     * Issue 25's "KEY within 5 % of UNORDERED": for each contender run with both orderings, KEY's rate over
     * UNORDERED's in the same round, their geometric mean and range (the machine's noise moves both alike).
     */
    private void keyAgainstUnordered(StringBuilder sb, boolean virtual, String runtime) {
        for (Map.Entry<String, List<List<SlowIoRun.Measured>>> row : rows.entrySet()) {
            if (!row.getKey().endsWith(" UNORDERED")) {
                continue;
            }
            List<List<SlowIoRun.Measured>> key = rows.get(row.getKey().replaceAll(" UNORDERED$", " KEY"));
            List<SlowIoRun.Measured> u = row.getValue().get(virtual ? 1 : 0);
            List<SlowIoRun.Measured> k = key == null ? List.of() : key.get(virtual ? 1 : 0);
            int rounds = Math.min(u.size(), k.size());
            if (rounds == 0) {
                continue;
            }
            double logSum = 0;
            double min = Double.MAX_VALUE;
            double max = 0;
            StringBuilder each = new StringBuilder();
            for (int i = 0; i < rounds; i++) {
                double ratio = k.get(i).rate() / u.get(i).rate();
                logSum += Math.log(ratio);
                min = Math.min(min, ratio);
                max = Math.max(max, ratio);
                each.append(i == 0 ? "" : ", ").append(String.format("%.2f", ratio));
            }
            String[] nAndLabel = row.getKey().split("\t");
            sb.append(String.format("%nN = %s, %s, %s: KEY / UNORDERED in the same round %.3f (geometric mean of %d;"
                                    + " %.2f–%.2f): %s%n",
                    nAndLabel[0], nAndLabel[1].replaceAll(" UNORDERED$", ""), runtime,
                    Math.exp(logSum / rounds), rounds, min, max, each));
        }
    }

    private static void cells(StringBuilder sb, List<SlowIoRun.Measured> rounds, double ideal, boolean kafkaFetch,
                              boolean last) {
        if (rounds.isEmpty()) {
            sb.append("– | – | – | – | – | – |");
        } else {
            List<SlowIoRun.Measured> byRate = new ArrayList<>(rounds);
            byRate.sort(Comparator.comparingDouble(SlowIoRun.Measured::rate));
            SlowIoRun.Measured m = byRate.get(byRate.size() / 2);
            String rate = String.format("%,.0f", m.rate());
            if (byRate.size() > 1) {
                rate += String.format(" (%,.0f–%,.0f)", byRate.get(0).rate(), byRate.get(byRate.size() - 1).rate());
            }
            String threads = kafkaFetch ? m.workerThreads() + " (" + m.kafkaFetchWorkers() + ")"
                    : Integer.toString(m.workerThreads());
            sb.append(String.format("%s | %.0f %% | %s | %s | %.0f | %.0f |", rate, 100 * m.rate() / ideal,
                    threads, m.meanRunning() < 0 ? "–" : String.format("%,.0f", m.meanRunning()),
                    m.cpuMicrosPerRecord(), m.liveHeapMb()));
        }
        sb.append(last ? "" : " ");
    }
}
