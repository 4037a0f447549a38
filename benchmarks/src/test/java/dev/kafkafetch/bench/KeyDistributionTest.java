package dev.kafkafetch.bench;

import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class KeyDistributionTest {

    private static final int DRAWS = 200_000;

    private static int[] histogram(KeyDistribution d, int keys) {
        int[] h = new int[keys];
        for (long i = 0; i < DRAWS; i++) {
            h[d.index(i)]++;
        }
        return h;
    }

    @Test
    void cyclicIsIModuloKeys() {
        KeyDistribution d = KeyDistribution.cyclic(1000);

        assertThat(d.key(0)).isEqualTo("key-0");
        assertThat(d.key(999)).isEqualTo("key-999");
        assertThat(d.key(1234)).isEqualTo("key-234");
    }

    @Test
    void zipfDrawsRanksInProportionToOneOverRankToTheExponent() {
        int keys = 1000;
        double h = 0;
        for (int k = 1; k <= keys; k++) {
            h += 1.0 / k;
        }
        KeyDistribution d = KeyDistribution.zipf(keys, 1.0, 11);

        int[] counts = histogram(d, keys);

        assertThat(d.probability(0)).isCloseTo(1 / h, within(1e-12));
        assertThat(d.probability(9)).isCloseTo(1 / (10 * h), within(1e-12));
        // the expected count of rank 1 is 26,700 (sd about 150); of rank 10 2,670 (sd about 50): 6 sd margins
        assertThat((double) counts[0]).isCloseTo(DRAWS / h, within(900.0));
        assertThat((double) counts[9]).isCloseTo(DRAWS / (10 * h), within(300.0));
        assertThat(counts[0]).isGreaterThan(counts[1]).isGreaterThan(counts[9]);
        assertThat(LongStream.range(0, 1000).mapToInt(i -> d.index(i)).allMatch(i -> i >= 0 && i < keys)).isTrue();
    }

    @Test
    void theSameSeedGivesTheSameKeys() {
        KeyDistribution a = KeyDistribution.zipf(1000, 1.2, 5);
        KeyDistribution b = KeyDistribution.zipf(1000, 1.2, 5);
        KeyDistribution c = KeyDistribution.zipf(1000, 1.2, 6);
        StringBuilder sa = new StringBuilder();
        StringBuilder sb = new StringBuilder();
        StringBuilder sc = new StringBuilder();
        for (long i = 0; i < 500; i++) {
            sa.append(a.key(i)).append(',');
            sb.append(b.key(i)).append(',');
            sc.append(c.key(i)).append(',');
        }

        assertThat(sa.toString()).isEqualTo(sb.toString()).isNotEqualTo(sc.toString());
    }

    @Test
    void oneHotKeyCarriesItsShareAndTheRestSpreadOverTheOtherKeys() {
        int[] counts = histogram(KeyDistribution.hot(1000, 0.5, 3), 1000);

        // expected 100,000 (sd about 224)
        assertThat((double) counts[0]).isCloseTo(DRAWS * 0.5, within(1500.0));
        for (int k = 1; k < 1000; k++) {
            assertThat(counts[k]).as("key %d", k).isLessThan(200);
        }
    }

    @Test
    void unknownNamesAndBadSharesFail() {
        assertThatThrownBy(() -> KeyDistribution.of("uniform", 10, 1, 0.5, 0)).hasMessageContaining("uniform");
        assertThatThrownBy(() -> KeyDistribution.hot(10, 1.5, 0)).hasMessageContaining("hot share");
    }
}
