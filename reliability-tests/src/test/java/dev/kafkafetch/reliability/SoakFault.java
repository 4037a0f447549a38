package dev.kafkafetch.reliability;

import java.util.Locale;

/**
 * One scheduled fault of a soak combination, {@code atMs} after production started.
 *
 * @param target     the member slot (KILL, RESTART, SUSPEND, JOIN, LEAVE, PAUSE_PARTITION) or the broker index (BROKER)
 * @param durationMs how long the member stays down (KILL, RESTART), suspended (SUSPEND), the broker stopped (BROKER) or
 *                   the partition paused (PAUSE_PARTITION); 0 for JOIN and LEAVE
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
        PAUSE_PARTITION
    }

    /** True when the fault changes the group's membership or its coordinator, so it may explain a rebalance. */
    boolean changesMembership() {
        return kind != Kind.SUSPEND && kind != Kind.PAUSE_PARTITION;
    }

    String describe() {
        String name = kind == Kind.PAUSE_PARTITION ? "opause" : kind.name().toLowerCase(Locale.ROOT);
        String who = kind == Kind.BROKER ? "b" + target : "m" + target;
        return name + "(" + who + "@" + seconds(atMs) + (durationMs > 0 ? "+" + seconds(durationMs) : "") + ")";
    }

    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
}
