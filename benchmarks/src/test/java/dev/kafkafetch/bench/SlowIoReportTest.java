package dev.kafkafetch.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SlowIoReportTest {

    @Test
    void severalRoundsShowTheMedianRoundAndTheRangeOfRates() {
        SlowIoReport report = new SlowIoReport(100, false);
        report.add(10_000, "kafka-fetch async UNORDERED", false, measured(75_000, 60));
        report.add(10_000, "kafka-fetch async UNORDERED", false, measured(45_000, 50));
        report.add(10_000, "kafka-fetch async UNORDERED", false, measured(52_000, 65));

        String row = row(report.render(), "kafka-fetch async UNORDERED");

        // the median round (52,000 rec/s) with its own threads, the other rounds' rates as the range
        assertThat(row).contains("| 52,000 (45,000–75,000) | 52 % | 65 (65) |");
    }

    @Test
    void oneRoundShowsItsRateAlone() {
        SlowIoReport report = new SlowIoReport(100, true);
        report.add(1_000, "kafka-fetch blocking KEY", false, measured(9_900, 1000));
        report.add(1_000, "kafka-fetch blocking KEY", true, measured(10_000, 0));

        String row = row(report.render(), "kafka-fetch blocking KEY");

        assertThat(row).contains("| 9,900 | 99 % |").contains("| 10,000 | 100 % |").doesNotContain("(9,900");
    }

    @Test
    void keyIsComparedWithUnorderedRoundByRound() {
        SlowIoReport report = new SlowIoReport(100, true);
        report.add(10_000, "kafka-fetch blocking UNORDERED", true, measured(90_000, 0));
        report.add(10_000, "kafka-fetch blocking KEY", true, measured(81_000, 0));
        report.add(10_000, "kafka-fetch blocking UNORDERED", true, measured(80_000, 0));
        report.add(10_000, "kafka-fetch blocking KEY", true, measured(80_000, 0));

        assertThat(report.render()).contains("N = 10000, kafka-fetch blocking, Java 21+ virtual threads: KEY /"
                                             + " UNORDERED in the same round 0.949 (geometric mean of 2; 0.90–1.00):"
                                             + " 0.90, 1.00")
                .doesNotContain("N = 10000, kafka-fetch blocking, Java 1");
    }

    private static SlowIoRun.Measured measured(double rate, int threads) {
        return new SlowIoRun.Measured(rate, threads, threads, 5000, 5000, 6000, 0, 20, 30);
    }

    private static String row(String table, String label) {
        return table.lines().filter(l -> l.contains("| " + label + " |")).findFirst().orElseThrow();
    }
}
