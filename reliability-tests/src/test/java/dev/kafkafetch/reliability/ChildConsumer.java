package dev.kafkafetch.reliability;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * A kafka-fetch route in a JVM of its own, so that it can be killed with SIGKILL: no shutdown hook, no commit, no
 * leave-group. The route sleeps {@code sleepMs} per record, then appends {@code "<id> <epoch ms>\n"} to the output
 * file with a single write (O_APPEND), so every record it finished survives the kill. The child also dies when the test
 * JVM that started it dies, so a crashed or timed-out test leaves no consumer behind.
 */
final class ChildConsumer {

    private final Process process;
    private final Path log;

    private ChildConsumer(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts a child JVM running {@code uri}; its output goes to {@code log}. */
    static ChildConsumer start(String uri, Path out, int sleepMs, Path log) throws IOException {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx192m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), ChildConsumer.class.getName(), uri, out.toString(),
                Integer.toString(sleepMs)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new ChildConsumer(p, log);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, then waits for the process to be gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("child consumer " + process.pid() + " did not die");
        }
    }

    Path log() {
        return log;
    }

    /** Every record the children finished, in file order, duplicates included. */
    static List<Finish> read(Path out) throws IOException {
        List<Finish> list = new ArrayList<>();
        if (!Files.exists(out)) {
            return list;
        }
        for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            int sp = line.indexOf(' ');
            if (sp <= 0) {
                continue; // a torn last line cannot happen with one write per record, but be lenient
            }
            try {
                list.add(new Finish(line.substring(0, sp), Long.parseLong(line.substring(sp + 1).trim())));
            } catch (NumberFormatException e) {
                // ignore a partial line
            }
        }
        return list;
    }

    public static void main(String[] args) throws Exception {
        String uri = args[0];
        FileOutputStream out = new FileOutputStream(args[1], true);
        int sleepMs = Integer.parseInt(args[2]);
        ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
        Thread watchdog = new Thread(() -> {
            while (true) {
                if (parent == null || !parent.isAlive()) {
                    Runtime.getRuntime().halt(3);
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        CamelContext context = new DefaultCamelContext();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("child").process(exchange -> {
                    if (sleepMs > 0) {
                        Thread.sleep(sleepMs);
                    }
                    String id = exchange.getMessage().getBody(String.class);
                    byte[] line = (id + " " + System.currentTimeMillis() + "\n").getBytes(StandardCharsets.UTF_8);
                    synchronized (out) {
                        out.write(line);
                    }
                });
            }
        });
        context.start();
        System.out.println("child consumer started, pid " + ProcessHandle.current().pid());
        Thread.currentThread().join();
    }
}
