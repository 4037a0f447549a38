package dev.kafkafetch.deadletter;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * Which dead letters an operator means: every field that is set must match (null or -1 = any). Texts match
 * case-insensitively, {@code exception} as a part of the exception class or message; offsets and times are inclusive
 * ranges. {@code limit} bounds how many letters are taken (0 = no bound), in dead-letter topic order.
 *
 * @param originalOffsetFrom the first original offset taken (-1 = any)
 * @param originalOffsetTo   the last original offset taken (-1 = any)
 * @param since              letters written at or after it (null = any)
 * @param until              letters written at or before it (null = any)
 */
public record DeadLetterFilter(
        String originalTopic,
        int originalPartition,
        long originalOffsetFrom,
        long originalOffsetTo,
        String reason,
        String exception,
        Instant since,
        Instant until,
        int limit) {

    /** Every letter. */
    public static final DeadLetterFilter ALL = new DeadLetterFilter(null, -1, -1, -1, null, null, null, null, 0);

    /**
     * A filter from {@code name=value} pairs separated by {@code ,} or {@code &} (for JMX and HTTP): {@code topic},
     * {@code partition}, {@code fromOffset}, {@code toOffset}, {@code offset} (both), {@code reason}, {@code exception},
     * {@code since}, {@code until} (ISO-8601 or epoch ms), {@code limit}. Blank means {@link #ALL}.
     *
     * @throws IllegalArgumentException naming an unknown field or a bad value
     */
    public static DeadLetterFilter parse(String text) {
        DeadLetterFilter f = ALL;
        if (text == null || text.isBlank()) {
            return f;
        }
        for (String pair : text.split("[,&]")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("Not a filter field: '" + pair + "' (name=value)");
            }
            String name = pair.substring(0, eq).trim();
            String value = pair.substring(eq + 1).trim();
            try {
                f = switch (name) {
                    case "topic" -> f.with(value, f.originalPartition, f.originalOffsetFrom, f.originalOffsetTo,
                            f.reason, f.exception, f.since, f.until, f.limit);
                    case "partition" -> f.with(f.originalTopic, Integer.parseInt(value), f.originalOffsetFrom,
                            f.originalOffsetTo, f.reason, f.exception, f.since, f.until, f.limit);
                    case "fromOffset" -> f.with(f.originalTopic, f.originalPartition, Long.parseLong(value),
                            f.originalOffsetTo, f.reason, f.exception, f.since, f.until, f.limit);
                    case "toOffset" -> f.with(f.originalTopic, f.originalPartition, f.originalOffsetFrom,
                            Long.parseLong(value), f.reason, f.exception, f.since, f.until, f.limit);
                    case "offset" -> f.with(f.originalTopic, f.originalPartition, Long.parseLong(value),
                            Long.parseLong(value), f.reason, f.exception, f.since, f.until, f.limit);
                    case "reason" -> f.with(f.originalTopic, f.originalPartition, f.originalOffsetFrom,
                            f.originalOffsetTo, value, f.exception, f.since, f.until, f.limit);
                    case "exception" -> f.with(f.originalTopic, f.originalPartition, f.originalOffsetFrom,
                            f.originalOffsetTo, f.reason, value, f.since, f.until, f.limit);
                    case "since" -> f.with(f.originalTopic, f.originalPartition, f.originalOffsetFrom,
                            f.originalOffsetTo, f.reason, f.exception, time(value), f.until, f.limit);
                    case "until" -> f.with(f.originalTopic, f.originalPartition, f.originalOffsetFrom,
                            f.originalOffsetTo, f.reason, f.exception, f.since, time(value), f.limit);
                    case "limit" -> f.with(f.originalTopic, f.originalPartition, f.originalOffsetFrom,
                            f.originalOffsetTo, f.reason, f.exception, f.since, f.until, Integer.parseInt(value));
                    default -> throw new IllegalArgumentException("Unknown dead-letter filter field '" + name
                                                                  + "' (topic, partition, fromOffset, toOffset,"
                                                                  + " offset, reason, exception, since, until, limit)");
                };
            } catch (NumberFormatException | DateTimeParseException e) {
                throw new IllegalArgumentException("Bad value for dead-letter filter field " + name + ": " + value);
            }
        }
        return f;
    }

    /** True when the letter matches every field set. */
    public boolean matches(DeadLetter l) {
        return (originalTopic == null || originalTopic.equals(l.originalTopic()))
               && (originalPartition < 0 || originalPartition == l.originalPartition())
               && (originalOffsetFrom < 0 || l.originalOffset() >= originalOffsetFrom)
               && (originalOffsetTo < 0 || l.originalOffset() >= 0 && l.originalOffset() <= originalOffsetTo)
               && (reason == null || reason.equalsIgnoreCase(l.reason()))
               && (exception == null || contains(l.exceptionClass(), exception)
                   || contains(l.exceptionMessage(), exception))
               && (since == null || l.timestamp() >= since.toEpochMilli())
               && (until == null || l.timestamp() <= until.toEpochMilli());
    }

    /** The fields set, as {@link #parse} reads them; {@code all} when none is. */
    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(",");
        if (originalTopic != null) {
            j.add("topic=" + originalTopic);
        }
        if (originalPartition >= 0) {
            j.add("partition=" + originalPartition);
        }
        if (originalOffsetFrom >= 0) {
            j.add("fromOffset=" + originalOffsetFrom);
        }
        if (originalOffsetTo >= 0) {
            j.add("toOffset=" + originalOffsetTo);
        }
        if (reason != null) {
            j.add("reason=" + reason);
        }
        if (exception != null) {
            j.add("exception=" + exception);
        }
        if (since != null) {
            j.add("since=" + since);
        }
        if (until != null) {
            j.add("until=" + until);
        }
        if (limit > 0) {
            j.add("limit=" + limit);
        }
        return j.length() == 0 ? "all" : j.toString();
    }

    private DeadLetterFilter with(String topic, int partition, long from, long to, String reason, String exception,
                                  Instant since, Instant until, int limit) {
        return new DeadLetterFilter(topic, partition, from, to, reason, exception, since, until, limit);
    }

    private static boolean contains(String text, String part) {
        return text != null && text.toLowerCase(Locale.ROOT).contains(part.toLowerCase(Locale.ROOT));
    }

    private static Instant time(String value) {
        return value.chars().allMatch(Character::isDigit) ? Instant.ofEpochMilli(Long.parseLong(value))
                : Instant.parse(value);
    }
}
