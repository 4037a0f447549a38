package dev.kafkafetch.reliability;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An append-only history file: every event is one line written with one {@code write} (O_APPEND), so whatever a
 * member logged before a SIGKILL is in the file, and events of concurrent threads never interleave within a line.
 * <p>
 * Every event carries two clocks: {@link #seq()}, a counter shared by everything in this JVM (a total order of the
 * events of one JVM, exact even within a microsecond), and {@link #micros()}, the wall clock in microseconds since the
 * epoch, which orders events of different JVMs on the same host.
 */
final class SoakHistoryLog implements AutoCloseable {

    private static final AtomicLong SEQ = new AtomicLong();

    private final FileOutputStream out;

    SoakHistoryLog(Path file) {
        try {
            this.out = new FileOutputStream(file.toFile(), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open history " + file, e);
        }
    }

    static long seq() {
        return SEQ.incrementAndGet();
    }

    static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    /** Appends one event line (a newline is added). */
    void write(String line) {
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (out) {
            try {
                out.write(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot append to the history", e);
            }
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            // nothing left to do
        }
    }
}
