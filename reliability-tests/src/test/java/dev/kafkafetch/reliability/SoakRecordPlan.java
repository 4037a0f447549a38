package dev.kafkafetch.reliability;

import java.util.Map;
import java.util.TreeMap;

/**
 * Which records (by their number n, the int value of the record) misbehave, and how. Every member derives the same
 * plan from the seed, so a record behaves the same wherever it runs. Records not in the plan are healthy.
 */
record SoakRecordPlan(Map<Integer, Behaviour> special) {

    enum Kind {
        /** The route throws on every execution. */
        FAIL_ALWAYS,
        /** The route throws on the first {@code param} executions in a JVM, then succeeds. */
        FAIL_N,
        /** The value is 3 bytes: the IntegerDeserializer cannot read it. */
        UNDESERIALIZABLE,
        /** The first execution in a JVM sleeps {@code param} ms: beyond stallTimeoutMs. */
        SLOW_STALL,
        /** The first execution in a JVM sleeps {@code param} ms: beyond maxPollIntervalMs. */
        SLOW_POLL,
        /** The first execution in a JVM sleeps {@code param} ms: beyond a share group's acquisition lock. */
        SLOW_LOCK,
        /**
         * The first execution in a JVM sleeps {@code param} ms: the operator's record ({@link #OPERATOR_RECORD}),
         * produced by the harness at an OPERATOR_PARK fault and parked while it runs.
         */
        SLOW_PARK
    }

    /** The number of the record an OPERATOR_PARK fault produces and parks (the load never gets this far). */
    static final int OPERATOR_RECORD = 1_000_000;

    record Behaviour(Kind kind, int param) {
    }

    Behaviour of(int n) {
        return special.get(n);
    }

    /** This plan with {@link #OPERATOR_RECORD} running {@code sleepMs} on its first execution, to be parked. */
    SoakRecordPlan withParkable(int sleepMs) {
        Map<Integer, Behaviour> more = new java.util.HashMap<>(special);
        more.put(OPERATOR_RECORD, new Behaviour(Kind.SLOW_PARK, sleepMs));
        return new SoakRecordPlan(Map.copyOf(more));
    }

    int count(Kind kind) {
        int c = 0;
        for (Behaviour b : special.values()) {
            if (b.kind() == kind) {
                c++;
            }
        }
        return c;
    }

    /** Records the route never finishes successfully by design (they end in the dead-letter topic or are skipped). */
    int alwaysFailing() {
        return count(Kind.FAIL_ALWAYS) + count(Kind.UNDESERIALIZABLE);
    }

    int slow() {
        return count(Kind.SLOW_STALL) + count(Kind.SLOW_POLL) + count(Kind.SLOW_LOCK) + count(Kind.SLOW_PARK);
    }

    /** e.g. {@code failAlways:2,failN2:1,undeser:3,slowStall2500:1}. */
    String describe() {
        Map<String, Integer> counts = new TreeMap<>();
        for (Behaviour b : special.values()) {
            String name = switch (b.kind()) {
                case FAIL_ALWAYS -> "failAlways";
                case FAIL_N -> "fail" + b.param() + "x";
                case UNDESERIALIZABLE -> "undeser";
                case SLOW_STALL -> "slowStall" + b.param();
                case SLOW_POLL -> "slowPoll" + b.param();
                case SLOW_LOCK -> "slowLock" + b.param();
                case SLOW_PARK -> "parkable" + b.param();
            };
            counts.merge(name, 1, Integer::sum);
        }
        StringBuilder sb = new StringBuilder();
        counts.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ",").append(k).append(':').append(v));
        return sb.toString();
    }
}
