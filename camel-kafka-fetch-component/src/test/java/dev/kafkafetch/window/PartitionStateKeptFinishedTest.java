package dev.kafkafetch.window;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A transacted seek back keeps the records finished from its offset on finished when they are polled again, also
 * across a second seek back before they were, and nothing below its offset or unfinished.
 */
class PartitionStateKeptFinishedTest {

    @Test
    void finishedRecordsFromTheSeekBackOnStayFinished() {
        PartitionState state = new PartitionState(new TopicPartition("t", 0), 0);
        long[] seq = new long[10];
        for (int i = 0; i < 10; i++) {
            seq[i] = state.append(i);
        }
        for (int o : new int[] { 0, 4, 5, 8 }) {
            state.finish(seq[o], state.generation());
        }
        state.keepFinishedFrom(3);
        state.rewind(3);
        assertThat(state.finishedBefore(4)).isTrue();
        assertThat(state.finishedBefore(5)).isTrue();
        assertThat(state.finishedBefore(8)).isTrue();
        assertThat(state.finishedBefore(3)).as("unfinished: runs again").isFalse();
        assertThat(state.finishedBefore(6)).isFalse();

        // a second seek back, lower, before 4, 5 and 8 were polled again: they stay kept
        state.keepFinishedFrom(2);
        state.rewind(2);
        assertThat(state.finishedBefore(4)).isTrue();
        assertThat(state.finishedBefore(8)).isTrue();
        assertThat(state.finishedBefore(2)).isFalse();
    }
}
