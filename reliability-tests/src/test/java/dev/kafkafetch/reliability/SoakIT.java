package dev.kafkafetch.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaServices;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The randomized feature &times; fault soak: each seed gives one combination of kafka-fetch options, workload and
 * faults ({@link SoakGenerator}); {@link SoakRun} runs it on a dedicated 3-broker cluster with in-process and child-JVM
 * members, and {@link SoakChecker} proves from the recorded history that nothing was lost, no lane ran two records at
 * once or out of offset order, duplicates stayed within the combination's bound, nothing hung and memory stayed
 * bounded. Each combination prints one {@code SOAK seed=... verdict=PASS|FAIL} line (also appended to the reliability
 * report) and is a test of its own, so one failing seed does not stop the others.
 * <p>
 * The same runs for share groups ({@code kafka-fetch-share:}): {@link ShareSoakGenerator} draws the combination,
 * {@link ShareSoakChecker} checks it (archived counts as lost).
 * <p>
 * Which seeds run: {@code -Dsoak.seed=<seed>[,<seed>...]} (classic) and {@code -Dsoak.shareSeed=...} (share) rerun
 * exactly those combinations (given one, the other scheme runs none); else {@code -Dsoak.combinations=N} and
 * {@code -Dsoak.shareCombinations=M} (set by {@code -Psoak}) run N and M random seeds derived from
 * {@code -Dsoak.baseSeed} (printed; the current time when not given); else the fixed {@link #CI_SEEDS} and
 * {@link #SHARE_CI_SEEDS}.
 */
class SoakIT {

    /**
     * The CI combinations (about 3 minutes together on 2 cores), picked from a long run of 250: six failed on the
     * component before the fetch-task rebuild, each on a different defect, and must pass after it; the seventh is a
     * control that passed; the next ones failed after the rebuild, each on a defect fixed since. No transacted
     * combination is here yet: the candidate 6957363929301021558 failed once of three runs at load ~34 (the README of
     * this module says what each covers, and why). The three before the last draw operator actions: a partition
     * pause; then a pause, a seek back and a park; the last runs an asynchronous route.
     */
    static final long[] CI_SEEDS = {
        6853209322855359059L, // batching hands an undeserializable record to the route; SIGKILL, join
        1097143869609705780L, // KEY: a slow record outlives its revoke, the partition comes back, its key runs twice
        6090955138321724653L, // KEY + breakOnFirstError: after a seek-back the same records run twice at once
        3763424168673994049L, // sync manual commit() hit by a poll wakeup: its record counts finished, committed past
        9220132835808972923L, // one slow record: records held since the committable offset grow past the window
        8756736753456859088L, // batching + breakOnFirstErrorMaxAttempts: the failing batch is re-delivered forever
        644372720638159251L, // passes: consumer protocol, PARTITION, breakOnFirstError, stalls, SIGKILL, broker restart
        578646790945017516L, // sync manual commits in parallel: a commit() waited for a record waiting for it
        6517121191564368095L, // a batch dropped behind a failed one left its other partition unsought
        8504527014228270023L, // re-delivered batch records said attempt 1, so breakOnFirstErrorMaxAttempts never hit
        121L, // seekTo=END, consumersCount 2, a restart, retry topics: a pending retry letter was skipped at the restart
        6379781183978619373L, // seekTo=END, consumersCount 3: a sought partition handed over before a poll
        20261303L, // an operator pauses a partition (3 s) after a leave and a SIGKILL: KEY c64, batching, later commits
        20261512L, // an operator pauses, seeks back over committed records and parks a running one: bofe(3), a broker
        // restart and a SIGKILL before
        33L, // KEY, sync manual commits only, retry topics: an operator pauses, seeks back (on another in-process
        // member) and parks a running record
        727L, // an asynchronous route, KEY, batching, consumer protocol: a leave, then a SIGKILL
    };

    /**
     * The share-group CI combinations ({@code kafka-fetch-share:}, {@link ShareSoakGenerator}, under a minute each on 2
     * cores); the README of this module says what each covers. The first fails on the component of issue 22 (a stop
     * releases never-started records explicitly, which archives those on their last delivery) and must pass once that
     * is fixed; the third was picked when suspends and broker restarts became drawable and draws both; the fourth lost
    * one always-failing record until a stop took in what the client had acquired after its last poll (its last
    * delivery sat in the client's buffer and the close gave it back, archived); the fifth runs two share consumers
     * per window, the default since issue 22, under a stop and a kill on the last allowed delivery; the sixth runs
     * an asynchronous route.
     */
    static final long[] SHARE_CI_SEEDS = {
        8240129909623686225L, // limit 2, two stops of the only member, one at a time: released twice (500 per poll then)
        4068334834055037804L, // limit 2, a child SIGKILLed twice, dead letters: unsaveable records, kill duplicates
        1849550734806845346L, // KEY, a member suspended while a child works, then a broker restart: refused acks
        7803885965037502360L, // KEY, two members restarted, poison rejected: a last delivery in the client's buffer
        4693253153669096614L, // two share consumers per window, limit 2, a restart and a kill, dead letters
        704L, // an asynchronous route, a lock renewed while no thread holds its record, a SIGKILL
    };

    /**
     * A share member with few records per poll drains a backlog left on one partition slowly (2 records about every
     * 500 ms were seen once the other partition was empty, a throughput lead of its own), so a share combination gets
     * three times the drain deadline before it counts as a hang: seed 8240129909623686225 had 5 of 2,176 records
     * still waiting, none lost, at 30 s in a clean-clone run.
     */
    private static final long SHARE_DRAIN_FACTOR = 3;

    /** Mixed into the base seed of a long run for the share seeds ("share"). */
    private static final long SHARE_STREAM = 0x7368617265L;
    private static final List<SoakVerdict> VERDICTS = new CopyOnWriteArrayList<>();
    /** The base seed of a long run without -Dsoak.baseSeed: one per test JVM, shared by both schemes. */
    private static final long BASE_SEED = System.currentTimeMillis();
    private static EmbeddedKafkaCluster cluster;
    private static KafkaTestSupport kafka;

    @BeforeAll
    static void startCluster() {
        cluster = KafkaServices.embedded(3);
        kafka = new KafkaTestSupport(cluster.bootstrapServers());
    }

    @AfterAll
    static void stopCluster() {
        if (!VERDICTS.isEmpty()) {
            summary();
        }
        if (kafka != null) {
            kafka.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> soak() {
        return seeds("soak.seed", "soak.combinations", CI_SEEDS, 0).stream().map(seed -> DynamicTest.dynamicTest(
                "seed " + seed, () -> run(seed, "seed-",
                        (dir, drainMs) -> new SoakRun(SoakGenerator.generate(seed), cluster, kafka, dir, drainMs))));
    }

    /** The share-group combinations: {@code -Dsoak.shareSeed=...}, {@code -Dsoak.shareCombinations=N}, else CI's. */
    @TestFactory
    Stream<DynamicTest> shareSoak() {
        return seeds("soak.shareSeed", "soak.shareCombinations", SHARE_CI_SEEDS, SHARE_STREAM).stream()
                .map(seed -> DynamicTest.dynamicTest("share seed " + seed, () -> run(seed, "share-seed-",
                        (dir, drainMs) -> new SoakRun(ShareSoakGenerator.generate(seed), cluster, kafka, dir,
                                drainMs * SHARE_DRAIN_FACTOR))));
    }

    private interface Runs {
        SoakRun in(Path dir, long drainMs);
    }

    private static void run(long seed, String prefix, Runs runs) throws Exception {
        Path dir = baseDir().resolve(prefix + seed);
        for (int run = 2; Files.exists(dir); run++) {
            dir = baseDir().resolve(prefix + seed + "-" + run); // the same seed again in one run
        }
        long drainMs = Long.getLong("soak.drainSeconds", 30) * 1000;
        SoakVerdict verdict = runs.in(dir, drainMs).run();
        VERDICTS.add(verdict);
        System.out.println(verdict.line());
        Reliability.appendToReport(verdict.line());
        if (!verdict.pass()) {
            String details = verdict.details() + "  history: " + dir + "\n";
            System.out.println(details);
            Reliability.appendToReport(details);
        } else {
            SoakRun.delete(dir);
        }
        assertThat(verdict.pass()).as("%s%n%s", verdict.line(), verdict.details()).isTrue();
    }

    /**
     * The seeds of one scheme: those of {@code seedProperty} if given; else, in a long run (either scheme's count
     * above 0), {@code countProperty} random ones; else the CI seeds — and none when only the other scheme's seeds
     * were given.
     */
    private static List<Long> seeds(String seedProperty, String countProperty, long[] ciSeeds, long stream) {
        List<Long> seeds = new ArrayList<>();
        String explicit = System.getProperty(seedProperty, "").trim();
        boolean otherExplicit = !System.getProperty("soak.seed", "").isBlank()
                                || !System.getProperty("soak.shareSeed", "").isBlank();
        boolean longRun = Integer.getInteger("soak.combinations", 0) > 0
                          || Integer.getInteger("soak.shareCombinations", 0) > 0;
        int combinations = Integer.getInteger(countProperty, 0);
        if (!explicit.isEmpty()) {
            for (String s : explicit.split(",")) {
                seeds.add(Long.parseLong(s.trim()));
            }
        } else if (otherExplicit || longRun && combinations == 0) {
            return seeds;
        } else if (longRun) {
            String base = System.getProperty("soak.baseSeed", "").trim();
            long baseSeed = base.isEmpty() ? BASE_SEED : Long.parseLong(base);
            String what = "SOAK long run: " + combinations + " " + countProperty + " from -Dsoak.baseSeed=" + baseSeed;
            System.out.println(what);
            Reliability.appendToReport(what);
            Random random = new Random(baseSeed ^ stream);
            for (int i = 0; i < combinations; i++) {
                seeds.add(random.nextLong() & Long.MAX_VALUE);
            }
        } else {
            for (long s : ciSeeds) {
                seeds.add(s);
            }
        }
        return seeds;
    }

    private static Path baseDir() {
        String report = System.getProperty("reliability.reportFile");
        Path target = report == null || report.isBlank() ? Path.of("target") : Path.of(report).toAbsolutePath()
                .getParent();
        return target.resolve("soak");
    }

    private static void summary() {
        int failed = 0;
        int transacted = 0;
        double maxRatio = 0;
        for (SoakVerdict v : VERDICTS) {
            if (!v.pass()) {
                failed++;
            }
            String line = v.line();
            if (line.contains(" txOut=")) {
                transacted++;
            }
            int at = line.indexOf("dupRatio:");
            if (at >= 0) {
                String ratio = line.substring(at + "dupRatio:".length()).split("[ ,]")[0];
                if (!"inf".equals(ratio)) {
                    maxRatio = Math.max(maxRatio, Double.parseDouble(ratio));
                }
            }
        }
        String summary = String.format(Locale.ROOT,
                "SOAK summary: combinations=%d failed=%d transacted=%d maxDupRatio=%.3f", VERDICTS.size(), failed,
                transacted, maxRatio);
        System.out.println(summary);
        Reliability.appendToReport(summary);
    }
}
