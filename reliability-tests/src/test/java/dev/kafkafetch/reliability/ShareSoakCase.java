package dev.kafkafetch.reliability;

/** One share-group soak combination: its seed, the options and the schedule {@link ShareSoakGenerator} derived. */
record ShareSoakCase(long seed, ShareSoakOptions options, SoakSchedule schedule) {

    /** The same combination as the soak route and the harness see it (see {@link ShareSoakOptions#routeOptions()}). */
    SoakCase routeCase() {
        return new SoakCase(seed, options.routeOptions(), schedule);
    }

    /**
     * How much longer than a classic one it may drain: a killed member's records come back when their locks run out,
     * and so may those whose locks a broker restart lost.
     */
    long drainMs() {
        long slow = schedule.plan().special().values().stream()
                .filter(b -> b.kind() == SoakRecordPlan.Kind.SLOW_LOCK).mapToLong(SoakRecordPlan.Behaviour::param)
                .sum();
        return slow + (long) options.lockMs() * (2 + schedule.count(SoakFault.Kind.KILL)
                                                 + schedule.count(SoakFault.Kind.BROKER));
    }

    /**
     * After how long without a delivery or an execution nothing more will happen: longer than a record outliving its
     * lock runs (1.5 locks) or a killed member's lock lasts, plus 5 s.
     */
    long quietMs() {
        return options.lockMs() * 3L / 2 + 5000;
    }
}
