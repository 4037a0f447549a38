package dev.kafkafetch.reliability;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a killed member finished at or above its partition's last commit before the kill is re-delivered by design;
 * what it finished below it, what another member finished, and what it finished under a commit made after the kill
 * is not counted.
 */
class SoakKilledUncommittedTest {

    @TempDir
    Path dir;

    private final StringBuilder m0 = new StringBuilder();
    private final StringBuilder m1 = new StringBuilder();
    private long seq;

    @Test
    void recordsAKilledMemberFinishedAboveTheCommittedOffsetAreReDelivered() throws Exception {
        run(m0, "m0.0", 1, 0);
        run(m0, "m0.0", 1, 1);
        commit(m0, "m0.0", 2, 1); // offset 0 committed: read again from 1
        run(m0, "m0.0", 3, 2);
        run(m1, "m1.0", 3, 3); // another member's record
        String harness = "L m0.0 " + micros(4) + " kill\n";
        commit(m1, "m1.0", 5, 3); // after the kill: the group read 1 and 2 again all the same
        assertThat(count(harness)).isEqualTo(2);
        assertThat(count("")).as("without a kill").isZero();
    }

    private void run(StringBuilder to, String member, long s, long offset) {
        String exec = member + "#" + ++seq;
        to.append("S ").append(exec).append(' ').append(member).append(' ').append(seq).append(' ').append(micros(s))
                .append(" worker 0 ").append(offset).append(' ').append(offset).append(" k0 1 1 0 -\n");
        to.append("E ").append(exec).append(' ').append(member).append(' ').append(++seq).append(' ')
                .append(micros(s) + 100).append(" ok\n");
    }

    private void commit(StringBuilder to, String member, long s, long offset) {
        to.append("O ").append(member).append(' ').append(++seq).append(' ').append(micros(s)).append(" 0 0 ")
                .append(offset).append(" -\n");
    }

    private static long micros(long seconds) {
        return 1_000_000_000_000L + seconds * 1_000_000L;
    }

    private long count(String harness) throws Exception {
        Files.writeString(dir.resolve(SoakHistory.HARNESS), harness);
        Files.writeString(dir.resolve("m0.0.history"), m0);
        Files.writeString(dir.resolve("m1.0.history"), m1);
        return SoakKilledUncommitted.count(new SoakHistory(dir).refresh());
    }
}
