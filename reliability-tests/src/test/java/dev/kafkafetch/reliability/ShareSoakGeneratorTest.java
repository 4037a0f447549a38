package dev.kafkafetch.reliability;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The share soak's CI seeds keep their combinations as suspends and broker restarts became drawable: the two picked
 * before (and the one out of CI that reproduces a defect) draw exactly what they drew then, and the seed added for the
 * new faults draws both.
 */
class ShareSoakGeneratorTest {

    @Test
    void seedsPickedBeforeSuspendsAndBrokerRestartsDrawAsBefore() {
        // as ShareSoakGenerator drew them on main 8fa1023, before either fault could be drawn
        assertThat(drawn(8240129909623686225L)).isEqualTo(
                "share,p2,keys8,members1/1[in],cc1,c1,UNORDERED,mprDefault,limit2,mda3,lock5000,dlt,work1"
                                                          + " restart(m0@2.2s+1.2s),restart(m0@6.2s+1.3s),failAlways:4"
                                                          + " backlog=204 rate=240 duration=8221");
        assertThat(drawn(4068334834055037804L)).isEqualTo(
                "share,p2,keys8,members2/2[in,child],cc1,c1,UNORDERED,mpr100,limit2,lock2000,dlt,work2"
                                                          + " kill(m1@2.9s+1.6s),kill(m1@5.7s+2.0s),failAlways:1,undeser:1"
                                                          + " backlog=233 rate=169 duration=9735");
        assertThat(drawn(7803885965037502360L)).isEqualTo(
                "share,p1,keys8,members2/2[in,in],cc2,c4,KEY,mpr5,limit3,lock5000,work5"
                                                          + " restart(m0@2.0s+1.3s),restart(m1@5.0s+2.4s),failAlways:2,slowLock7500:2"
                                                          + " backlog=386 rate=116 duration=7020");
    }

    @Test
    void newCiSeedDrawsASuspendAndABrokerRestart() {
        SoakSchedule s = ShareSoakGenerator.generate(1849550734806845346L).schedule();
        assertThat(s.count(SoakFault.Kind.SUSPEND)).isPositive();
        assertThat(s.count(SoakFault.Kind.BROKER)).isPositive();
    }

    @Test
    void unorderedCombinationsDrawTwoConsumersPerWindowAndKeyNever() {
        int two = 0;
        for (long seed = 1; seed <= 200; seed++) {
            ShareSoakOptions o = ShareSoakGenerator.generate(seed).options();
            if (o.consumersPerWindow() > 1) {
                two++;
                assertThat(o.ordering()).as("seed %d", seed).isEqualTo("UNORDERED");
                assertThat(o.uri("b:9092", "t", "g", "d")).contains("consumersPerWindow=2");
            }
        }
        assertThat(two).as("of 200 seeds").isBetween(30, 90);
        long picked = 4693253153669096614L;
        for (long seed : SoakIT.SHARE_CI_SEEDS) {
            assertThat(ShareSoakGenerator.generate(seed).options().consumersPerWindow()).as("CI seed %d", seed)
                    .isEqualTo(seed == picked ? 2 : 1);
        }
    }

    @Test
    void aShareOfSeedsDrawsSlowClosesAndTheCiSeedsNone() {
        int slow = 0;
        for (long seed = 1; seed <= 200; seed++) {
            ShareSoakOptions o = ShareSoakGenerator.generate(seed).options();
            if (o.slowCloseMs() > 0) {
                slow++;
                assertThat(o.uri("b:9092", "t", "g", "d"))
                        .contains("additionalProperties." + SoakShareClients.SLOW_CLOSE_MS + "=" + o.slowCloseMs());
                assertThat(o.describe()).endsWith("slowClose" + o.slowCloseMs());
            }
        }
        assertThat(slow).as("of 200 seeds").isBetween(35, 85);
        for (long seed : SoakIT.SHARE_CI_SEEDS) {
            assertThat(ShareSoakGenerator.generate(seed).options().slowCloseMs()).as("CI seed %d", seed).isZero();
        }
    }

    private static String drawn(long seed) {
        ShareSoakCase c = ShareSoakGenerator.generate(seed);
        SoakSchedule s = c.schedule();
        return c.options().describe() + " " + s.describe() + " backlog=" + s.backlog() + " rate=" + s.ratePerSecond()
               + " duration=" + s.durationMs();
    }
}
