package dev.kafkafetch.bench;

/**
 * One consumer implementation under test. A contender is started once per run with a fresh consumer group that reads
 * the topic from the beginning, and stopped cleanly before the next run.
 */
interface Contender {

    /**
     * Starts consuming {@code topic} in group {@code groupId}, handing every record to {@code work}. Returns once
     * consuming has been started (the group may not have assigned partitions yet). {@link #startNanos()} is the
     * moment just before the consumer itself was started (after any framework set-up such as a CamelContext).
     */
    void start(String bootstrap, String topic, String groupId, Work work) throws Exception;

    /** {@code System.nanoTime()} just before the consuming part was started. */
    long startNanos();

    /**
     * Stops consuming and releases everything.
     *
     * @return nanoseconds the consumer itself took to stop (route stop, loop exit and close, PC close), excluding the
     *         teardown of the surrounding framework
     */
    long stop() throws Exception;

    /** Current records in flight inside the contender's window, or -1 when it does not expose one. */
    default long inFlight() {
        return -1;
    }

    /** Records in the contender's processing code now (kafka-fetch: running in the route), or -1 when unknown. */
    default long running() {
        return -1;
    }

    /**
     * kafka-fetch: records held since the committable offsets, finished or not (what maxInFlightRecords bounds), or -1
     * when unknown.
     */
    default long held() {
        return -1;
    }

    /** kafka-fetch: back-pressure pauses so far (a full window paused the partitions), or -1 when unknown. */
    default long backPressurePauses() {
        return -1;
    }

    /**
     * Records this contender has written to its output topic that a {@code read_committed} reader can see (the sum of
     * the output partitions' last stable offsets, commit markers included), or -1 when it writes nothing.
     */
    default long committedOutputs() throws Exception {
        return -1;
    }
}
