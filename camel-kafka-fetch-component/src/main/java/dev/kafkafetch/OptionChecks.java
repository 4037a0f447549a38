package dev.kafkafetch;

import java.util.Properties;
import java.util.Set;

/** The checks every option goes through when a route starts; each message names the option and its value. */
final class OptionChecks {

    private OptionChecks() {
    }

    static String required(String option, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("kafka-fetch option " + option + " is required");
        }
        return value.trim();
    }

    /** A value that must be set and above zero. */
    static long positive(String option, Number value) {
        if (value == null) {
            throw new IllegalArgumentException("kafka-fetch option " + option + " must be set");
        }
        if (value.longValue() <= 0) {
            throw new IllegalArgumentException("kafka-fetch option " + option + " must be positive, was " + value);
        }
        return value.longValue();
    }

    /** A value that may be unset (null) but never below zero. */
    static void notNegative(String option, Number value) {
        if (value != null && value.doubleValue() < 0) {
            throw new IllegalArgumentException("kafka-fetch option " + option + " must not be negative, was " + value);
        }
    }

    /** The value, trimmed and in the letter case of {@code allowed}, when it is one of them (ignoring case). */
    static String oneOf(String option, String value, Set<String> allowed) {
        String v = value == null ? null : allowed.stream().filter(a -> a.equalsIgnoreCase(value.trim())).findFirst()
                .orElse(null);
        if (v == null) {
            throw new IllegalArgumentException("kafka-fetch option " + option + " must be one of " + allowed + ", was "
                                               + value);
        }
        return v;
    }

    static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /** Puts a client setting unless the value is null or an empty text. */
    static void putIfSet(Properties p, String key, Object value) {
        if (value != null && !(value instanceof String s && s.isEmpty())) {
            p.put(key, value instanceof String ? value : String.valueOf(value));
        }
    }
}
