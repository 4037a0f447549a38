package dev.kafkafetch.reliability;

/** One soak combination: its seed, the options and the schedule the generator derived from it. */
record SoakCase(long seed, SoakOptions options, SoakSchedule schedule) {
}
