package dev.kafkafetch.bench;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class StatsTest {

    @Test
    void pairedRatioIsTheGeometricMeanWithATIntervalOverTheLogRatios() {
        // per-round ratios 2, 2.2, 1.8, 2.1, 1.9: logs have mean m and sd s; the interval is m ± t(4) s / sqrt(5)
        List<Double> a = List.of(200.0, 220.0, 180.0, 210.0, 190.0);
        List<Double> b = List.of(100.0, 100.0, 100.0, 100.0, 100.0);
        double[] logs = { Math.log(2), Math.log(2.2), Math.log(1.8), Math.log(2.1), Math.log(1.9) };
        double m = 0;
        for (double l : logs) {
            m += l / 5;
        }
        double ss = 0;
        for (double l : logs) {
            ss += (l - m) * (l - m);
        }
        double half = 2.776 * Math.sqrt(ss / 4 / 5);

        Stats.Ratio r = Stats.pairedRatio(a, b);

        assertThat(r.rounds()).isEqualTo(5);
        assertThat(r.ratio()).isCloseTo(Math.exp(m), within(1e-12));
        assertThat(r.low()).isCloseTo(Math.exp(m - half), within(1e-12));
        assertThat(r.high()).isCloseTo(Math.exp(m + half), within(1e-12));
        assertThat(r.noDifference()).isFalse();
        assertThat(r.text()).isEqualTo(String.format(java.util.Locale.ROOT, "%.2fx [%.2f, %.2f]", r.ratio(), r.low(),
                r.high()));
    }

    @Test
    void pairsAreTakenRoundByRoundNotByRank() {
        // a is always 10 % above b in its own round, although the rounds differ a lot: a tight interval around 1.1
        List<Double> b = List.of(100.0, 300.0, 50.0, 200.0);
        List<Double> a = b.stream().map(x -> x * 1.1).collect(Collectors.toList());

        Stats.Ratio r = Stats.pairedRatio(a, b);

        assertThat(r.ratio()).isCloseTo(1.1, within(1e-9));
        assertThat(r.high() - r.low()).isLessThan(1e-9);
    }

    @Test
    void anIntervalContainingOneIsNoDifference() {
        Stats.Ratio r = Stats.pairedRatio(List.of(110.0, 90.0, 105.0, 95.0), List.of(100.0, 100.0, 100.0, 100.0));

        assertThat(r.low()).isLessThan(1.0);
        assertThat(r.high()).isGreaterThan(1.0);
        assertThat(r.noDifference()).isTrue();
        assertThat(r.text()).startsWith("no difference (");
    }

    @Test
    void oneRoundGivesARatioWithoutInterval() {
        Stats.Ratio r = Stats.pairedRatio(List.of(3.0), List.of(2.0));

        assertThat(r.ratio()).isCloseTo(1.5, within(1e-12));
        assertThat(r.hasInterval()).isFalse();
        assertThat(r.text()).isEqualTo("1.50x (1 round, no interval)");
    }

    @Test
    void roundsWithoutAValueAreLeftOutOfThePairs() {
        Stats.Ratio r = Stats.pairedRatio(List.of(2.0, Double.NaN, 4.0), List.of(1.0, 1.0, 2.0));

        assertThat(r.rounds()).isEqualTo(2);
        assertThat(r.ratio()).isCloseTo(2.0, within(1e-12));
        assertThat(Stats.pairedRatio(List.of(), List.of()).text()).isEmpty();
    }

    @Test
    void tQuantilesFollowTheTableThenTheNormal() {
        assertThat(Stats.t975(1)).isEqualTo(12.706);
        assertThat(Stats.t975(4)).isEqualTo(2.776);
        assertThat(Stats.t975(30)).isEqualTo(2.042);
        assertThat(Stats.t975(1000)).isEqualTo(1.96);
    }

    @Test
    void theShuffleIsDeterminedByTheSeedScenarioAndRound() {
        List<Integer> items = IntStream.range(0, 12).boxed().collect(Collectors.toList());

        List<Integer> first = Stats.shuffled(items, 42, "S1", 3);

        assertThat(Stats.shuffled(items, 42, "S1", 3)).isEqualTo(first);
        assertThat(first).containsExactlyInAnyOrderElementsOf(items).isNotEqualTo(items);
        assertThat(Stats.shuffled(items, 43, "S1", 3)).isNotEqualTo(first);
        assertThat(Stats.shuffled(items, 42, "S1", 4)).isNotEqualTo(first);
        assertThat(Stats.shuffled(items, 42, "S2", 3)).isNotEqualTo(first);
        assertThat(items).isEqualTo(IntStream.range(0, 12).boxed().collect(Collectors.toList()));
    }

    @Test
    void everyContenderLeadsSomeRound() {
        List<Integer> items = List.of(0, 1, 2, 3);

        assertThat(IntStream.range(0, 40).mapToObj(r -> Stats.shuffled(items, 7, "S3", r).get(0))
                .collect(Collectors.toSet())).containsExactlyInAnyOrder(0, 1, 2, 3);
    }
}
