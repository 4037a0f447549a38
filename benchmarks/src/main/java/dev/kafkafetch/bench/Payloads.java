package dev.kafkafetch.bench;

import java.util.Arrays;

/** Record values of a fixed size; latency records carry their send time ({@code System.nanoTime()}) up front. */
final class Payloads {

    private Payloads() {
    }

    /** A value of exactly {@code size} ASCII characters (bytes). */
    static String filler(int size) {
        char[] c = new char[size];
        for (int i = 0; i < size; i++) {
            c[i] = (char) ('a' + (i % 26));
        }
        return new String(c);
    }

    /** "&lt;nanos&gt;|xxxx..." padded to {@code size} bytes. */
    static String timed(long nanos, int size) {
        String head = nanos + "|";
        if (head.length() >= size) {
            return head;
        }
        char[] pad = new char[size - head.length()];
        Arrays.fill(pad, 'x');
        return head + new String(pad);
    }

    static long sendNanos(String value) {
        int bar = value.indexOf('|');
        return Long.parseLong(value, 0, bar, 10);
    }
}
