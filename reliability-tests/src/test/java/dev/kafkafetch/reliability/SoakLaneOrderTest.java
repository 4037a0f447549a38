package dev.kafkafetch.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stalled record's lane moves on once the component counts it stalled, from the moment it handed the record to the
 * route, a little before the route logs its start: seed 644372720638159251 (stallTimeoutMs 1500) moved on 1,494 ms
 * after the logged start of its first exchange in a fresh child JVM. A lane that moves on well before the stall
 * timeout is still an overlap.
 */
class SoakLaneOrderTest {

    private static final SoakOptions OPTIONS = SoakGenerator.generate(644372720638159251L).options();

    @TempDir
    Path dir;

    @Test
    void aLaneMovingOnAsTheStallTimeoutEndsIsExcused() throws Exception {
        assertThat(OPTIONS.stallTimeoutMs()).isEqualTo(1500);
        assertThat(overlapsWhenTheNextStartsAfterMs(1494)).isZero();
        assertThat(overlapsWhenTheNextStartsAfterMs(1000)).isEqualTo(1);
    }

    private int overlapsWhenTheNextStartsAfterMs(long ms) throws Exception {
        long t0 = 1_000_000_000_000L;
        long next = t0 + ms * 1000;
        String history = "S m0.1#1 m0.1 1 " + t0 + " worker 1 201 641 k0 1 1 0 -\n"
                         + "S m0.1#2 m0.1 2 " + next + " worker 1 202 642 k0 1 1 0 -\n"
                         + "E m0.1#2 m0.1 3 " + (next + 10) + " ok\n"
                         + "E m0.1#1 m0.1 4 " + (t0 + 2_520_000) + " ok\n";
        Files.writeString(dir.resolve(SoakHistory.HARNESS), "");
        Files.writeString(dir.resolve("m0.1.history"), history);
        SoakLaneOrder order = new SoakLaneOrder(OPTIONS, new SoakHistory(dir).refresh(),
                Map.of(new IdProducer.Position(1, 201), 641, new IdProducer.Position(1, 202), 642), Set.of());
        return order.overlaps(new ArrayList<>());
    }
}
