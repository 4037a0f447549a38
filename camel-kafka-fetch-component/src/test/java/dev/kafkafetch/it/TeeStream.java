package dev.kafkafetch.it;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Captures what a test's components print (slf4j-simple logs to {@code System.err}) while still printing it. */
public final class TeeStream {

    private TeeStream() {
    }

    /** A stream writing to both {@code original} and {@code copy}. */
    public static PrintStream tee(PrintStream original, OutputStream copy) {
        return new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                original.write(b);
                synchronized (copy) {
                    try {
                        copy.write(b);
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }

            @Override
            public void write(byte[] b, int off, int len) {
                original.write(b, off, len);
                synchronized (copy) {
                    try {
                        copy.write(b, off, len);
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }

            @Override
            public void flush() {
                original.flush();
            }
        }, true, StandardCharsets.UTF_8);
    }
}
