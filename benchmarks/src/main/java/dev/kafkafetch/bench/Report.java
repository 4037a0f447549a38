package dev.kafkafetch.bench;

import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
import java.util.function.BiPredicate;
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

    private final List<String> failures;

    Report(List<Result> results, BenchConfig cfg, String broker, String loadBefore) {
        this(results, cfg, broker, loadBefore, List.of());
    }

    /**
     * @param loadBefore the machine's load average when the run started ({@link #loadAverage()})
     * @param failures   the scenarios that failed, each with why
     */
    Report(List<Result> results, BenchConfig cfg, String broker, String loadBefore, List<String> failures) {
        this.results = results;
        this.cfg = cfg;
        this.broker = broker;
        this.loadBefore = loadBefore;
        this.failures = failures;
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

    /** The paired ratio of {@code r} to the first other result of the same scenario, metric, route and keys. */
    private String ratio(Result r, BiPredicate<ContenderSpec, ContenderSpec> which) {
        return results.stream().filter(o -> o != r && o.scenario().equals(r.scenario()) && o.metric().equals(r.metric())
                                            && o.spec().sameRun(r.spec()) && which.test(r.spec(), o.spec()))
                .findFirst().map(ref -> Headlines.ratio(r, ref).text()).orElse("");
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
            boolean routed = List.of(Harness.S1, Harness.S2, Harness.S3, Harness.S7).contains(r.scenario());
            rows.add(new String[] { r.scenario().substring(0, 2), r.contender(), routed ? r.spec().route().id() : "",
                r.spec().keys(),
                r.metric(), fmt(r.median()), r.unit(), spread(r), slices(r), ratio(r, Headlines::camelKafkaFor),
                ratio(r, (s, o) -> o.isPlainLoop()),
                r.consumed() < 0 ? "" : r.consumed() + (r.distinct() >= 0 ? " (" + r.distinct() + " distinct)" : "") });
        }
        return rows;
    }

    /** The method section of every results file (a resource beside this class, so the prose is not in the code). */
    static final String METHOD = method();

    private static String method() {
        try (var in = Report.class.getResourceAsStream("method.md")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("method.md is missing beside " + Report.class.getName(), e);
        }
    }

    private static final String[] HEADER = { "S", "contender", "route", "keys", "metric", "median", "unit",
        "rounds min – max", "slices p10 – p90", "vs camel-kafka [95% CI]", "vs plain loop [95% CI]",
        "records seen (min)" };

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
            boolean right = i == 5 || i == 7 || i == 8;
            String cell = right ? " ".repeat(w[i] - row[i].length()) + row[i]
                    : row[i] + " ".repeat(w[i] - row[i].length());
            sb.append(cell).append("  ");
        }
        sb.setLength(sb.length() - 2);
        sb.append('\n');
    }

    List<String> targets() {
        return new Headlines(results, cfg).targets();
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
        sb.append("* Code measured: commit ").append(commit()).append("\n");
        sb.append("* Command: `benchmarks/run.sh").append(cfg.arguments.isEmpty() ? "" : " " + cfg.arguments)
                .append("` (reactor build, no install; see benchmarks/README.md)\n");
        failures.forEach(f -> sb.append("* **Failed, no figures:** ").append(f).append('\n'));
        sb.append('\n');
        sb.append(METHOD);
        List<String> t = targets();
        if (!t.isEmpty()) {
            sb.append("## Targets\n\n");
            t.forEach(line -> sb.append("* ").append(line).append('\n'));
            sb.append('\n');
        }
        List<String[]> key = new Headlines(results, cfg).keyCost();
        if (!key.isEmpty()) {
            sb.append("## What KEY ordering costs against UNORDERED\n\n");
            sb.append("| S | contender | route | keys | KEY rec/s | UNORDERED rec/s | KEY / UNORDERED [95% CI] |\n");
            sb.append("|---|---|---|---|--:|--:|--:|\n");
            key.forEach(row -> sb.append("| ").append(String.join(" | ", row)).append(" |\n"));
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
            sb.append("| ").append(String.join(" | ", List.of(HEADER).subList(1, HEADER.length))).append(" |\n");
            sb.append("|---|---|---|---|--:|---|--:|--:|--:|--:|--:|\n");
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

    /** One line per result; every text field quoted, so a comma in a label or a note shifts no column. */
    String csv() {
        StringBuilder sb = new StringBuilder(
                "date,commit,machine,scenario,contender,kind,consumers,maxConcurrency,ordering,route,keys,metric,unit,"
                                             + "median,min,max,rounds,values,slices_p10,slices_p90,expected,consumed,"
                                             + "distinct,seed,note\n");
        String machine = q(machine());
        String commit = q(commit());
        for (Result r : results) {
            ContenderSpec s = r.spec();
            sb.append(String.join(",", when.toLocalDate().toString(), commit, machine, q(r.scenario()),
                    q(r.contender()), q(s.kind()), Integer.toString(s.consumers()),
                    Integer.toString(s.maxConcurrency()),
                    q(s.ordering()), q(s.route().id()), q(s.keys()), q(r.metric()), q(r.unit()), num(r.median()),
                    num(r.min()), num(r.max()), Integer.toString(r.values().size()),
                    q(r.values().stream().map(Report::num).collect(Collectors.joining(" "))),
                    num(Result.percentile(r.slices(), 10)), num(Result.percentile(r.slices(), 90)),
                    Long.toString(r.expected()), Long.toString(r.consumed()), Long.toString(r.distinct()),
                    Long.toString(cfg.seed), q(r.note())))
                    .append('\n');
        }
        return sb.toString();
    }

    /**
     * The commit the run measured: {@code -Dbench.commit} (run.sh sets it), else {@code git rev-parse HEAD} in the
     * working directory; "+ uncommitted changes" when the work tree differs from it.
     */
    static String commit() {
        String c = System.getProperty("bench.commit");
        if (c != null && !c.isBlank()) {
            return c;
        }
        try {
            String head = git("rev-parse", "HEAD");
            return head.isEmpty() ? "unknown"
                    : head + (git("status", "--porcelain", "--untracked-files=no").isEmpty() ? ""
                            : " + uncommitted changes");
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    private static String git(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return p.waitFor() == 0 ? out : "";
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    static String q(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    /** records/s vs concurrency for scenario 3, log-log, with the ideal line; false when there is nothing to plot. */
    boolean plotScenario3(Path png) throws IOException {
        List<Result> all = results.stream().filter(r -> r.scenario().equals(Harness.S3)
                                                        && r.metric().equals(Harness.RATE)
                                                        && "cyclic".equals(r.spec().keys()))
                .collect(Collectors.toList());
        if (all.isEmpty()) {
            return false;
        }
        RouteVariant route = all.get(0).spec().route();
        List<Result> s3 = all.stream().filter(r -> r.spec().route() == route).collect(Collectors.toList());
        XYChart chart = new XYChartBuilder().width(900).height(600)
                .title("S3: 10 ms route (" + route.id() + "), 4 partitions, cyclic keys — records/s vs concurrency ("
                       + when.toLocalDate() + ")")
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
