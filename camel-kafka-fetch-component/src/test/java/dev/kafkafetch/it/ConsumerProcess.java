package dev.kafkafetch.it;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * A kafka-fetch route in its own JVM, for crash tests: the route appends each finished record id to a file with one
 * write per record (so the file survives SIGKILL), optionally sleeping per record, and optionally never finishing
 * one record (a stuck record). {@link #main} runs in the child; the static helpers start, kill and read it from the
 * test.
 */
public final class ConsumerProcess {

    private final Process process;
    private final Path log;

    private ConsumerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts a child JVM consuming {@code uri}, appending finished ids to {@code out}. */
    public static ConsumerProcess start(String uri, Path out, int sleepMs) throws IOException {
        return start(uri, out, sleepMs, "");
    }

    /** As {@link #start(String, Path, int)}, and the record whose id is {@code stuckId} never finishes. */
    public static ConsumerProcess start(String uri, Path out, int sleepMs, String stuckId) throws IOException {
        return start(uri, out, sleepMs, stuckId, 0);
    }

    /**
     * As {@link #start(String, Path, int, String)}, and the first delivery (attempt 1) of every record whose id's
     * hash is a multiple of {@code failFirstEvery} fails (0: none).
     */
    public static ConsumerProcess start(String uri, Path out, int sleepMs, String stuckId, int failFirstEvery)
            throws IOException {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        String cp = System.getProperty("java.class.path");
        Path log = Files.createTempFile("consumer-process", ".log");
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", cp, ConsumerProcess.class.getName(), uri,
                out.toString(), Integer.toString(sleepMs), stuckId, Integer.toString(failFirstEvery)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ConsumerProcess(p, log);
    }

    /** SIGKILL: no shutdown hook, no commit, no leave-group. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public String output() throws IOException {
        return Files.readString(log);
    }

    /** Every id the children wrote, in order, duplicates included. */
    public static List<String> finished(Path out) throws IOException {
        if (!Files.exists(out)) {
            return List.of();
        }
        List<String> ids = new ArrayList<>();
        for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                ids.add(line.trim());
            }
        }
        return ids;
    }

    public static Set<String> finishedSet(Path out) throws IOException {
        return new HashSet<>(finished(out));
    }

    public static void main(String[] args) throws Exception {
        String uri = args[0];
        FileOutputStream out = new FileOutputStream(args[1], true);
        int sleepMs = Integer.parseInt(args[2]);
        String stuckId = args.length > 3 ? args[3] : "";
        int failFirstEvery = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        CamelContext context = new DefaultCamelContext();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(exchange -> {
                    if (sleepMs > 0) {
                        Thread.sleep(sleepMs);
                    }
                    String id = exchange.getMessage().getBody(String.class);
                    if (!stuckId.isEmpty() && stuckId.equals(id)) {
                        Thread.sleep(Long.MAX_VALUE);
                    }
                    if (failFirstEvery > 0 && Math.floorMod(id.hashCode(), failFirstEvery) == 0
                        && exchange.getMessage().getHeader("CamelKafkaFetchDeliveryAttempt", 1, Integer.class) == 1) {
                        throw new IllegalStateException("the first delivery of " + id + " fails");
                    }
                    byte[] line = (exchange.getMessage().getBody(String.class) + "\n").getBytes(StandardCharsets.UTF_8);
                    synchronized (out) {
                        out.write(line);
                    }
                });
            }
        });
        context.start();
        Thread.currentThread().join();
    }
}
