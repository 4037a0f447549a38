package dev.kafkafetch.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Scenario 4's child JVMs: one {@link MemoryProbe} per contender and round, with this JVM's class path. */
final class ChildJvm {

    private ChildJvm() {
    }

    /** Runs the probe and returns the key/value pairs of its RESULT line. */
    static Map<String, String> runProbe(ContenderSpec spec, String bootstrap, String topic, int partitions,
                                        long records, String xmx, String group, boolean verify,
                                        String camelKafkaExtra)
            throws Exception {
        Path argFile = Files.createTempFile("bench-cp", ".args");
        try {
            Files.writeString(argFile, "-cp \"" + classPath().replace("\\", "\\\\") + "\"\n");
            String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
            List<String> cmd = new ArrayList<>(List.of(java, "-Xmx" + xmx, "-XX:+UseG1GC", "@" + argFile,
                    MemoryProbe.class.getName(), bootstrap, topic, Integer.toString(partitions),
                    Long.toString(records), spec.toArg(), group, Boolean.toString(verify), camelKafkaExtra));
            Process proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            Map<String, String> result = new HashMap<>();
            Deque<String> tail = new ArrayDeque<>();
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith(MemoryProbe.RESULT)) {
                        for (String kv : line.substring(MemoryProbe.RESULT.length()).trim().split(" ")) {
                            int eq = kv.indexOf('=');
                            result.put(kv.substring(0, eq), kv.substring(eq + 1));
                        }
                    } else {
                        tail.addLast(line);
                        if (tail.size() > 40) {
                            tail.removeFirst();
                        }
                    }
                }
            }
            if (!proc.waitFor(10, TimeUnit.MINUTES)) {
                proc.destroyForcibly();
            }
            if (proc.exitValue() != 0 || !result.containsKey("consumed")) {
                throw new IllegalStateException("Memory probe for " + spec.label() + " failed (exit " + proc.exitValue()
                                                + "):\n" + String.join("\n", tail));
            }
            return result;
        } finally {
            Files.deleteIfExists(argFile);
        }
    }

    /** The class path of this JVM (surefire sets the real one in java.class.path with useManifestOnlyJar=false). */
    static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        if (cp == null || cp.isBlank()) {
            cp = System.getProperty("java.class.path");
        }
        return cp;
    }
}
