package dev.kafkafetch.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShareReportTest {

    @Test
    void aRatioToClassicCarriesItsIntervalAndEveryRound() {
        ShareReport report = report(new double[] { 2700, 2800, 2750 }, new double[] { 3000, 3000, 3000 });

        String row = row(report.render(), "share");

        // ln-ratios of 0.90, 0.933, 0.917: geometric mean 0.92, a narrow interval below 1.0
        assertThat(row).contains("0.92x [").doesNotContain("no difference").contains("(0.90, 0.93, 0.92)");
    }

    @Test
    void roundsThatDisagreeSayNoDifference() {
        ShareReport report = report(new double[] { 2700, 3300, 3000 }, new double[] { 3000, 3000, 3000 });

        assertThat(row(report.render(), "share")).contains("no difference (");
    }

    @Test
    void theRoutesMeasuredTimeSaysWhatTheSlotsCouldCarry() {
        ShareReport report = report(new double[] { 2700, 2800, 2750 }, new double[] { 3000, 3000, 3000 });
        for (double ms : new double[] { 11.0, 10.5, 10.8 }) {
            report.addRouteTime("small", "share", ms);
        }

        assertThat(report.render()).contains("- share: the 10 ms route took 10.80 ms per record (median of rounds):"
                                             + " its slots could carry at most 2,963 rec/s, 93 % of ideal");
    }

    @Test
    void aBurstSaysWhenItsSlotsFilled() {
        ShareReport report = report(new double[] { 2700, 2800, 2750 }, new double[] { 3000, 3000, 3000 });
        report.addRouteTime("small", "share", 10.2);
        for (double ms : new double[] { 6.5, 25.0, 7.0, Double.NaN }) {
            report.addFilledAfter("share", ms);
        }

        assertThat(report.render()).contains("  - its 32 slots filled 7.0 ms after the burst's first record started"
                                             + " (median; 6.5–25.0 ms)");
    }

    private static ShareReport report(double[] share, double[] classic) {
        ShareReport report = new ShareReport(32, 10);
        report.order.add("share");
        report.order.add("classic");
        report.headline = "share";
        report.classic = "classic";
        for (int round = 0; round < share.length; round++) {
            report.add("small", "share", round, share[round]);
            report.add("small", "classic", round, classic[round]);
        }
        return report;
    }

    private static String row(String table, String contender) {
        return table.lines().filter(l -> l.startsWith("| " + contender + " ")).findFirst().orElseThrow();
    }
}
