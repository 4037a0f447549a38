package dev.kafkafetch.reliability;

import java.util.Locale;

/**
 * One scheduled fault of a soak combination, {@code atMs} after production started.
 *
 * @param target     the member slot (KILL, RESTART, SUSPEND, JOIN, LEAVE and the operator's actions) or the broker
 *                   index (BROKER)
 * @param durationMs how long the member stays down (KILL, RESTART), suspended (SUSPEND), the broker stopped (BROKER) or
 *                   the partition paused (PAUSE_PARTITION); 0 for JOIN, LEAVE, OPERATOR_SEEK and OPERATOR_PARK
 */
record SoakFault(Kind kind, long atMs, int target, long durationMs) {

    enum Kind {
        /** SIGKILL of a child-JVM member, started again (a new JVM) after durationMs. */
        KILL,
        /** Graceful stop of a member (CamelContext stop / child told to stop), started again after durationMs. */
        RESTART,
        /** Route suspend, then resume after durationMs (no rebalance expected). */
        SUSPEND,
        /** One broker of the 3-broker cluster stopped, started again after durationMs. */
        BROKER,
        /** A member slot that is not running starts. */
        JOIN,
        /** A running member stops for good (gracefully). */
        LEAVE,
        /**
         * An operator pauses one partition the member holds ({@code KafkaFetchConsumer.pausePartition}, in-process
         * members only) and resumes it after durationMs; no rebalance expected.
         */
        PAUSE_PARTITION,
        /**
         * An operator seeks a partition an in-process member holds back to a little before its committed offset
         * ({@code KafkaFetchConsumer.seekPartition}): what it had polled since runs again, committed or not.
         */
        OPERATOR_SEEK,
        /**
         * An operator parks a record running on a partition the member holds ({@code KafkaFetchConsumer.parkRecord},
         * in-process members only; the harness produces it): dead-lettered with reason {@code parked}, its lane moves
         * on while its execution still runs.
         */
        OPERATOR_PARK
    }

    /** True when the fault changes the group's membership or its coordinator, so it may explain a rebalance. */
    boolean changesMembership() {
        return kind != Kind.SUSPEND && !byOperator();
    }

    /** True for an operator's action on one member's partition (pause, seek, park). */
    boolean byOperator() {
        return kind == Kind.PAUSE_PARTITION || kind == Kind.OPERATOR_SEEK || kind == Kind.OPERATOR_PARK;
    }

    String describe() {
        String name = switch (kind) {
            case PAUSE_PARTITION -> "opause";
            case OPERATOR_SEEK -> "oseek";
            case OPERATOR_PARK -> "opark";
            default -> kind.name().toLowerCase(Locale.ROOT);
        };
        String who = kind == Kind.BROKER ? "b" + target : "m" + target;
        return name + "(" + who + "@" + seconds(atMs) + (durationMs > 0 ? "+" + seconds(durationMs) : "") + ")";
    }

    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
}
