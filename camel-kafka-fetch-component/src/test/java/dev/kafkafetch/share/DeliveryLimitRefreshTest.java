package dev.kafkafetch.share;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An unknown delivery limit counts every delivery from the lowest possible limit on as last; the background reads
 * happen only when due, one at a time, off the calling thread's hands; a failed read keeps a limit once read.
 */
class DeliveryLimitRefreshTest {

    private final DeliveryLimit limit = new DeliveryLimit();
    private final AtomicInteger answer = new AtomicInteger(-1);
    private final AtomicInteger reads = new AtomicInteger();
    private final DeliveryLimitRefresh refresh = new DeliveryLimitRefresh("t", "g", 5, limit, () -> {
        reads.incrementAndGet();
        if (answer.get() < 0) {
            throw new IllegalStateException("unreadable");
        }
        return answer.get();
    });
    private final List<Runnable> executor = new ArrayList<>();

    @Test
    void unknownMeansTheLowestPossibleLimit() {
        refresh.readNow(0);
        assertThat(limit.isKnown()).isFalse();
        assertThat(limit.value()).isEqualTo(DeliveryLimit.LOWEST_POSSIBLE);
        assertThat(limit.isLast(1)).isFalse();
        assertThat(limit.isLast(2)).isTrue();
    }

    @Test
    void readInTheBackgroundWhenDueAndKeptWhenAReadFails() {
        refresh.readNow(0);
        refresh.maybeRefresh(DeliveryLimitRefresh.UNKNOWN_EVERY_MS - 1, executor::add);
        assertThat(executor).as("not due yet").isEmpty();

        answer.set(4);
        refresh.maybeRefresh(DeliveryLimitRefresh.UNKNOWN_EVERY_MS, executor::add);
        refresh.maybeRefresh(2 * DeliveryLimitRefresh.UNKNOWN_EVERY_MS, executor::add);
        assertThat(executor).as("one read at a time").hasSize(1);
        assertThat(limit.isKnown()).as("the caller never reads itself").isFalse();
        executor.remove(0).run();
        assertThat(limit.value()).isEqualTo(4);
        assertThat(limit.isLast(3)).isFalse();

        answer.set(-1);
        refresh.maybeRefresh(DeliveryLimitRefresh.UNKNOWN_EVERY_MS + DeliveryLimitRefresh.KNOWN_EVERY_MS,
                executor::add);
        executor.remove(0).run();
        assertThat(reads.get()).isEqualTo(3);
        assertThat(limit.value()).as("a failed read keeps what was read").isEqualTo(4);
    }
}
