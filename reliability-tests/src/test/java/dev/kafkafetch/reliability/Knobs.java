package dev.kafkafetch.reliability;

import java.util.Locale;

/**
 * The suite's size knobs, read from system properties so that one set of tests serves both the short CI run and the
 * long soak run. {@code reliability.profile} is {@code ci} (default) or {@code soak} (set by {@code -Psoak}); every
 * knob has a CI value and a soak value, and {@code -Dreliability.<name>=<n>} overrides either.
 */
final class Knobs {

    private Knobs() {
    }

    static boolean soak() {
        return "soak".equals(System.getProperty("reliability.profile", "ci").trim().toLowerCase(Locale.ROOT));
    }

    static String profile() {
        return soak() ? "soak" : "ci";
    }

    /** {@code reliability.<name>} if set, else {@code ci} or {@code soak} depending on the profile. */
    static int get(String name, int ci, int soak) {
        String v = System.getProperty("reliability." + name);
        if (v != null && !v.isBlank()) {
            return Integer.parseInt(v.trim());
        }
        return soak() ? soak : ci;
    }

    /** Seed of the random fault schedule; printed with every result so a failing run can be replayed. */
    static long seed() {
        String v = System.getProperty("reliability.seed");
        return v == null || v.isBlank() ? System.nanoTime() : Long.parseLong(v.trim());
    }
}
