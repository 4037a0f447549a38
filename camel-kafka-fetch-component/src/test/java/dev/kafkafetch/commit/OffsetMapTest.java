package dev.kafkafetch.commit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import dev.kafkafetch.window.FinishedOffsets;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OffsetMapTest {

    /** A partition state holding {@code polled} offsets (ascending), of which {@code finished} are finished. */
    private static PartitionState state(List<Long> polled, TreeSet<Long> finished) {
        PartitionState s = new PartitionState(new TopicPartition("t", 0), -1);
        List<long[]> seqs = new ArrayList<>();
        for (long offset : polled) {
            seqs.add(new long[] { offset, s.append(offset) });
        }
        for (long[] p : seqs) {
            if (finished.contains(p[0])) {
                s.finish(p[1], s.generation());
            }
        }
        return s;
    }

    /**
     * Property: for random polled offsets (with gaps) and a random finished subset, the map of a commit at the first
     * unfinished offset decodes to exactly the finished offsets above it.
     */
    @RepeatedTest(300)
    void roundTripsRandomFinishedSets() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        List<Long> polled = new ArrayList<>();
        long offset = random.nextInt(1_000_000);
        int n = 1 + random.nextInt(3000);
        for (int i = 0; i < n; i++) {
            offset += 1 + (random.nextInt(8) == 0 ? random.nextInt(100) : 0);
            polled.add(offset);
        }
        double density = random.nextDouble();
        TreeSet<Long> finished = new TreeSet<>();
        for (long o : polled.subList(1, polled.size())) { // the first stays unfinished: it is the commit's offset
            if (random.nextDouble() < density) {
                finished.add(o);
            }
        }
        PartitionState s = state(polled, finished);
        long base = s.commitOffset(true);
        if (finished.isEmpty()) {
            assertThat(base).as("nothing finished: nothing to commit").isEqualTo(-1);
            assertThat(OffsetMap.encode(s, polled.get(0), Integer.MAX_VALUE)).isEmpty();
            return;
        }
        assertThat(base).as("seed %d", seed).isEqualTo(polled.get(0));
        String map = OffsetMap.encode(s, base, Integer.MAX_VALUE);
        assertThat(map).as("seed %d", seed).startsWith(OffsetMap.PREFIX);
        FinishedOffsets decoded = OffsetMap.decode(map, base);
        assertThat(decoded).as("seed %d", seed).isNotNull();
        assertThat(decoded.count()).as("seed %d", seed).isEqualTo(finished.size());
        for (long o : polled) {
            assertThat(decoded.contains(o)).as("seed %d offset %d", seed, o).isEqualTo(finished.contains(o));
        }
        assertThat(decoded.contains(base - 1)).isFalse();
        assertThat(decoded.contains(offset + 1)).isFalse();
    }

    @Test
    void longRunsAreCompact() {
        List<Long> polled = new ArrayList<>();
        for (long o = 100; o < 10_100; o++) {
            polled.add(o);
        }
        TreeSet<Long> finished = new TreeSet<>(polled.subList(1, polled.size()));
        String map = OffsetMap.encode(state(polled, finished), 100, 4096);
        assertThat(map).hasSizeLessThan(20);
        assertThat(OffsetMap.decode(map, 100).count()).isEqualTo(9999);
    }

    @Test
    void aMapThatDoesNotFitIsNotWritten() {
        List<Long> polled = new ArrayList<>();
        for (long o = 0; o < 200_000; o += 2) {
            polled.add(o);
        }
        TreeSet<Long> finished = new TreeSet<>();
        Random random = new Random(7);
        for (long o : polled.subList(1, polled.size())) {
            if (random.nextBoolean()) {
                finished.add(o);
            }
        }
        assertThat(OffsetMap.encode(state(polled, finished), 0, 4096)).isNull();
    }

    @Test
    void anythingElseNamesNothing() {
        List<Long> polled = List.of(10L, 11L, 12L, 13L);
        String map = OffsetMap.encode(state(polled, new TreeSet<>(List.of(11L, 13L))), 10, 4096);
        assertThat(OffsetMap.decode(map, 10).count()).isEqualTo(2);

        assertThat(OffsetMap.decode(map, 11)).as("a map of another commit").isNull();
        assertThat(OffsetMap.decode(null, 10)).isNull();
        assertThat(OffsetMap.decode("", 10)).isNull();
        assertThat(OffsetMap.decode("someone else's metadata", 10)).isNull();
        assertThat(OffsetMap.decode("kfo2:" + map.substring(5), 10)).as("another version").isNull();
        assertThat(OffsetMap.decode(map.substring(0, map.length() - 2), 10)).as("truncated").isNull();
        assertThat(OffsetMap.decode(map + "AAAA", 10)).as("trailing bytes").isNull();
        assertThat(OffsetMap.decode(OffsetMap.PREFIX + "!!!", 10)).as("not base64").isNull();
        byte[] unknownKind = { 10, 9, 1, 1 };
        assertThat(OffsetMap.decode(OffsetMap.PREFIX + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(unknownKind), 10)).as("unknown kind").isNull();
        List<String> garbage = new ArrayList<>();
        Random random = new Random(3);
        for (int i = 0; i < 2000; i++) {
            byte[] bytes = new byte[1 + random.nextInt(40)];
            random.nextBytes(bytes);
            garbage.add(OffsetMap.PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
        }
        Collections.shuffle(garbage, random);
        for (String g : garbage) {
            FinishedOffsets decoded = OffsetMap.decode(g, 10);
            if (decoded != null) {
                // only a well-formed map of a commit at 10 may name anything
                assertThat(new String(Base64.getUrlDecoder().decode(g.substring(5)), StandardCharsets.ISO_8859_1))
                        .startsWith("\n");
            }
        }
    }
}
