package dev.kafkafetch.reliability;

/** The outcome of one soak combination: its {@code SOAK ...} line, PASS or FAIL, and what the checker found. */
record SoakVerdict(long seed, String line, boolean pass, String details) {
}
