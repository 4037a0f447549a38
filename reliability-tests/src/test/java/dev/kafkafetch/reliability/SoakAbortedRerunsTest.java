package dev.kafkafetch.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A record a transacted member runs again after it aborted the record's transaction is a rerun by design; one run
 * again without an abort in between, or by another member, is not.
 */
class SoakAbortedRerunsTest {

    @TempDir
    Path dir;

    private final StringBuilder m0 = new StringBuilder();
    private final StringBuilder m1 = new StringBuilder();
    private long seq;

    @Test
    void aRecordRunAgainByItsMemberAfterAnAbortIsARerun() throws Exception {
        run(m0, "m0.0", 1, 0);
        m0.append("T m0.0 ").append(++seq).append(' ').append(micros(2)).append(" abort\n");
        run(m0, "m0.0", 3, 0);
        run(m0, "m0.0", 4, 1);
        assertThat(count()).isEqualTo(1);
    }

    @Test
    void aRecordRunAgainWithoutAnAbortOrByAnotherMemberIsNot() throws Exception {
        run(m0, "m0.0", 1, 0);
        run(m0, "m0.0", 2, 0); // no abort between the two runs
        m0.append("T m0.0 ").append(++seq).append(' ').append(micros(3)).append(" abort\n");
        run(m1, "m1.0", 4, 0); // another member: a rebalance, counted by the bound, not here
        assertThat(count()).isZero();
    }

    /** Record n (partition 0, offset n) run successfully by {@code member}, starting at second {@code s}. */
    private void run(StringBuilder to, String member, long s, int n) {
        String exec = member + "#" + ++seq;
        to.append("S ").append(exec).append(' ').append(member).append(' ').append(seq).append(' ').append(micros(s))
                .append(" worker 0 ").append(n).append(' ').append(n).append(" k0 1 1 0 -\n");
        to.append("E ").append(exec).append(' ').append(member).append(' ').append(++seq).append(' ')
                .append(micros(s) + 100).append(" ok\n");
    }

    private static long micros(long seconds) {
        return 1_000_000_000_000L + seconds * 1_000_000L;
    }

    private long count() throws Exception {
        Files.writeString(dir.resolve(SoakHistory.HARNESS), "");
        Files.writeString(dir.resolve("m0.0.history"), m0);
        Files.writeString(dir.resolve("m1.0.history"), m1);
        return SoakAbortedReruns.count(new SoakHistory(dir).refresh(),
                Map.of(0, new IdProducer.Position(0, 0), 1, new IdProducer.Position(0, 1)));
    }
}
