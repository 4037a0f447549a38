package dev.kafkafetch.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link SlowIoScenario} run in a child JVM on a Java 21+ runtime with Camel's virtual threads switched on
 * ({@code -Dcamel.threads.virtual.enabled=true}); the child prints one {@value #RESULT} line.
 */
final class SlowIoChild {

    static final String RESULT = "SLOW-IO-RESULT";

    private SlowIoChild() {
    }

    public static void main(String[] args) throws Exception {
        BenchMain.quietLogs();
        SlowIoScenario.Entry e = new SlowIoScenario.Entry(args[2], args[3], args[4], args[5]);
        int n = Integer.parseInt(args[6]);
        long sleepMs = Long.parseLong(args[7]);
        long records = Long.parseLong(args[8]);
        SlowIoRun.Measured m = SlowIoRun.measure(SlowIoScenario.create(e, n, sleepMs, args.length > 11 ? args[11] : ""),
                args[0], args[1],
                SlowIoScenario.work(e, records, sleepMs), Long.parseLong(args[9]), Long.parseLong(args[10]));
        System.out.println(RESULT + " " + m.rate() + " " + m.workerThreads() + " " + m.kafkaFetchWorkers() + " "
                           + m.meanRunning() + " " + m.meanInFlight() + " " + m.meanHeld() + " " + m.pauses() + " "
                           + m.cpuMicrosPerRecord() + " " + m.liveHeapMb());
        System.exit(0);
    }

    /**
     * More options for the child JVM from the environment's BENCH_CHILD_JVM, split at spaces (for a profile, e.g.
     * {@code -XX:StartFlightRecording=filename=/tmp/jfr/,settings=profile}); none when unset.
     */
    private static List<String> extraOptions() {
        String extra = System.getenv("BENCH_CHILD_JVM");
        return extra == null || extra.isBlank() ? List.of() : List.of(extra.trim().split("\\s+"));
    }

    /** Runs one entry in a child JVM on {@code java} and returns what it measured. */
    static SlowIoRun.Measured run(Path java, String bootstrap, String topic, SlowIoScenario.Entry e, int n,
                                  long sleepMs, long records, long settleMs, long windowMs, String kafkaFetchOptions)
            throws Exception {
        Path argFile = Files.createTempFile("bench-cp", ".args");
        try {
            Files.writeString(argFile, "-cp \"" + ChildJvm.classPath().replace("\\", "\\\\") + "\"\n");
            List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Dcamel.threads.virtual.enabled=true",
                    "-Xms1g", "-Xmx2g", "-XX:+UseG1GC"));
            cmd.addAll(extraOptions());
            cmd.addAll(List.of("@" + argFile, SlowIoChild.class.getName(), bootstrap, topic,
                    e.label(), e.kind(), e.route(), e.ordering(), Integer.toString(n), Long.toString(sleepMs),
                    Long.toString(records), Long.toString(settleMs), Long.toString(windowMs), kafkaFetchOptions));
            Process proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String result = null;
            Deque<String> tail = new ArrayDeque<>();
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith(RESULT)) {
                        result = line;
                    } else {
                        tail.addLast(line);
                        if (tail.size() > 40) {
                            tail.removeFirst();
                        }
                    }
                }
            }
            if (!proc.waitFor(5, TimeUnit.MINUTES)) {
                proc.destroyForcibly();
            }
            if (result == null) {
                throw new IllegalStateException("Java 21+ run of " + e.label() + " at N=" + n + " failed:\n"
                                                + String.join("\n", tail));
            }
            String[] p = result.split(" ");
            return new SlowIoRun.Measured(Double.parseDouble(p[1]), Integer.parseInt(p[2]), Integer.parseInt(p[3]),
                    Double.parseDouble(p[4]), Double.parseDouble(p[5]), Double.parseDouble(p[6]), Long.parseLong(p[7]),
                    Double.parseDouble(p[8]), Double.parseDouble(p[9]));
        } finally {
            Files.deleteIfExists(argFile);
        }
    }
}
