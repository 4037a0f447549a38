package dev.kafkafetch.task;

import java.util.List;

import dev.kafkafetch.error.RetryPlan;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FirstAssignmentTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);
    private static final TopicPartition P2 = new TopicPartition("orders", 2);

    @Test
    void aPartitionPassedBetweenTasksDuringTheFirstAssignmentIsSoughtOnce() {
        FirstAssignment first = new FirstAssignment(2, null);
        assertThat(first.assigned(List.of(P0, P1), true)).containsExactly(P0, P1);
        // the second task joins: P1 moves to it, and back to the first task
        assertThat(first.assigned(List.of(P1), true)).isEmpty();
        assertThat(first.assigned(List.of(P1), false)).isEmpty();
    }

    @Test
    void nothingIsSoughtOnceEveryTaskCompletedItsFirstRebalanceEvenWithoutPartitions() {
        FirstAssignment first = new FirstAssignment(2, null);
        assertThat(first.assigned(List.of(P0), true)).containsExactly(P0);
        assertThat(first.assigned(List.of(), true)).isEmpty(); // the second task started idle
        // later takeovers (a member left, partitions were added) start at the committed offset
        assertThat(first.assigned(List.of(P1, P2), false)).isEmpty();
    }

    @Test
    void aTaskThatJoinsLateStillSeeksPartitionsNoTaskHadYet() {
        FirstAssignment first = new FirstAssignment(2, null);
        assertThat(first.assigned(List.of(P0), true)).containsExactly(P0);
        assertThat(first.assigned(List.of(P2), true)).containsExactly(P2);
        assertThat(first.assigned(List.of(P1), false)).isEmpty();
    }

    @Test
    void retryTopicsAreNeverSought() {
        RetryPlan retries = new RetryPlan(List.of("orders"), new long[] { 1000 }, "{topic}.retry-{n}");
        TopicPartition retry = new TopicPartition("orders.retry-1", 0);
        FirstAssignment first = new FirstAssignment(1, retries);
        assertThat(first.assigned(List.of(P0, retry), true)).containsExactly(P0);
    }
}
