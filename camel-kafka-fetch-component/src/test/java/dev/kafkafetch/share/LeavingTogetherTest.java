package dev.kafkafetch.share;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LeavingTogetherTest {

    private final LeavingTogether together = new LeavingTogether();
    private final Object idle = "idle";
    private final Object holder = "holder";

    @Test
    void anIdleFetcherClosesWhenItsEmptyPollBeganAfterTheLastGiveBack() throws Exception {
        joinBoth();
        long seen = together.fetching(idle);
        together.beginGiveBack(holder, 0); // renewals cannot wait
        assertThat(together.mayClose(idle, seen)).as("a give-back under way").isFalse();
        together.endGiveBack();
        assertThat(together.mayClose(idle, seen)).as("its poll began before the give-back").isFalse();
        assertThat(together.mayClose(idle, together.fetching(idle))).isTrue();
    }

    @Test
    void aGiveBackWaitsUntilTheIdleFetchersHaveClosed() throws Exception {
        joinBoth();
        together.fetching(idle);
        CompletableFuture<Long> gaveBackAt = giveBackAsync();
        Thread.sleep(100);
        assertThat(gaveBackAt).as("waits while a sibling's client may acquire").isNotDone();
        long leftAt = System.nanoTime();
        together.left(idle, () -> {
        });
        assertThat(gaveBackAt.get(10, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(leftAt);
        together.endGiveBack();
    }

    @Test
    void anIdleFetcherThatTookRecordsInNoLongerHoldsUpAGiveBack() throws Exception {
        joinBoth();
        together.fetching(idle);
        together.busy(idle); // its poll brought records: its fetch has stopped
        long before = System.currentTimeMillis();
        together.beginGiveBack(holder, before + 30_000);
        assertThat(System.currentTimeMillis() - before).isLessThan(10_000);
        together.endGiveBack();
    }

    @Test
    void aGiveBackWaitsForASiblingNotYetKnownToHoldRecords() throws Exception {
        joinBoth(); // the stop has not reached the idle one's fetch thread yet: it has said nothing
        CompletableFuture<Long> gaveBackAt = giveBackAsync();
        Thread.sleep(100);
        assertThat(gaveBackAt).as("waits while a sibling's client may acquire").isNotDone();
        long saidAt = System.nanoTime();
        together.busy(idle); // it turns out to hold records: its client fetches nothing
        assertThat(gaveBackAt.get(10, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(saidAt);
        together.endGiveBack();
    }

    @Test
    void askingAgainDoesNotMakeABusyTaskOneThatMayAcquire() throws Exception {
        joinBoth();
        together.busy(idle);
        together.join(); // the next task's stop request
        long before = System.currentTimeMillis();
        together.beginGiveBack(holder, before + 30_000);
        assertThat(System.currentTimeMillis() - before).isLessThan(10_000);
        together.endGiveBack();
    }

    @Test
    void aGiveBackWaitsNoLongerThanItsDeadline() throws Exception {
        joinBoth();
        together.fetching(idle);
        long before = System.currentTimeMillis();
        together.beginGiveBack(holder, before + 200);
        assertThat(System.currentTimeMillis() - before).isBetween(150L, 10_000L);
        together.endGiveBack();
    }

    @Test
    void aTaskLeavingOnItsOwnWaitsForNobody() throws Exception {
        together.member(idle, () -> true);
        together.member(holder, () -> false); // its client closed before the stop reached it
        together.join();
        together.fetching(idle);
        long before = System.currentTimeMillis();
        together.beginGiveBack(holder, before + 30_000);
        assertThat(System.currentTimeMillis() - before).isLessThan(10_000);
        long seen = together.fetching(holder);
        assertThat(together.mayClose(holder, seen)).isTrue();
        together.endGiveBack();
    }

    @Test
    void leftRunsItsForgetUnderTheLock() {
        together.member(idle, () -> true);
        together.join();
        StringBuilder forgot = new StringBuilder();
        together.left(idle, () -> forgot.append("client dropped"));
        assertThat(forgot).hasToString("client dropped");
        assertThat(together.mayClose(idle, -1)).as("no longer leaving with others").isTrue();
    }

    /** Both are tasks of the route with open clients, and a stop asks them to leave. */
    private void joinBoth() {
        together.member(idle, () -> true);
        together.member(holder, () -> true);
        together.join();
    }

    /** The holder begins a give-back on another thread; completes with the time it began. */
    private CompletableFuture<Long> giveBackAsync() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                together.beginGiveBack(holder, System.currentTimeMillis() + 30_000);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return System.nanoTime();
        });
    }
}
