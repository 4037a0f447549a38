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
    private static final long GRACE = 10_000;

    private final Object taskA = "A";
    private final Object taskB = "B";

    @Test
    void aPartitionPassedBetweenTasksDuringTheFirstAssignmentIsSoughtOnce() {
        FirstAssignment first = new FirstAssignment(2, null, GRACE);
        assertThat(first.assigned(taskA, List.of(P0, P1), 0)).containsExactly(P0, P1);
        // the second task joins: P1 moves to it, and back to the first task
        assertThat(first.assigned(taskB, List.of(P1), 1)).isEmpty();
        assertThat(first.assigned(taskA, List.of(P1), 2)).isEmpty();
    }

    @Test
    void nothingIsSoughtOnceEveryTaskWasGivenPartitionsOrStayedIdleForTheGrace() {
        FirstAssignment first = new FirstAssignment(2, null, GRACE);
        assertThat(first.assigned(taskA, List.of(P0), 0)).containsExactly(P0);
        assertThat(first.assigned(taskB, List.of(), 5)).isEmpty(); // the second task started idle
        // later takeovers (a member left, partitions were added) start at the committed offset
        assertThat(first.assigned(taskB, List.of(P1, P2), 5 + GRACE)).isEmpty();
    }

    @Test
    void aTaskWhoseFirstRebalanceBroughtNothingSeeksThePartitionsItIsGivenNext() {
        // the consumer protocol reconciles what the client can resolve first: nothing, then the topic's partitions
        FirstAssignment first = new FirstAssignment(1, null, GRACE);
        assertThat(first.assigned(taskA, List.of(), 0)).isEmpty();
        assertThat(first.assigned(taskA, List.of(P0, P1), 300)).containsExactly(P0, P1);
        assertThat(first.assigned(taskA, List.of(P0, P1, P2), 400)).as("given partitions: its part is over").isEmpty();
    }

    @Test
    void anIdleTasksFirstPartitionsAreSoughtOnlyWithinTheGrace() {
        FirstAssignment first = new FirstAssignment(2, null, GRACE);
        assertThat(first.assigned(taskA, List.of(), 0)).isEmpty();
        assertThat(first.assigned(taskB, List.of(P0), 100)).containsExactly(P0);
        assertThat(first.assigned(taskA, List.of(P1), GRACE - 1)).containsExactly(P1);
        FirstAssignment late = new FirstAssignment(2, null, GRACE);
        late.assigned(taskA, List.of(), 0);
        late.assigned(taskB, List.of(P0), 100);
        assertThat(late.assigned(taskA, List.of(P1), GRACE)).as("idle past the grace: a takeover").isEmpty();
    }

    @Test
    void aTaskGivenPartitionsSeeksNoTakeoverWhileASiblingIsWithinItsGrace() {
        FirstAssignment first = new FirstAssignment(2, null, GRACE);
        assertThat(first.assigned(taskA, List.of(), 0)).isEmpty(); // more tasks than partitions: A stays idle
        assertThat(first.assigned(taskB, List.of(P0), 100)).containsExactly(P0);
        // another member leaves soon after: B takes its partition over, at the committed offset
        assertThat(first.assigned(taskB, List.of(P0, P1), 200)).isEmpty();
    }

    @Test
    void aTaskThatJoinsLateStillSeeksPartitionsNoTaskHadYet() {
        FirstAssignment first = new FirstAssignment(2, null, GRACE);
        assertThat(first.assigned(taskA, List.of(P0), 0)).containsExactly(P0);
        assertThat(first.assigned(taskB, List.of(P2), GRACE * 3)).containsExactly(P2);
        assertThat(first.assigned(taskA, List.of(P1), GRACE * 3 + 1)).isEmpty();
    }

    @Test
    void retryTopicsAreNeverSought() {
        RetryPlan retries = new RetryPlan(List.of("orders"), new long[] { 1000 }, "{topic}.retry-{n}");
        TopicPartition retry = new TopicPartition("orders.retry-1", 0);
        FirstAssignment first = new FirstAssignment(1, retries, GRACE);
        assertThat(first.assigned(taskA, List.of(P0, retry), 0)).containsExactly(P0);
    }
}
