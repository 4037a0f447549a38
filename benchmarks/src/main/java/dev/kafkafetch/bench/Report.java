package dev.kafkafetch.bench;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** Console table, Markdown and CSV of the results, the target check, and the scenario 3 plot. */
final class Report {

    private final List<Result> results;
    private final BenchConfig cfg;
    private final String broker;
    private final LocalDateTime when = LocalDateTime.now();

    private final String loadBefore;
    private final String loadAfter = loadAverage();

    /** @param loadBefore the machine's load average when the run started ({@link #loadAverage()}) */
    Report(List<Result> results, BenchConfig cfg, String broker, String loadBefore) {
        this.results = results;
        this.cfg = cfg;
        this.broker = broker;
        this.loadBefore = loadBefore;
    }

    /** The 1, 5 and 15 minute load averages and the running/total tasks (/proc/loadavg), or "unknown". */
    static String loadAverage() {
        try {
            String[] p = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return p[0] + " " + p[1] + " " + p[2] + " (" + p[3] + " tasks)";
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    static String machine() {
        String cpu = "unknown CPU";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse(cpu);
        } catch (IOException e) {
            // not Linux
        }
        long mem = Runtime.getRuntime().maxMemory() / 1048576;
        return String.format("%d cores (%s), %s %s (%s), max heap %d MB, %s %s",
                Runtime.getRuntime().availableProcessors(),
                cpu, System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
                System.getProperty("java.vm.vendor"), mem, System.getProperty("os.name"),
                System.getProperty("os.version"));
    }

    // ------------------------------------------------------------------------------------------ ratios

    private Optional<Result> reference(Result r, java.util.function.Predicate<ContenderSpec> which) {
        return results.stream().filter(o -> o.scenario().equals(r.scenario()) && o.metric().equals(r.metric())
                                            && which.test(o.spec()))
                .findFirst();
    }

    private String ratio(Result r, java.util.function.Predicate<ContenderSpec> which) {
        return reference(r, which).filter(ref -> ref.median() > 0 && !Double.isNaN(r.median()))
                .map(ref -> String.format(Locale.ROOT, "%.2fx", r.median() / ref.median())).orElse("");
    }

    private static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (Math.abs(v) >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String spread(Result r) {
        return r.values().size() > 1 ? fmt(r.min()) + " – " + fmt(r.max()) : "";
    }

    private static String slices(Result r) {
        return r.slices().size() > 1
                ? fmt(Result.percentile(r.slices(), 10)) + " – " + fmt(Result.percentile(r.slices(), 90))
                : "";
    }

    private List<String[]> rows() {
        List<String[]> rows = new ArrayList<>();
        for (Result r : results) {
            rows.add(new String[] { r.scenario().substring(0, 2), r.contender(), r.metric(), fmt(r.median()), r.unit(),
                spread(r), slices(r), ratio(r, ContenderSpec::isCamelKafka), ratio(r, ContenderSpec::isPlainLoop),
                r.consumed() < 0 ? "" : r.consumed() + (r.distinct() >= 0 ? " (" + r.distinct() + " distinct)" : "") });
        }
        return rows;
    }

    static final String METHOD = """
            ## Method

            * Every run: a fresh consumer group reading the topic from the beginning, the contender started in this
              JVM and stopped cleanly afterwards; one warm-up round of every contender first, then the measured rounds,
              contenders interleaved and rotated (A B C, B C A, ...) so that the machine's noise hits all of them
              alike and none always runs first. A figure is the median over the rounds; "rounds min – max" is its
              spread.
            * S1/S2 (trivial route) measure the steady state: a backlog large enough that no contender drains it, each
              run skips its first seconds of consuming (JIT, connections, first fetches) and then counts the records
              of a fixed window in short slices; "slices p10 – p90" is the spread of the slices' rates over all rounds.
              The same window gives the CPU time and the heap allocated by the contender's own threads (every thread
              it started: fetch thread, workers, Camel's), per record — the broker and the harness are not counted,
              wherever the broker runs. CPU per record is the steadier figure on a shared machine. With the broker
              in a JVM of its own (run.sh --broker-jvm), its CPU over the same window is reported per record too
              (from /proc, in 10 ms ticks).
            * S3/S7 (10 ms route) count the records of a fixed window after a shorter warm-up window; the ideal is
              concurrency x 100 rec/s.
            * S5 produces at a fixed rate with the send time in each value; all contenders read the same records at
              the same time, each in its own group, so a load spike hits all of them alike; a warm-up round first,
              the percentiles are the medians over the rounds.
            * S8 needs no Kafka: one thread creates exchanges from a route's consumer, fills them and runs the route
              as camel-kafka does per record; the floor under any consumer that routes a partition one record at a
              time on one thread.
            * Only ratios measured in the same run mean anything: the machine has 2 cores and is shared.

            """;

    private static final String[] HEADER = { "S", "contender", "metric", "median", "unit", "rounds min – max",
        "slices p10 – p90", "vs camel-kafka", "vs plain loop", "records seen (min)" };

    String consoleTable() {
        List<String[]> rows = rows();
        int[] w = new int[HEADER.length];
        for (int i = 0; i < HEADER.length; i++) {
            w[i] = HEADER[i].length();
            for (String[] row : rows) {
                w[i] = Math.max(w[i], row[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        appendRow(sb, HEADER, w);
        StringBuilder sep = new StringBuilder();
        for (int x : w) {
            sep.append("-".repeat(x)).append("  ");
        }
        sb.append(sep.toString().stripTrailing()).append('\n');
        String last = null;
        for (String[] row : rows) {
            if (last != null && !last.equals(row[0])) {
                sb.append('\n');
            }
            last = row[0];
            appendRow(sb, row, w);
        }
        return sb.toString();
    }

    private static void appendRow(StringBuilder sb, String[] row, int[] w) {
        for (int i = 0; i < row.length; i++) {
            boolean right = i == 3 || i == 5 || i == 6 || i == 7 || i == 8;
            String cell = right ? " ".repeat(w[i] - row[i].length()) + row[i]
                    : row[i] + " ".repeat(w[i] - row[i].length());
            sb.append(cell).append("  ");
        }
        sb.setLength(sb.length() - 2);
        sb.append('\n');
    }

    // ------------------------------------------------------------------------------------------ targets

    private Optional<Result> find(String scenario, String metric, java.util.function.Predicate<ContenderSpec> which) {
        return results.stream().filter(r -> r.scenario().equals(scenario) && r.metric().equals(metric)
                                            && which.test(r.spec()))
                .findFirst();
    }

    private static boolean isStreamingMc1(ContenderSpec s) {
        return s.isKafkaFetch() && !s.pooled() && s.maxConcurrency() == 1 && "PARTITION".equals(s.ordering());
    }

    private static String verdict(boolean ok) {
        return ok ? "**met**" : "**not met**";
    }

    List<String> targets() {
        List<String> out = new ArrayList<>();
        Optional<Result> kf1 = find(Harness.S1, "records/s", Report::isStreamingMc1);
        Optional<Result> ck1 = find(Harness.S1, "records/s", ContenderSpec::isCamelKafka);
        Optional<Result> pl1 = find(Harness.S1, "records/s", ContenderSpec::isPlainLoop);
        if (kf1.isPresent() && ck1.isPresent() && pl1.isPresent()) {
            double a = kf1.get().median() / ck1.get().median();
            double b = kf1.get().median() / pl1.get().median();
            out.add(String.format(Locale.ROOT,
                    "S1 kafka-fetch streaming (mc=1, PARTITION) vs camel-kafka: %.2fx (target ≥ 2x) %s;"
                                               + " vs plain loop: %.2fx (target ≥ 0.6x) %s",
                    a, verdict(a >= 2), b, verdict(b >= 0.6)));
        }
        Optional<Result> kfb = find(Harness.S1, "records/s", ContenderSpec::isBatching);
        if (kfb.isPresent() && pl1.isPresent()) {
            double b = kfb.get().median() / pl1.get().median();
            out.add(String.format(Locale.ROOT, "S1 kafka-fetch batching vs plain loop: %.2fx (target ≥ 0.9x) %s", b,
                    verdict(b >= 0.9)));
        }
        Optional<Result> kfA = find(Harness.S1, Harness.ALLOC_PER_RECORD, Report::isStreamingMc1);
        Optional<Result> ckA = find(Harness.S1, Harness.ALLOC_PER_RECORD, ContenderSpec::isCamelKafka);
        if (kfA.isPresent() && ckA.isPresent()) {
            out.add(String.format(Locale.ROOT, "S1 allocation per record, kafka-fetch mc=1 %,.0f B vs camel-kafka"
                                               + " %,.0f B: %.2fx (target ≤ 1x) %s",
                    kfA.get().median(), ckA.get().median(), kfA.get().median() / ckA.get().median(),
                    verdict(kfA.get().median() <= ckA.get().median())));
        }
        Optional<Result> kfC = find(Harness.S1, Harness.CPU_PER_RECORD, Report::isStreamingMc1);
        Optional<Result> ckC = find(Harness.S1, Harness.CPU_PER_RECORD, ContenderSpec::isCamelKafka);
        Optional<Result> floorCamel = find(Harness.S8, Harness.CPU_PER_RECORD,
                s -> s.ordering().equals("camel: 9 headers"));
        Optional<Result> floorOurs = find(Harness.S8, Harness.CPU_PER_RECORD,
                s -> s.ordering().equals("kafka-fetch exchange path"));
        if (kfC.isPresent()) {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                    "S1 CPU per record (all threads of the consumer), kafka-fetch mc=1: %.3f us", kfC.get().median()));
            ckC.ifPresent(c -> sb.append(String.format(Locale.ROOT, "; camel-kafka %.3f us (%.2fx)", c.median(),
                    kfC.get().median() / c.median())));
            floorCamel.ifPresent(f -> sb.append(String.format(Locale.ROOT,
                    "; Camel's floor with 9 headers (S8) %.3f us (%.2fx)", f.median(),
                    kfC.get().median() / f.median())));
            floorOurs.ifPresent(f -> sb.append(String.format(Locale.ROOT,
                    "; kafka-fetch's exchange path alone (S8) %.3f us (%.2fx)", f.median(),
                    kfC.get().median() / f.median())));
            out.add(sb.toString());
        }
        Optional<Result> kf50 = find(Harness.S5, "latency p50", Report::isStreamingMc1);
        Optional<Result> ck50 = find(Harness.S5, "latency p50", ContenderSpec::isCamelKafka);
        Optional<Result> kf99 = find(Harness.S5, "latency p99", Report::isStreamingMc1);
        Optional<Result> ck99 = find(Harness.S5, "latency p99", ContenderSpec::isCamelKafka);
        if (kf50.isPresent() && ck50.isPresent() && kf99.isPresent() && ck99.isPresent()) {
            double a = kf50.get().median() / ck50.get().median();
            double b = kf99.get().median() / ck99.get().median();
            out.add(String.format(Locale.ROOT, "S5 kafka-fetch mc=1 latency vs camel-kafka: p50 %.2f ms vs %.2f ms ="
                                               + " %.2fx (target ≤ 1x) %s; p99 %.2f ms vs %.2f ms = %.2fx (target ≤ 1x) %s",
                    kf50.get().median(), ck50.get().median(), a, verdict(a <= 1), kf99.get().median(),
                    ck99.get().median(), b, verdict(b <= 1)));
        }
        for (Result r : results) {
            if (r.scenario().equals(Harness.S7) && r.spec().isKafkaFetch() && r.metric().equals("records/s")) {
                double ideal = r.spec().maxConcurrency() * 1000.0 / cfg.s3SleepMs;
                double f = r.median() / ideal;
                Optional<Result> pc = find(Harness.S7, "records/s", s -> s.isParallelConsumer()
                                                                         && s.maxConcurrency()
                                                                            == r.spec().maxConcurrency()
                                                                         && s.ordering().equals(r.spec().ordering()));
                out.add(String.format(Locale.ROOT, "S7 %s: %,.0f rec/s = %.1f%% of ideal %,.0f (target ≥ 95%%) %s%s",
                        r.contender(), r.median(), 100 * f, ideal, verdict(f >= 0.95),
                        pc.map(p -> String.format(Locale.ROOT, "; Parallel Consumer %,.0f rec/s = %.1f%% of ideal"
                                                               + " (kafka-fetch %.2fx)",
                                p.median(), 100 * p.median() / ideal, r.median() / p.median())).orElse("")));
            }
        }
        for (int c : List.of(256)) {
            Optional<Result> kf = find(Harness.S3, "records/s",
                    s -> s.isKafkaFetch() && s.maxConcurrency() == c && "UNORDERED".equals(s.ordering()));
            Optional<Result> ck = find(Harness.S3, "records/s", ContenderSpec::isCamelKafka);
            Optional<Result> pc = find(Harness.S3, "records/s",
                    s -> s.isParallelConsumer() && s.maxConcurrency() == c && "UNORDERED".equals(s.ordering()));
            if (kf.isPresent()) {
                double ideal = c * 1000.0 / cfg.s3SleepMs;
                double f = kf.get().median() / ideal;
                StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                        "S3 kafka-fetch mc=%d UNORDERED: %,.0f rec/s = %.0f%% of ideal %,.0f (target ≥ 90%%) %s", c,
                        kf.get().median(), 100 * f, ideal, verdict(f >= 0.9)));
                ck.ifPresent(r -> {
                    double x = kf.get().median() / r.median();
                    sb.append(String.format(Locale.ROOT, "; vs camel-kafka: %.1fx (target ≥ 20x) %s", x,
                            verdict(x >= 20)));
                });
                pc.ifPresent(r -> {
                    double x = kf.get().median() / r.median();
                    sb.append(
                            String.format(Locale.ROOT, "; vs Parallel Consumer mc=%d UNORDERED: %.2fx (target ≥ 1x) %s",
                                    c, x, verdict(x >= 1)));
                });
                out.add(sb.toString());
            }
        }
        for (Result r : results) {
            if (r.scenario().equals(Harness.S4) && r.spec().isKafkaFetch() && r.metric().equals("max heap after GC")) {
                Optional<Result> inflight = find(Harness.S4, "max in-flight observed", s -> s.equals(r.spec()));
                Optional<Result> ck = find(Harness.S4, "max heap after GC", ContenderSpec::isCamelKafka);
                long bound = r.spec().maxInFlight();
                String sb = String.format(Locale.ROOT, "S4 %s: max live heap after GC %.1f MB", r.contender(),
                        r.median())
                            + ck.map(c -> String.format(Locale.ROOT, " (camel-kafka %.1f MB)", c.median())).orElse("")
                            + inflight.map(i -> String.format(Locale.ROOT,
                                    ", max in-flight observed %,.0f ≤ maxInFlightRecords %,d: %s",
                                    i.max(), bound, verdict(i.max() <= bound))).orElse("");
                out.add(sb);
            }
        }
        Optional<Result> kfStop = find(Harness.S6, "idle stop", ContenderSpec::isKafkaFetch);
        Optional<Result> ckStop = find(Harness.S6, "idle stop", ContenderSpec::isCamelKafka);
        kfStop.ifPresent(
                r -> out.add(String.format(Locale.ROOT, "S6 kafka-fetch idle stop: %.0f ms (target < 1000 ms) %s%s",
                        r.median(), verdict(r.median() < 1000),
                        ckStop.map(c -> String.format(Locale.ROOT, "; camel-kafka: %.0f ms", c.median())).orElse(""))));
        return out;
    }

    // ------------------------------------------------------------------------------------------ files

    String markdown(String plotName) {
        StringBuilder sb = new StringBuilder();
        sb.append("# camel-kafka-fetch benchmark results — ").append(when.toLocalDate()).append("\n\n");
        sb.append("* Run: ").append(when.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")))
                .append(cfg.smoke ? " (SMOKE)" : "")
                .append("\n");
        sb.append("* Machine: ").append(machine()).append("\n");
        sb.append("* Broker: ").append(broker).append("\n");
        sb.append("* Settings: ").append(cfg.describe()).append("\n");
        sb.append("* Versions: Camel 4.22.0 (camel-kafka 4.22.0), kafka-clients 4.3.1, Parallel Consumer 0.5.3.3"
                  + " (with kafka-clients 4.3.1)\n");
        sb.append("* Load average (1/5/15 min) at the start: ").append(loadBefore).append("; at the end: ")
                .append(loadAfter).append(" (").append(Runtime.getRuntime().availableProcessors())
                .append(" cores; the machine is shared with other builds)\n");
        sb.append("* Command: `benchmarks/run.sh` (reactor build, no install; see benchmarks/README.md)\n\n");
        sb.append(METHOD);
        List<String> t = targets();
        if (!t.isEmpty()) {
            sb.append("## Targets\n\n");
            t.forEach(line -> sb.append("* ").append(line).append('\n'));
            sb.append('\n');
        }
        Map<String, List<String[]>> byScenario = new LinkedHashMap<>();
        List<String[]> rows = rows();
        for (int i = 0; i < results.size(); i++) {
            byScenario.computeIfAbsent(results.get(i).scenario(), k -> new ArrayList<>()).add(rows.get(i));
        }
        for (Map.Entry<String, List<String[]>> e : byScenario.entrySet()) {
            sb.append("## ").append(e.getKey()).append("\n\n");
            String note = results.stream().filter(r -> r.scenario().equals(e.getKey())).map(Result::note).distinct()
                    .collect(Collectors.joining("; "));
            if (!note.isEmpty()) {
                sb.append("_").append(note).append("_\n\n");
            }
            sb.append("| contender | metric | median | unit | rounds min – max | slices p10 – p90 | vs camel-kafka"
                      + " | vs plain loop | records seen (min) |\n");
            sb.append("|---|---|--:|---|--:|--:|--:|--:|--:|\n");
            for (String[] row : e.getValue()) {
                sb.append("| ").append(String.join(" | ", List.of(row).subList(1, row.length))).append(" |\n");
            }
            sb.append('\n');
            if (e.getKey().equals(Harness.S3) && plotName != null) {
                sb.append("![records/s vs concurrency](").append(plotName).append(")\n\n");
            }
        }

        return sb.toString();
    }

    String csv() {
        StringBuilder sb = new StringBuilder(
                "date,machine,scenario,contender,kind,consumers,maxConcurrency,ordering,metric,unit,"
                                             + "median,min,max,rounds,values,slices_p10,slices_p90,expected,consumed,distinct,note\n");
        String machine = q(machine());
        for (Result r : results) {
            ContenderSpec s = r.spec();
            sb.append(String.join(",", when.toLocalDate().toString(), machine, q(r.scenario()), q(r.contender()),
                    s.kind(),
                    Integer.toString(s.consumers()), Integer.toString(s.maxConcurrency()), s.ordering(), q(r.metric()),
                    r.unit(),
                    num(r.median()), num(r.min()), num(r.max()), Integer.toString(r.values().size()),
                    q(r.values().stream().map(Report::num).collect(Collectors.joining(" "))),
                    num(Result.percentile(r.slices(), 10)), num(Result.percentile(r.slices(), 90)),
                    Long.toString(r.expected()), Long.toString(r.consumed()), Long.toString(r.distinct()), q(r.note())))
                    .append('\n');
        }
        return sb.toString();
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static String q(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    /** records/s vs concurrency for scenario 3, log-log, with the ideal line; false when there is nothing to plot. */
    boolean plotScenario3(Path png) throws IOException {
        List<Result> s3 = results.stream().filter(r -> r.scenario().equals(Harness.S3)).collect(Collectors.toList());
        if (s3.isEmpty()) {
            return false;
        }
        XYChart chart = new XYChartBuilder().width(900).height(600)
                .title("S3: 10 ms route, 4 partitions — records/s vs concurrency (" + when.toLocalDate() + ")")
                .xAxisTitle("concurrency (maxConcurrency; camel-kafka: consumersCount)").yAxisTitle("records/s")
                .build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setMarkerSize(8);
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        double maxX = 4;
        for (Result r : s3) {
            ContenderSpec s = r.spec();
            String name;
            double x;
            if (s.isCamelKafka()) {
                name = "camel-kafka (consumersCount)";
                x = s.consumers();
            } else {
                name = (s.isKafkaFetch() ? "kafka-fetch " : "parallel-consumer ") + s.ordering();
                x = s.maxConcurrency();
            }
            maxX = Math.max(maxX, x);
            series.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] { x, r.median() });
        }
        List<Double> ix = new ArrayList<>();
        List<Double> iy = new ArrayList<>();
        for (double x = 4; x <= maxX; x *= 2) {
            ix.add(x);
            iy.add(x * 1000.0 / cfg.s3SleepMs);
        }
        XYSeries ideal = chart.addSeries("ideal (concurrency / " + cfg.s3SleepMs + " ms)", ix, iy);
        ideal.setMarker(SeriesMarkers.NONE);
        ideal.setLineColor(Color.GRAY);
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            List<Double> xs = e.getValue().stream().map(p -> p[0]).collect(Collectors.toList());
            List<Double> ys = e.getValue().stream().map(p -> Math.max(1, p[1])).collect(Collectors.toList());
            chart.addSeries(e.getKey(), xs, ys);
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        return true;
    }

    /** Writes results-&lt;date&gt;.md/.csv and scenario3.png into {@code dir}; returns the files written. */
    List<Path> write(Path dir) throws IOException {
        Files.createDirectories(dir);
        String date = LocalDate.now().toString();
        List<Path> files = new ArrayList<>();
        Path png = dir.resolve("scenario3.png");
        boolean plotted = plotScenario3(png);
        if (plotted) {
            files.add(png);
        }
        Path md = dir.resolve("results-" + date + ".md");
        Files.writeString(md, markdown(plotted ? png.getFileName().toString() : null));
        files.add(md);
        Path csv = dir.resolve("results-" + date + ".csv");
        Files.writeString(csv, csv());
        files.add(csv);
        return files;
    }
}
