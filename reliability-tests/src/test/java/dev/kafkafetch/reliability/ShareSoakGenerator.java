package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;

/**
 * Derives one share-group soak combination from one seed, deterministically (the test JVM and every child JVM get the
 * same one): the kafka-fetch-share options, the share group's acquisition lock and delivery limit, the workload, the
 * faults (SIGKILL of a child member, graceful stop and start of a member, a route suspend and resume of a member, one
 * broker of the cluster stopped and started again, a member joining or leaving; drawn against a simulation of which
 * members run, as in {@link SoakGenerator}) and the misbehaving records: poison (always failing), failing the first
 * 1-2 executions in a JVM, undeserializable, and slower than the acquisition lock (its lock must be renewed). Its
 * random stream is its own ({@code "share"} mixed into the seed), so a share seed and a classic seed of the same
 * number are unrelated.
 * <p>
 * The seeds picked or tried before suspends and broker restarts were drawn ({@link #PICKED_BEFORE_SUSPEND}) draw their
 * faults from the kinds of then, so they keep the combination their notes describe; every other seed may draw both.
 */
final class ShareSoakGenerator {

    private static final long SHARE_STREAM = 0x7368617265L;
    /** consumersPerWindow is drawn from a stream of its own, so every seed keeps the rest of its combination. */
    private static final long CONSUMERS_PER_WINDOW_STREAM = 0x637077L;
    /** Mixed twice into the seed for the asynchronous-route draw ("async"). */
    private static final long ASYNC_STREAM = 0x6173796e63L;
    /** Mixed twice into the seed for the slow-close draw ("slowclos"). */
    private static final long SLOW_CLOSE_STREAM = 0x736c6f77636c6f73L;
    /** The share of combinations whose share consumers close slowly (a slow network while their fetch goes on). */
    static final int SLOW_CLOSE_PERCENT = 30;
    private static final int[] LOCKS_MS = { 2000, 3000, 5000, 8000 };
    /** The fault kinds drawn before suspends and broker restarts were. */
    private static final Set<SoakFault.Kind> FIRST_KINDS = EnumSet.of(SoakFault.Kind.KILL, SoakFault.Kind.RESTART,
            SoakFault.Kind.JOIN, SoakFault.Kind.LEAVE);
    /**
     * The share seeds of {@link SoakIT#SHARE_CI_SEEDS} (and those the module's README names) picked or tried before
     * suspends and broker restarts were drawn: they draw neither, so each keeps the combination it was picked for.
     */
    private static final Set<Long> PICKED_BEFORE_SUSPEND = Set.of(8240129909623686225L, 4068334834055037804L,
            7803885965037502360L, 4074057829589311104L, 6562002829619601168L, 1630979832370673720L,
            7965904508497673380L, 7322149770624776379L, 1655242126537266003L, 5360070844223630436L,
            8394586475366358369L, 6585236463306854420L, 3802020517982329802L);

    /** The one CI seed picked after suspends and before consumersPerWindow was drawn: it keeps one per window. */
    private static final long PICKED_BEFORE_CONSUMERS_PER_WINDOW = 1849550734806845346L;

    private ShareSoakGenerator() {
    }

    static ShareSoakCase generate(long seed) {
        Random r = new Random(SoakGenerator.mix(seed) ^ SHARE_STREAM);
        ShareSoakOptions o = withSlowClose(seed, withAsyncRoute(seed, withConsumersPerWindow(seed, options(r))));
        long duration = 6000 + r.nextInt(4001);
        int rate = 100 + r.nextInt(151);
        int backlog = 100 + r.nextInt(501);
        List<SoakFault> faults = SoakGenerator.faults(r, o.routeOptions(), duration,
                PICKED_BEFORE_SUSPEND.contains(seed) ? FIRST_KINDS : EnumSet.allOf(SoakFault.Kind.class));
        int planned = backlog + (int) (rate * duration / 1000);
        return new ShareSoakCase(seed, o, new SoakSchedule(backlog, rate, duration, List.copyOf(faults),
                plan(r, o, planned)));
    }

    /**
     * UNORDERED windows: two share consumers in 40 % of the combinations (KEY needs one per window); the seeds picked
     * before it was drawn (four of the CI seeds among them) keep one.
     */
    private static ShareSoakOptions withConsumersPerWindow(long seed, ShareSoakOptions o) {
        Random r = new Random(SoakGenerator.mix(seed) ^ CONSUMERS_PER_WINDOW_STREAM);
        boolean pickedBefore = PICKED_BEFORE_SUSPEND.contains(seed) || seed == PICKED_BEFORE_CONSUMERS_PER_WINDOW;
        int cpw = !pickedBefore && !"KEY".equals(o.ordering()) && r.nextInt(100) < 40 ? 2 : 1;
        return o.with(cpw, o.asyncRoute());
    }

    /**
     * An asynchronous route ({@link SoakAsyncStep}) in {@link SoakGenerator#ASYNC_PERCENT} of the combinations, from
     * a stream of its own; the seeds picked or named before it was drawn ({@link SoakIT#SHARE_CI_SEEDS} among them)
     * keep a blocking route.
     */
    private static ShareSoakOptions withAsyncRoute(long seed, ShareSoakOptions o) {
        boolean pickedBefore = PICKED_BEFORE_SUSPEND.contains(seed) || seed == PICKED_BEFORE_CONSUMERS_PER_WINDOW
                               || seed == 4693253153669096614L;
        Random r = new Random(SoakGenerator.mix(SoakGenerator.mix(seed) ^ ASYNC_STREAM));
        return !pickedBefore && r.nextInt(100) < SoakGenerator.ASYNC_PERCENT ? o.with(o.consumersPerWindow(), true)
                : o;
    }

    /**
     * Every share consumer's close held up 300 or 1,000 ms in {@value #SLOW_CLOSE_PERCENT} % of the combinations, from
     * a stream of its own (a client fetches until it has closed: what a sibling gives back meanwhile must not be
     * archived by that close); the seeds of {@link SoakIT#SHARE_CI_SEEDS} and those picked before keep fast closes.
     */
    private static ShareSoakOptions withSlowClose(long seed, ShareSoakOptions o) {
        boolean pickedBefore = PICKED_BEFORE_SUSPEND.contains(seed) || seed == PICKED_BEFORE_CONSUMERS_PER_WINDOW
                               || LongStream.of(SoakIT.SHARE_CI_SEEDS).anyMatch(s -> s == seed);
        Random r = new Random(SoakGenerator.mix(SoakGenerator.mix(seed) ^ SLOW_CLOSE_STREAM));
        return !pickedBefore && r.nextInt(100) < SLOW_CLOSE_PERCENT ? o.withSlowClose(r.nextBoolean() ? 300 : 1000)
                : o;
    }

    private static ShareSoakOptions options(Random r) {
        int roll = r.nextInt(100);
        int partitions = roll < 50 ? 1 : roll < 80 ? 2 : 4;
        int keys = SoakGenerator.pick(r, 8, 32, 128);
        int slots = 1 + r.nextInt(3);
        List<Boolean> children = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            children.add(r.nextInt(100) < 40);
        }
        int initial = 1 + r.nextInt(slots);
        roll = r.nextInt(100);
        int consumersCount = roll < 50 ? 1 : roll < 80 ? 2 : 4;
        int maxConcurrency = SoakGenerator.pick(r, 1, 4, 16);
        String ordering = r.nextInt(100) < 30 ? "KEY" : "UNORDERED";
        int maxPollRecords = SoakGenerator.pick(r, 5, 20, 100, 0);
        int limit = 2 + r.nextInt(4);
        // maxDeliveryAttempts: mostly the default (the group's limit then decides), else below, at or above it
        int mda = r.nextInt(100) < 60 ? 0 : 2 + r.nextInt(5);
        int lockMs = LOCKS_MS[r.nextInt(LOCKS_MS.length)];
        boolean dlt = r.nextInt(100) < 55;
        int work = maxConcurrency == 1 ? SoakGenerator.pick(r, 0, 1, 2) : SoakGenerator.pick(r, 1, 3, 5);
        return new ShareSoakOptions(partitions, keys, List.copyOf(children), initial, consumersCount, maxConcurrency,
                ordering, maxPollRecords, limit, mda, lockMs, dlt, work);
    }

    private static SoakRecordPlan plan(Random r, ShareSoakOptions o, int planned) {
        Map<Integer, SoakRecordPlan.Behaviour> special = new HashMap<>();
        if (r.nextInt(100) < 45) {
            SoakGenerator.place(r, special, planned, 1 + r.nextInt(4), SoakRecordPlan.Kind.FAIL_ALWAYS, 0);
        }
        if (r.nextInt(100) < 40) {
            SoakGenerator.place(r, special, planned, 1 + r.nextInt(4), SoakRecordPlan.Kind.FAIL_N, 1 + r.nextInt(2));
        }
        if (r.nextInt(100) < 30) {
            SoakGenerator.place(r, special, planned, 1 + r.nextInt(3), SoakRecordPlan.Kind.UNDESERIALIZABLE, 0);
        }
        if (r.nextInt(100) < 50) {
            SoakGenerator.place(r, special, planned, 1 + r.nextInt(2), SoakRecordPlan.Kind.SLOW_LOCK,
                    o.lockMs() * 3 / 2);
        }
        return new SoakRecordPlan(Map.copyOf(special));
    }
}
