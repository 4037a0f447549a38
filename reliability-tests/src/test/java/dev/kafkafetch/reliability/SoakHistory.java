package dev.kafkafetch.reliability;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parsed history of one combination: every {@code *.history} file of its directory (one per member incarnation,
 * written by {@link SoakRoute} and {@link SoakTaskWatcher}, plus the harness's own), read incrementally so that the run
 * can follow progress while members still write. Only complete lines are read: a line torn by a SIGKILL (which one
 * write per event makes unlikely) is ignored.
 * <p>
 * Share groups add {@code A member seq micros n count} (a share consumer's poll handed record n over, on that delivery
 * count; {@link SoakShareClients}), {@code N member seq micros partition offset} (the broker refused an acknowledgement
 * of that record: {@link Refusal}), and every {@code P} line is kept as a {@link Report} (a rejected record is named
 * there).
 * <p>
 * Classic groups add {@code O member seq micros stage partition offset metadata}: a commit the broker accepted, and
 * {@code T member seq micros abort}: a transacted fetch task aborted its transaction ({@link SoakCommitLog}).
 * <p>
 * Harness events: {@code L member micros start child|in}, {@code L member micros stop|stopped|kill|suspend|resume|
 * final-stop}, {@code F micros broker-stop|broker-start b<index>}.
 */
final class SoakHistory {

    /** A point in time: the JVM-wide sequence number (exact within one JVM) and the wall clock (across JVMs). */
    record Clock(String jvm, long seq, long micros) {

        /** Negative, zero or positive as this is before, at, or after {@code o}. */
        int compare(Clock o) {
            if (jvm.equals(o.jvm) && seq > 0 && o.seq > 0) {
                return Long.compare(seq, o.seq);
            }
            return Long.compare(micros, o.micros);
        }

        static final Clock END_OF_TIME = new Clock("-", Long.MAX_VALUE, Long.MAX_VALUE);
    }

    /**
     * One record of an execution, named by where it was produced ({@code partition}, {@code offset}); {@code stage} 0
     * when it was read from the source topic, n when from retry topic n, at {@code retryPartition}/{@code retryOffset}.
     */
    record Start(String exec, String member, Clock at, String thread, int partition, long offset, int n, String key,
            int attempt, int batchSize, int stage, int retryPartition, long retryOffset) {

        boolean retried() {
            return stage > 0;
        }
    }

    /** @param reason the exception's class and message when the execution failed, else empty */
    record End(String exec, String member, Clock at, boolean ok, String reason) {
    }

    /** X (exception handler got the record) or R (an undeserializable record reached the route). */
    record RecordEvent(char type, String member, Clock at, int partition, long offset) {
    }

    record Assignment(String member, long micros, String task, int generation, String partitions) {
    }

    record Held(String member, long micros, String task, long held, int inFlight) {
    }

    record Life(String member, long micros, String what, String detail) {
    }

    /** A share consumer of {@code member} handed record {@code n} to its fetch task, on delivery {@code count}. */
    record Acquisition(String member, Clock at, int n, int count) {
    }

    /** A transacted fetch task of {@code member} aborted its transaction: its records are read again. */
    record Abort(String member, Clock at) {
    }

    /** The broker refused an acknowledgement (a renewal or an outcome) of {@code member}'s record partition@offset. */
    record Refusal(String member, Clock at, int partition, long offset) {
    }

    /**
     * A commit the broker accepted from {@code member}: {@code offset} of {@code partition} in the source topic (stage
     * 0) or retry topic {@code stage}, with the offset map in {@code metadata} ({@code -} for none).
     */
    record Commit(String member, Clock at, int stage, int partition, long offset, String metadata) {
    }

    /** What the consumer's exception handler was told without an exchange (its message, spaces as underscores). */
    record Report(String member, Clock at, String text) {
    }

    static final String HARNESS = "harness.history";
    /**
     * "Record [batch of N from ]topic-partition@offset failed N times (breakOnFirstErrorMaxAttempts|retryDelays); it
     * is skipped", or "... could not be deserialized; it is skipped" (breakOnFirstError or retryDelays without a
     * dead-letter topic). A batch is named by its first record.
     */
    private static final Pattern GIVEN_UP = Pattern.compile(
            "Record_(?:batch_of_\\d+_from_)?(\\S+?)-(\\d+)@(\\d+)_(?:failed_|could_not_be_deserialized).*skipped");
    private static final Pattern RETRY_STAGE = Pattern
            .compile(Pattern.quote(SoakOptions.RETRY_TOPIC_INFIX) + "(\\d+)$");

    /** A record given up without its exchange, where it was read: the source topic (stage 0) or retry topic n. */
    record GivenUp(String member, Clock at, int stage, int partition, long offset) {
    }

    final List<Start> starts = new ArrayList<>();
    final Map<String, End> ends = new HashMap<>();
    final List<RecordEvent> skips = new ArrayList<>();
    /** Records given up in a retry topic (named by their place there; the checker maps them to where they came from). */
    final List<GivenUp> retrySkips = new ArrayList<>();
    final List<RecordEvent> routedUndeserializable = new ArrayList<>();
    /**
     * {@code exec partition@offset} of every synchronous manual commit the route asked for: keyed by the execution, as
     * a record retried from a retry topic keeps its source partition and offset in the history.
     */
    final Set<String> manualCommits = new HashSet<>();
    /** Records whose synchronous commit() in the route returned (exec partition@offset). */
    final Set<String> committedByRoute = new HashSet<>();
    final List<Assignment> assignments = new ArrayList<>();
    final List<Held> held = new ArrayList<>();
    final List<Life> lives = new ArrayList<>();
    /** Share groups: every record a share consumer's poll handed over (a renewed one again, with the same count). */
    final List<Acquisition> acquisitions = new ArrayList<>();
    final List<Report> reports = new ArrayList<>();
    /** Share groups: every acknowledgement the broker refused. */
    final List<Refusal> refusals = new ArrayList<>();
    /** Transacted classic groups: every transaction a fetch task aborted. */
    final List<Abort> aborts = new ArrayList<>();
    /** Classic groups: every commit the broker accepted, in the order read (per member, in the order made). */
    final List<Commit> commits = new ArrayList<>();
    /** Which members are child JVMs (from the harness's start events). */
    final Map<String, Boolean> childMembers = new HashMap<>();

    private final Path dir;
    private final Map<Path, Long> read = new HashMap<>();

    SoakHistory(Path dir) {
        this.dir = dir;
    }

    /** Reads what was appended since the last call. */
    synchronized SoakHistory refresh() throws IOException {
        List<Path> paths = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.history")) {
            files.forEach(paths::add);
        }
        // the harness first: its start events say which members are child JVMs (whose clocks are their own)
        paths.sort((a, b) -> Boolean.compare(!a.endsWith(HARNESS), !b.endsWith(HARNESS)));
        for (Path f : paths) {
            long from = read.getOrDefault(f, 0L);
            try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "r")) {
                long length = raf.length();
                if (length <= from) {
                    continue;
                }
                byte[] bytes = new byte[(int) (length - from)];
                raf.seek(from);
                raf.readFully(bytes);
                int lastNewline = -1;
                for (int i = bytes.length - 1; i >= 0; i--) {
                    if (bytes[i] == '\n') {
                        lastNewline = i;
                        break;
                    }
                }
                if (lastNewline < 0) {
                    continue;
                }
                String text = new String(bytes, 0, lastNewline, StandardCharsets.UTF_8);
                for (String line : text.split("\n")) {
                    parse(line);
                }
                read.put(f, from + lastNewline + 1);
            }
        }
        return this;
    }

    private String jvm(String member) {
        return Boolean.TRUE.equals(childMembers.get(member)) ? member : "test";
    }

    private void parse(String line) {
        String[] f = line.split(" ");
        try {
            switch (f[0]) {
                case "S" -> starts.add(new Start(f[1], f[2], new Clock(jvm(f[2]), Long.parseLong(f[3]),
                        Long.parseLong(f[4])), f[5], Integer.parseInt(f[6]), Long.parseLong(f[7]),
                        Integer.parseInt(f[8]), f[9], Integer.parseInt(f[10]), Integer.parseInt(f[11]),
                        Integer.parseInt(f[12]), retryPartition(f[13]), retryOffset(f[13])));
                case "E" -> ends.put(f[1], new End(f[1], f[2], new Clock(jvm(f[2]), Long.parseLong(f[3]),
                        Long.parseLong(f[4])), "ok".equals(f[5]), f.length > 6 ? f[6] : ""));
                case "X", "R" -> {
                    RecordEvent e = new RecordEvent(f[0].charAt(0), f[1], new Clock(jvm(f[1]), Long.parseLong(f[2]),
                            Long.parseLong(f[3])), Integer.parseInt(f[4]), Long.parseLong(f[5]));
                    (e.type() == 'X' ? skips : routedUndeserializable).add(e);
                }
                case "C" -> manualCommits.add(f[6] + " " + f[4] + "@" + f[5]);
                case "K" -> committedByRoute.add(f[6] + " " + f[4] + "@" + f[5]);
                case "A" -> acquisitions.add(new Acquisition(f[1], new Clock(jvm(f[1]), Long.parseLong(f[2]),
                        Long.parseLong(f[3])), Integer.parseInt(f[4]), Integer.parseInt(f[5])));
                case "N" -> refusals.add(new Refusal(f[1], new Clock(jvm(f[1]), Long.parseLong(f[2]),
                        Long.parseLong(f[3])), Integer.parseInt(f[4]), Long.parseLong(f[5])));
                case "T" -> aborts.add(new Abort(f[1], new Clock(jvm(f[1]), Long.parseLong(f[2]),
                        Long.parseLong(f[3]))));
                case "O" -> commits.add(new Commit(f[1], new Clock(jvm(f[1]), Long.parseLong(f[2]),
                        Long.parseLong(f[3])), Integer.parseInt(f[4]), Integer.parseInt(f[5]), Long.parseLong(f[6]),
                        f[7]));
                case "P" -> {
                    reports.add(new Report(f[1], new Clock(jvm(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])),
                            f.length > 4 ? f[4] : ""));
                    Matcher m = GIVEN_UP.matcher(line);
                    if (m.find()) {
                        Clock at = new Clock(jvm(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]));
                        Matcher stage = RETRY_STAGE.matcher(m.group(1));
                        int partition = Integer.parseInt(m.group(2));
                        long offset = Long.parseLong(m.group(3));
                        if (stage.find()) {
                            retrySkips.add(new GivenUp(f[1], at, Integer.parseInt(stage.group(1)), partition, offset));
                        } else {
                            skips.add(new RecordEvent('X', f[1], at, partition, offset));
                        }
                    }
                }
                case "G" -> assignments.add(new Assignment(f[1], Long.parseLong(f[2]), f[3], Integer.parseInt(f[4]),
                        f[5]));
                case "H" -> held.add(new Held(f[1], Long.parseLong(f[2]), f[3], Long.parseLong(f[4]),
                        Integer.parseInt(f[5])));
                case "L" -> {
                    Life life = new Life(f[1], Long.parseLong(f[2]), f[3],
                            f.length > 4 ? String.join(" ", List.of(f).subList(4, f.length)) : "");
                    if ("start".equals(life.what())) {
                        childMembers.put(life.member(), "child".equals(life.detail()));
                    }
                    lives.add(life);
                }
                case "F" -> lives.add(new Life("-", Long.parseLong(f[1]), f[2], f.length > 3 ? f[3] : ""));
                default -> {
                }
            }
        } catch (RuntimeException e) {
            // a malformed line (cannot happen with one write per event): ignored
        }
    }

    private static int retryPartition(String at) {
        return "-".equals(at) ? -1 : Integer.parseInt(at.substring(0, at.indexOf('@')));
    }

    private static long retryOffset(String at) {
        return "-".equals(at) ? -1 : Long.parseLong(at.substring(at.indexOf('@') + 1));
    }

    /**
     * An operator's seek back ({@code operator-seek} line): partition {@code partition} of {@code member} sought back to
     * {@code offset} at {@code micros}, below {@code position} everything had been polled (or committed) then.
     */
    record OperatorSeek(String member, long micros, int partition, long offset, long position) {

        /** The records it may run once more: from the offset sought to, below the position then. */
        long span() {
            return Math.max(0, position - offset);
        }
    }

    /**
     * The operator's seeks backs that took effect, in the order they were made. Each one's position is at least one
     * past the highest offset of its partition that had started before it: the snapshot the harness read it from may
     * be a poll behind the seek.
     */
    List<OperatorSeek> operatorSeeks() {
        List<OperatorSeek> seeks = new ArrayList<>();
        for (Life l : lives) {
            if ("operator-seek".equals(l.what()) && l.detail().startsWith("p")) {
                String[] d = l.detail().split(" ");
                int partition = Integer.parseInt(d[0].substring(1));
                long position = Long.parseLong(d[2]);
                for (Start s : starts) {
                    if (!s.retried() && s.partition() == partition && s.at().micros() < l.micros()) {
                        position = Math.max(position, s.offset() + 1);
                    }
                }
                seeks.add(new OperatorSeek(l.member(), l.micros(), partition, Long.parseLong(d[1]), position));
            }
        }
        return seeks;
    }

    /** When {@code member} was SIGKILLed or its JVM ended after a stop (its unfinished executions end there), or -1. */
    long endOfMember(String member) {
        for (Life l : lives) {
            if (l.member().equals(member) && ("kill".equals(l.what())
                                              || "stopped".equals(l.what()) && childMembers.getOrDefault(member,
                                                      false))) {
                return l.micros();
            }
        }
        return -1;
    }
}
