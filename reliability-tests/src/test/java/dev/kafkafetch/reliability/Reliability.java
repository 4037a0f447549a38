package dev.kafkafetch.reliability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The verdict of one scenario run: compares the ids the route finished with the ids produced, prints the one
 * {@code RELIABILITY ...} line (also appended to {@code -Dreliability.reportFile}), and asserts lost = 0 and
 * duplicates within the stated bound. When something is lost it prints every lost id with its partition@offset and
 * the scenario's diagnostics (consumer state, committed vs end offsets) before failing.
 */
final class Reliability {

    private final String scenario;
    private final String variant;
    private final Map<String, IdProducer.Position> produced;
    private final List<Finish> finished;
    private int faults;
    private long bound = Long.MAX_VALUE;
    private String boundText = "none";
    private Supplier<String> diagnostics = () -> "";
    private String note = "";

    private Reliability(String scenario, String variant, Map<String, IdProducer.Position> produced,
                        List<Finish> finished) {
        this.scenario = scenario;
        this.variant = variant;
        this.produced = produced;
        this.finished = finished;
    }

    static Reliability of(String scenario, String variant, Map<String, IdProducer.Position> produced,
                          List<Finish> finished) {
        return new Reliability(scenario, variant, produced, finished);
    }

    Reliability faults(int n) {
        this.faults = n;
        return this;
    }

    /** The promised duplicate bound: its formula (with the numbers filled in) and its value. */
    Reliability dupBound(String formula, long value) {
        this.bound = value;
        this.boundText = formula + "=" + value;
        return this;
    }

    Reliability diagnostics(Supplier<String> diagnostics) {
        this.diagnostics = diagnostics;
        return this;
    }

    /** Extra facts appended to the line (after dupBound), e.g. the seed. */
    Reliability note(String note) {
        this.note = note;
        return this;
    }

    /** Records finished more than once, counting each extra finish. */
    static int duplicates(Collection<Finish> finished) {
        Map<String, Integer> counts = new HashMap<>();
        int dups = 0;
        for (Finish f : finished) {
            if (counts.merge(f.id(), 1, Integer::sum) > 1) {
                dups++;
            }
        }
        return dups;
    }

    void verify() {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (Finish f : finished) {
            seen.add(f.id());
        }
        Map<String, IdProducer.Position> lost = new TreeMap<>();
        produced.forEach((id, pos) -> {
            if (!seen.contains(id)) {
                lost.put(id, pos);
            }
        });
        int dups = duplicates(finished);
        List<String> unexpected = new ArrayList<>();
        for (String id : seen) {
            if (!produced.containsKey(id)) {
                unexpected.add(id);
            }
        }
        String line = "RELIABILITY scenario=" + scenario + " variant=" + variant + " records=" + produced.size()
                      + " faults=" + faults + " lost=" + lost.size() + " duplicated=" + dups + " dupBound="
                      + boundText + (note.isEmpty() ? "" : " " + note);
        System.out.println(line);
        appendToReport(line);
        if (!unexpected.isEmpty()) {
            System.out.println("  finished ids that were not acknowledged as produced (failed sends that landed): "
                               + unexpected.size() + " " + unexpected.subList(0, Math.min(20, unexpected.size())));
        }
        if (dups > 0) {
            // name the re-delivered records: id, partition@offset and every time it finished
            Map<String, List<Long>> times = new TreeMap<>();
            for (Finish f : finished) {
                times.computeIfAbsent(f.id(), k -> new ArrayList<>()).add(f.atMs());
            }
            StringBuilder sb = new StringBuilder("  duplicated (id partition@offset finishedAt...):");
            times.entrySet().stream().filter(e -> e.getValue().size() > 1).limit(20).forEach(e -> sb.append("\n    ")
                    .append(e.getKey()).append(' ').append(produced.get(e.getKey())).append(' ')
                    .append(e.getValue().stream().map(Reliability::clock).toList()));
            System.out.println(sb);
            if (dups > bound) {
                appendToReport(sb.toString());
            }
        }
        if (!lost.isEmpty()) {
            StringBuilder sb = new StringBuilder();
            sb.append("LOST ").append(lost.size()).append(" record(s) in scenario ").append(scenario)
                    .append(" variant ")
                    .append(variant).append(" (id -> partition@offset):\n");
            lost.entrySet().stream().limit(200).forEach(e -> sb.append("  ").append(e.getKey()).append(" -> ")
                    .append(e.getValue()).append('\n'));
            sb.append(diagnostics.get());
            System.out.println(sb);
            appendToReport(sb.toString());
        }
        assertThat(lost).as("records lost in %s %s", scenario, variant).isEmpty();
        assertThat((long) dups).as("duplicates in %s %s (bound %s)", scenario, variant, boundText)
                .isLessThanOrEqualTo(bound);
    }

    private static String clock(long epochMs) {
        return java.time.LocalTime.ofInstant(java.time.Instant.ofEpochMilli(epochMs), java.time.ZoneId.systemDefault())
                .toString();
    }

    /** Appends to the suite's report file ({@code -Dreliability.reportFile}), if one is configured. */
    static void appendToReport(String text) {
        String file = System.getProperty("reliability.reportFile");
        if (file == null || file.isBlank()) {
            return;
        }
        try {
            Path path = Path.of(file);
            Files.createDirectories(path.toAbsolutePath().getParent());
            Files.writeString(path, text + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.err.println("cannot append to " + file + ": " + e);
        }
    }
}
