package dev.kafkafetch.reliability;

import java.util.List;
import java.util.Map;

import dev.kafkafetch.KafkaFetchEndpoint;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.LoggingExceptionHandler;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The classic soak's seeds keep their combinations as transacted pipelines became drawable: the CI seeds and the
 * README's example seed draw exactly what they drew before (on main 671ce66); a share of the others draws
 * {@code transacted=true}, never with an option the endpoint refuses with it, and with a transactional id per member
 * slot.
 */
class SoakGeneratorTest {

    /** As SoakGenerator drew them on main 671ce66, before transacted could be drawn. */
    private static final Map<Long, String> BEFORE_TRANSACTED = Map.ofEntries(
            Map.entry(6853209322855359059L,
                    "p2,keys8,members1/2[in,child],cc3,eager,c64,UNORDERED,batch,dlt,mpi5000,mpr10,mif10,work3,"
                                            + "meters,retry(250ms/500ms/1s),finishedCommits,mpfb256,ct2s join(m1@1.9s),kill(m1@3.1s+1.3s),"
                                            + "failAlways:4,slowPoll6000:1,undeser:1 backlog=165 rate=287 duration=7913"),
            Map.entry(1097143869609705780L,
                    "p5,keys128,members2/3[in,in,in],cc1,eager,c4,KEY,mpi5000,mpr10,mif250,work3,mpfb256,ct10s,"
                                            + "pooled restart(m1@2.4s+2.1s),join(m2@6.2s),slowPoll6000:1 backlog=843 rate=165 duration=8071"),
            Map.entry(6090955138321724653L,
                    "p4,keys8,members1/3[in,in,child],cc1,cooperative,c64,KEY,bofe,dlt,stall1500,mpr50,mif500,work1,"
                                            + "pooled broker(b2@2.5s+2.1s),suspend(m0@6.9s+1.6s),fail2x:3 backlog=291 rate=238 duration=10379"),
            Map.entry(3763424168673994049L,
                    "p1,keys128,members3/3[in,in,in],cc1,cooperative,c4,UNORDERED,bofe(3),manual(sync,auto),dlt,"
                                            + "mpr10,mif10,work5,meters,pooled suspend(m1@1.9s+1.7s),"
                                            + "broker(b1@6.7s+2.2s) backlog=262 rate=281 duration=8553"),
            Map.entry(9220132835808972923L,
                    "p3,keys8,members1/2[in,child],cc1,consumer,c4,UNORDERED,batch(200ms),dlt,mpi5000,mpr50,mif500,"
                                            + "work1,pooled broker(b0@2.9s+4.4s),failAlways:1,"
                                            + "slowPoll6000:1 backlog=861 rate=288 duration=10366"),
            Map.entry(8756736753456859088L,
                    "p2,keys128,members2/2[child,in],cc3,consumer,c4,KEY,batch,bofe(3),manual(sync,auto),dlt,mpr10,"
                                            + "mif100,work3,meters(part),ct3000,pooled suspend(m0@3.0s+2.2s),"
                                            + "failAlways:2 backlog=949 rate=176 duration=7466"),
            Map.entry(644372720638159251L,
                    "p4,keys32,members1/1[child],cc2,consumer,c1,PARTITION,bofe,dlt,stall1500,mpr10,mif100,work0,"
                                           + "nomap broker(b1@2.4s+1.0s),kill(m0@5.7s+2.4s),"
                                           + "slowStall2500:1 backlog=837 rate=201 duration=9107"),
            Map.entry(578646790945017516L,
                    "p4,keys32,members1/1[child],cc1,eager,c4,KEY,manual(sync,noauto),dlt,stall1000,mpr200,mif500,"
                                           + "work3,finishedCommits kill(m0@2.1s+0.8s),restart(m0@4.6s+2.5s),kill(m0@8.1s+1.3s),"
                                           + "failAlways:3 backlog=872 rate=283 duration=10429"),
            Map.entry(6517121191564368095L,
                    "p8,keys32,members1/1[child],cc3,consumer,c1,KEY,batch(50ms),bofe(2),manual(nth10,noauto),dlt,"
                                            + "mpi5000,mpr50,mif250,work1,finishedCommits,mpfb256 suspend(m0@2.8s+0.9s),restart(m0@6.2s+2.1s),"
                                            + "failAlways:4,slowPoll6000:1,undeser:2 backlog=782 rate=205 duration=11158"),
            Map.entry(8504527014228270023L,
                    "p8,keys32,members1/1[child],cc3,consumer,c64,UNORDERED,batch,bofe(3),manual(later20ms,auto),"
                                            + "mpr50,mif50,work1,finishedCommits,fwm100,ct3000 kill(m0@1.6s+1.5s),restart(m0@5.9s+1.0s),"
                                            + "failAlways:4 backlog=351 rate=261 duration=8994"),
            Map.entry(121L,
                    "p8,keys8,members2/3[in,in,in],cc2,eager,c4,UNORDERED,batch(200ms),dlt,stall1000,mpr50,mif50,"
                            + "work3,retry(250ms/500ms/1s),seekToEND,finishedCommits,fwm10 restart(m0@2.2s+1.3s),"
                            + "suspend(m1@6.7s+1.6s),fail3x:1,slowStall2000:2 backlog=923 rate=168 duration=10657"),
            Map.entry(6379781183978619373L,
                    "p5,keys128,members1/2[child,in],cc3,consumer,c1,PARTITION,mpr50,mif500,work1,meters,seekToEND,"
                                            + "pooled suspend(m0@2.9s+2.1s),undeser:2 backlog=566 rate=221 duration=6160"),
            Map.entry(863425717643488230L,
                    "p4,keys128,members2/2[in,child],cc2,eager,c64,UNORDERED,manual(later150ms,auto),dlt,stall1000,"
                                           + "mpr10,mif250,work1,noRegistry(part),retry(200/500),seekToEND,mpfb256,ct10s,"
                                           + "pooled kill(m1@2.7s+2.1s),kill(m1@6.9s+0.9s),fail2x:3,"
                                           + "slowStall2000:2 backlog=252 rate=285 duration=9163"));

    @Test
    void seedsPickedBeforeTransactedDrawAsBefore() {
        BEFORE_TRANSACTED.forEach((seed, drawn) -> assertThat(drawn(seed)).as("seed %d", seed).isEqualTo(drawn));
        assertThat(SoakGenerator.PICKED_BEFORE_TRANSACTED).containsAll(BEFORE_TRANSACTED.keySet());
        for (long seed : SoakGenerator.PICKED_BEFORE_TRANSACTED) {
            assertThat(SoakGenerator.generate(seed).options().transacted()).as("seed %d", seed).isFalse();
        }
    }

    @Test
    void aShareOfSeedsDrawsAsynchronousRoutesAndTheSeedsNamedBeforeNone() {
        int classic = 0;
        int share = 0;
        for (long seed = 1; seed <= 200; seed++) {
            classic += SoakGenerator.generate(seed).options().extra().asyncRoute() ? 1 : 0;
            ShareSoakCase c = ShareSoakGenerator.generate(seed);
            share += c.options().asyncRoute() ? 1 : 0;
            assertThat(c.options().routeOptions().extra().asyncRoute()).isEqualTo(c.options().asyncRoute());
        }
        assertThat(classic).as("classic, of 200 seeds").isBetween(35, 85);
        assertThat(share).as("share, of 200 seeds").isBetween(35, 85);
        for (long seed : SoakIT.CI_SEEDS) {
            assertThat(SoakGenerator.generate(seed).options().extra().asyncRoute()).as("CI seed %d", seed)
                    .isEqualTo(seed == 727L);
        }
        for (long seed : SoakIT.SHARE_CI_SEEDS) {
            assertThat(ShareSoakGenerator.generate(seed).options().asyncRoute()).as("share CI seed %d", seed)
                    .isEqualTo(seed == 704L);
        }
        // and the seeds named before keep their description to the letter (the draw comes after every other one)
        BEFORE_TRANSACTED.forEach((seed, drawn) -> assertThat(drawn(seed)).as("seed %d", seed).isEqualTo(drawn));
    }

    @Test
    void seedsNamedBeforeOperatorFaultsDrawNone() {
        for (long seed : SoakIT.CI_SEEDS) {
            // each CI seed was picked before operator faults, or for them, or for asynchronous routes
            SoakCase c = SoakGenerator.generate(seed);
            assertThat(SoakGenerator.PICKED_BEFORE_OPERATOR_FAULTS.contains(seed)
                       || c.schedule().count(SoakFault.Kind.PAUSE_PARTITION) == 1 || c.options().extra().asyncRoute())
                    .as("CI seed %d", seed).isTrue();
        }
        for (long seed : SoakGenerator.PICKED_BEFORE_OPERATOR_FAULTS) {
            assertThat(SoakGenerator.generate(seed).schedule().count(SoakFault.Kind.PAUSE_PARTITION))
                    .as("seed %d", seed)
                    .isZero();
        }
        // and they keep their description to the letter (the operator stream is drawn after every other one)
        BEFORE_TRANSACTED.forEach((seed, drawn) -> assertThat(drawn(seed)).as("seed %d", seed).isEqualTo(drawn));
    }

    @Test
    void aShareOfCombinationsGainsAnOperatorPauseOnAnInProcessMemberAfterTheOtherFaults() {
        int withInProcess = 0;
        int paused = 0;
        for (long seed = 1; seed <= 1000; seed++) {
            SoakCase c = SoakGenerator.generate(seed);
            List<SoakFault> faults = c.schedule().faults();
            long pauses = c.schedule().count(SoakFault.Kind.PAUSE_PARTITION);
            assertThat(pauses).as("seed %d", seed).isLessThanOrEqualTo(1);
            if (c.options().childSlots().contains(false)) {
                withInProcess++;
            }
            if (pauses == 0) {
                continue;
            }
            paused++;
            // the last fault but an operator's seek or park (drawn after it)
            List<SoakFault> beforeActions = faults.stream().filter(f -> f.kind() != SoakFault.Kind.OPERATOR_SEEK
                                                                        && f.kind() != SoakFault.Kind.OPERATOR_PARK)
                    .toList();
            SoakFault pause = beforeActions.get(beforeActions.size() - 1);
            assertThat(pause.kind()).as("seed %d: last", seed).isEqualTo(SoakFault.Kind.PAUSE_PARTITION);
            assertThat(c.options().childSlots().get(pause.target())).as("seed %d: an in-process member", seed)
                    .isFalse();
            assertThat(pause.durationMs()).isBetween(500L, 3000L);
            for (SoakFault f : beforeActions.subList(0, beforeActions.size() - 1)) {
                assertThat(pause.atMs()).as("seed %d: after %s", seed, f.describe())
                        .isGreaterThan(f.atMs() + f.durationMs());
            }
            assertThat(pause.describe()).startsWith("opause(m" + pause.target() + "@");
            assertThat(c.options().uri("localhost:9092", "t", "g", "t.dlt")).contains("operatorActions=true");
        }
        // about OPERATOR_PERCENT of those that have an in-process member (some have none running at that time)
        assertThat(paused).isBetween(withInProcess * (SoakGenerator.OPERATOR_PERCENT - 10) / 100,
                withInProcess * (SoakGenerator.OPERATOR_PERCENT + 5) / 100);
    }

    @Test
    void aShareOfCombinationsGainsAnOperatorSeekAndParkOnAnInProcessMemberAfterEveryOtherFault() {
        int candidates = 0;
        int seeks = 0;
        int parks = 0;
        for (long seed = 1; seed <= 1000; seed++) {
            SoakCase c = SoakGenerator.generate(seed);
            SoakOptions o = c.options();
            List<SoakFault> faults = c.schedule().faults();
            int seek = c.schedule().count(SoakFault.Kind.OPERATOR_SEEK);
            int park = c.schedule().count(SoakFault.Kind.OPERATOR_PARK);
            assertThat(seek).as("seed %d", seed).isLessThanOrEqualTo(1);
            assertThat(park).as("seed %d", seed).isLessThanOrEqualTo(1);
            if (o.childSlots().contains(false) && !o.transacted()) {
                candidates++;
            }
            seeks += seek;
            parks += park;
            for (int i = 0; i < faults.size(); i++) {
                SoakFault f = faults.get(i);
                if (f.kind() != SoakFault.Kind.OPERATOR_SEEK && f.kind() != SoakFault.Kind.OPERATOR_PARK) {
                    continue;
                }
                assertThat(o.transacted()).as("seed %d: transacted draws none", seed).isFalse();
                assertThat(o.childSlots().get(f.target())).as("seed %d: an in-process member", seed).isFalse();
                assertThat(f.durationMs()).isZero();
                for (SoakFault before : faults.subList(0, i)) {
                    assertThat(f.atMs()).as("seed %d: after %s", seed, before.describe())
                            .isGreaterThan(before.atMs() + before.durationMs());
                }
                if (f.kind() == SoakFault.Kind.OPERATOR_PARK) {
                    assertThat(o.deadLetterTopic() && !o.batching()).as("seed %d: park needs a DLT, no batching",
                            seed).isTrue();
                    assertThat(f.describe()).startsWith("opark(m" + f.target() + "@");
                } else {
                    assertThat(f.describe()).startsWith("oseek(m" + f.target() + "@");
                }
            }
        }
        // about SEEK_PERCENT of the non-transacted combinations with an in-process member, fewer parks
        assertThat(seeks).isBetween(candidates * (SoakGenerator.SEEK_PERCENT - 12) / 100,
                candidates * (SoakGenerator.SEEK_PERCENT + 5) / 100);
        assertThat(parks).isPositive().isLessThan(seeks);
        for (long seed : SoakGenerator.PICKED_BEFORE_SEEK_AND_PARK) {
            assertThat(SoakGenerator.generate(seed).schedule().faults()).as("seed %d", seed)
                    .noneMatch(f -> f.kind() == SoakFault.Kind.OPERATOR_SEEK
                                    || f.kind() == SoakFault.Kind.OPERATOR_PARK);
        }
    }

    @Test
    void aShareOfSeedsDrawsTransactedPipelinesTheEndpointAccepts() {
        CamelContext context = new DefaultCamelContext();
        context.getRegistry().bind(SoakOptions.EXCEPTION_HANDLER, new LoggingExceptionHandler(context, getClass()));
        context.start();
        try {
            int transacted = 0;
            for (long seed = 1; seed <= 400; seed++) {
                SoakOptions o = SoakGenerator.generate(seed).options();
                if (!o.transacted()) {
                    continue;
                }
                transacted++;
                assertThat(o.invalidReason()).as("seed %d", seed).isNull();
                assertThat(o.describe()).endsWith(",transacted").doesNotContain("batch", "bofe", "manual(", "retry(",
                        "seekToBEGINNING");
                String uri = o.uri("localhost:9092", "t", "g", "t.dlt");
                assertThat(uri).contains("transacted=true").doesNotContain("transactionalIdPrefix");
                for (int slot = 0; slot < o.maxMembers(); slot++) {
                    String member = SoakOptions.memberUri(uri, true, "g", slot);
                    assertThat(member).endsWith("&transactionalIdPrefix=g-m" + slot);
                    assertThat(context.getEndpoint(member, KafkaFetchEndpoint.class).taskSettings().transacted())
                            .as("seed %d slot %d", seed, slot).isTrue();
                }
            }
            assertThat(transacted).as("of 400 seeds").isBetween(60, 120);
        } finally {
            context.stop();
        }
    }

    @Test
    void theTransactedDrawIsIndependentOfTheOtherKnobs() {
        int transacted = 0;
        int noMap = 0;
        int pooled = 0;
        int finished = 0;
        for (long seed = 1; seed <= 2000; seed++) {
            SoakOptions o = SoakGenerator.generate(seed).options();
            if (o.transacted()) {
                transacted++;
                noMap += o.extra().offsetMap() ? 0 : 1;
                pooled += o.extra().pooledExchanges() ? 1 : 0;
                finished += o.extra().finishedCommits() ? 1 : 0;
            }
        }
        // drawn 30 %, 40 % and 40 % of the time; a stream correlated with theirs gave offsetMap=false 96 %
        assertThat(100 * noMap / transacted).as("offsetMap=false among transacted").isBetween(22, 38);
        assertThat(100 * pooled / transacted).as("pooled among transacted").isBetween(32, 48);
        assertThat(100 * finished / transacted).as("finishedCommits among transacted").isBetween(32, 48);
    }

    private static String drawn(long seed) {
        SoakCase c = SoakGenerator.generate(seed);
        SoakSchedule s = c.schedule();
        return c.options().describe() + " " + s.describe() + " backlog=" + s.backlog() + " rate=" + s.ratePerSecond()
               + " duration=" + s.durationMs();
    }
}
