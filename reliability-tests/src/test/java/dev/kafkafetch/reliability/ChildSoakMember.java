package dev.kafkafetch.reliability;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A soak member in a JVM of its own ({@link SoakChildMain}), so that it can be SIGKILLed. The test JVM steers it
 * through its standard input (one command a line: suspend, resume, stop, dump); its output goes to a log file.
 */
final class ChildSoakMember implements SoakMember {

    private final String name;
    private final Process process;
    private final Path log;

    private ChildSoakMember(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    static ChildSoakMember start(String name, long seed, String uri, Path history, Path log) throws IOException {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        List<String> cmd = List.of(java, "-Xmx192m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
                SoakChildMain.class.getName(), Long.toString(seed), name, history.toString(), uri);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new ChildSoakMember(name, p, log);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean child() {
        return true;
    }

    Path log() {
        return log;
    }

    boolean alive() {
        return process.isAlive();
    }

    private void command(String command) {
        try {
            OutputStream in = process.getOutputStream();
            in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        } catch (IOException e) {
            // the child is gone; the history says what it did
        }
    }

    @Override
    public void stop() {
        command("stop");
        try {
            if (!process.waitFor(40, TimeUnit.SECONDS)) {
                command("dump");
                Thread.sleep(500);
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("child " + name + " (pid " + process.pid() + ") did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void suspend() {
        command("suspend");
    }

    @Override
    public void resume() {
        command("resume");
    }

    @Override
    public String threadDump() {
        command("dump");
        return "  (child " + name + " pid " + process.pid() + " wrote its kafka-fetch threads to " + log + ")\n";
    }
}
