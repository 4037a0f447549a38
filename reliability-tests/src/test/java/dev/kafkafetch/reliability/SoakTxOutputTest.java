package dev.kafkafetch.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A transacted combination's output check: a completed record must be in the output once; a duplicate output fails
 * even when the route's own re-runs are allowed; a dead-lettered record may be missing; an output of a record no
 * execution completed fails.
 */
class SoakTxOutputTest {

    @TempDir
    Path dir;

    private final StringBuilder member = new StringBuilder();
    private int seq;

    @Test
    void eachCompletedRecordOnceInTheOutput() throws Exception {
        execution("m0.0#1", 0, true);
        execution("m0.0#2", 1, true);
        execution("m0.0#3", 1, true); // re-run in the route after an abort: allowed
        execution("m0.0#4", 2, false); // dead-lettered: no output expected
        SoakTxOutput.Check ok = check(Map.of(0, 1, 1, 1), List.of(letter(2)));
        assertThat(ok.passed()).isTrue();
        assertThat(ok.dups()).isZero();
    }

    @Test
    void duplicatesLostAndUnroutedOutputsFail() throws Exception {
        execution("m0.0#1", 0, true);
        execution("m0.0#2", 1, true);
        execution("m0.0#3", 2, false);
        SoakTxOutput.Check c = check(Map.of(0, 2, 2, 1), List.of());
        assertThat(c.passed()).isFalse();
        assertThat(c.dups()).isEqualTo(1);
        assertThat(c.lost()).isEqualTo(1); // record 1 completed, not in the output
        assertThat(c.unrouted()).isEqualTo(1); // record 2 never completed, yet written
        assertThat(c.examples()).contains("0 0@0 dup2", "1 0@1 lost", "2 0@2 unrouted");
    }

    private SoakTxOutput.Check check(Map<Integer, Integer> counts, List<SoakDeadLetters.DeadLetter> dead)
            throws Exception {
        Files.writeString(dir.resolve(SoakHistory.HARNESS), "");
        Files.writeString(dir.resolve("m0.0.history"), member);
        Map<Integer, IdProducer.Position> produced = new HashMap<>();
        Map<IdProducer.Position, Integer> byPosition = new HashMap<>();
        for (int n = 0; n < 3; n++) {
            produced.put(n, new IdProducer.Position(0, n));
            byPosition.put(new IdProducer.Position(0, n), n);
        }
        SoakOptions o = SoakGenerator.generate(1).options(); // a transacted combination
        assertThat(o.transacted()).isTrue();
        SoakOutcomes out = new SoakOutcomes(o, new SoakHistory(dir).refresh(), byPosition, dead, List.of());
        return SoakTxOutput.check(new SoakTxOutput.Read(counts, 0, true, ""), out, produced);
    }

    private static SoakDeadLetters.DeadLetter letter(int offset) {
        return new SoakDeadLetters.DeadLetter(0, offset, "failed", "t.dlt", 0, offset);
    }

    private void execution(String exec, int offset, boolean ok) {
        long micros = 1_000_000_000_000L + offset * 1000L;
        member.append("S ").append(exec).append(" m0.0 ").append(++seq).append(' ').append(micros).append(" worker 0 ")
                .append(offset).append(' ').append(offset).append(" k").append(offset).append(" 1 1 0 -\n");
        member.append("E ").append(exec).append(" m0.0 ").append(++seq).append(' ').append(micros + 100).append(' ')
                .append(ok ? "ok" : "fail x").append('\n');
    }
}
