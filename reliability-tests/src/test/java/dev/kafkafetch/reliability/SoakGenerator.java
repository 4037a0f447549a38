package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Derives one soak combination — kafka-fetch options, workload, fault schedule and misbehaving records — from one
 * seed, deterministically: the same seed gives the same combination in the test JVM and in every child JVM.
 * <p>
 * Invalid combinations are skipped, not run: a draw that the endpoint would refuse (see {@code EndpointSettings}, e.g.
 * {@code maxInFlightRecords < maxPollRecords}) or whose outcome is by design a standstill ({@code breakOnFirstError}
 * without {@code breakOnFirstErrorMaxAttempts} re-delivers a record that always fails forever) is drawn again from the
 * same random stream. Faults are drawn against a simulation of which members run, so a SIGKILL always hits a running
 * child JVM, a leave never empties the group, and a join starts a member that is not running.
 * <p>
 * The options added since the first soak ({@link SoakOptions.Extra}: offsetMap, Micrometer meters, retryDelays,
 * fetchWaitMaxMs, maxPartitionFetchBytes, commitTimeoutMs) are drawn afterwards from a second random stream derived
 * from the seed (pooled exchanges from a third, seekTo from a fourth, commits through finishedCommitIntervalMs from a
 * fifth), so that every seed still gives the combination of options, faults and records it gave before they
 * existed (the CI seeds keep covering what they were picked for) and only gains the new knobs. Transacted pipelines
 * come from a sixth stream ({@link #TRANSACTED_PERCENT}); a combination drawn transacted drops what the endpoint
 * refuses with it ({@link SoakOptions#asTransacted}), and the seeds picked before ({@link #PICKED_BEFORE_TRANSACTED})
 * never draw it. A draw of them the
 * endpoint refuses with the rest (retryDelays with breakOnFirstError) is drawn again from that stream; retryDelays
 * with no failing record in the plan gets a few from that stream too. Operator faults come from a seventh and eighth
 * stream; an asynchronous route ({@link #ASYNC_PERCENT}, {@link SoakAsyncStep}) from a ninth, with every other knob
 * and fault, except for the seeds named before it ({@link #pickedBeforeAsync}).
 */
final class SoakGenerator {

    private static final int[] CONCURRENCY = { 1, 4, 64 };
    private static final String[] ORDERINGS = { "PARTITION", "KEY", "UNORDERED" };
    private static final String[] PROTOCOLS = { "eager", "cooperative", "consumer" };
    private static final int[] POLL_RECORDS = { 10, 50, 200 };
    private static final int[] IN_FLIGHT = { 10, 50, 100, 250, 500 };
    /** retryDelays as written in the URI: plain milliseconds and durations, one to three retry topics. */
    private static final String[] RETRY_DELAYS = { "200,500", "300ms,1s", "500", "250ms,500ms,1s" };
    private static final String[] COMMIT_TIMEOUTS = { "2s", "3000", "10s" };
    /** Mixed into the seed for the stream of the knobs added later ("soak2"). */
    private static final long EXTRA_STREAM = 0x736f616b32L;
    /** Mixed into the seed for the pooled-exchanges draw ("soak3"). */
    private static final long POOLED_STREAM = 0x736f616b33L;
    /** Mixed into the seed for the seekTo draw ("soak4"). */
    private static final long SEEK_STREAM = 0x736f616b34L;
    /** Mixed into the seed for the finished-commits draw ("soak5"). */
    private static final long FINISHED_COMMITS_STREAM = 0x736f616b35L;
    /**
     * Mixed into the seed for the transacted draw ("soak6"), and mixed again: {@link Random}'s first draws from seeds
     * that differ in a few low bits, as {@code mix(seed) ^ "soak2"} to {@code "soak5"} do, are correlated (a transacted
     * draw from {@code mix(seed) ^ "soak6"} alone came with offsetMap=false 96 % of the time instead of 30 %; the
     * older streams keep theirs so that their seeds keep their combinations).
     */
    private static final long TRANSACTED_STREAM = 0x736f616b36L;
    /** The share of combinations drawn as transacted pipelines (before the seeds picked earlier are left out). */
    static final int TRANSACTED_PERCENT = 25;
    /** Mixed (twice, as the transacted stream) into the seed for the operator-fault draw ("soak7"). */
    private static final long OPERATOR_STREAM = 0x736f616b37L;
    /** The share of combinations (with an in-process member) that gain an operator's partition pause. */
    static final int OPERATOR_PERCENT = 30;

    /** Mixed twice into the seed for the draw of an operator's seek and park ("soak8"). */
    private static final long OPERATOR_ACTIONS_STREAM = 0x736f616b38L;
    /** The share of combinations (with an in-process member, not transacted) that gain an operator's seek back. */
    static final int SEEK_PERCENT = 30;
    /** The share of those (with a dead-letter topic, without batching) that gain an operator's park. */
    static final int PARK_PERCENT = 40;
    /** How long the record an operator parks runs (its first execution in a JVM): the park comes long before. */
    static final int PARKABLE_MS = 4000;
    /** Seeds named in {@link SoakIT} or this module's README before seeks and parks were drawn: they draw none. */
    static final Set<Long> PICKED_BEFORE_SEEK_AND_PARK = Set.of(20261303L, 20261358L, 20261253L);

    /** Mixed twice into the seed for the asynchronous-route draw ("soak9"). */
    private static final long ASYNC_STREAM = 0x736f616b39L;
    /** The share of combinations whose route works in an asynchronous step ({@link SoakAsyncStep}). */
    static final int ASYNC_PERCENT = 30;

    /**
     * Every seed named in {@link SoakIT} or this module's README before operator faults were drawn: they draw none, so
     * they keep exactly the combination they were picked or described with.
     */
    static final Set<Long> PICKED_BEFORE_OPERATOR_FAULTS = Set.of(
            1097143869609705780L, 1630979832370673720L, 1655242126537266003L, 1674500215254207777L,
            1849550734806845346L, 2451015071736031195L, 3081321740083450099L, 355385622481956170L,
            3763424168673994049L, 3802020517982329802L, 4068334834055037804L, 4074057829589311104L,
            4693253153669096614L, 5150380738609552504L, 5360070844223630436L, 578646790945017516L,
            6037780794209376355L, 6067572798641027639L, 6090955138321724653L, 6379781183978619373L,
            644372720638159251L, 6448248056926597985L, 6517121191564368095L, 6562002829619601168L,
            6585236463306854420L, 6588049740377643241L, 6853209322855359059L, 6957363929301021558L,
            7322149770624776379L, 7704975138223047541L, 7803885965037502360L, 7965904508497673380L,
            8240129909623686225L, 8394586475366358369L, 8504527014228270023L, 863425717643488230L,
            8663285998430724778L, 8756736753456859088L, 9220132835808972923L, 121L);

    /**
     * The classic seeds picked or named before transacted pipelines were drawn: {@link SoakIT#CI_SEEDS} and the seed
     * of the module README's example line. They draw no transacted, so they keep exactly their combinations.
     */
    static final Set<Long> PICKED_BEFORE_TRANSACTED = Set.of(6853209322855359059L, 1097143869609705780L,
            6090955138321724653L, 3763424168673994049L, 9220132835808972923L, 8756736753456859088L,
            644372720638159251L, 578646790945017516L, 6517121191564368095L, 8504527014228270023L, 121L,
            6379781183978619373L, 863425717643488230L);

    /** {@link SoakIT#CI_SEEDS} picked before seekTo was drawn: they draw no seekTo (END skipped their records). */
    private static final Set<Long> PICKED_BEFORE_SEEK_TO = Set.of(6853209322855359059L, 1097143869609705780L,
            6090955138321724653L, 3763424168673994049L, 9220132835808972923L, 8756736753456859088L,
            644372720638159251L, 578646790945017516L, 6517121191564368095L, 8504527014228270023L);

    private SoakGenerator() {
    }

    /** Seeds named in {@link SoakIT} or this module's README before asynchronous routes were drawn: they draw none. */
    static boolean pickedBeforeAsync(long seed) {
        return PICKED_BEFORE_OPERATOR_FAULTS.contains(seed) || PICKED_BEFORE_SEEK_AND_PARK.contains(seed)
               || seed == 20261512L || seed == 33L;
    }

    static SoakCase generate(long seed) {
        Random r = new Random(mix(seed)); // neighbouring seeds must not give similar first draws
        while (true) {
            SoakOptions options = options(r);
            if (options.invalidReason() != null) {
                continue;
            }
            SoakSchedule schedule = schedule(r, options);
            if (invalid(options, schedule) == null) {
                Random extra = new Random(mix(seed) ^ EXTRA_STREAM);
                SoakOptions withExtra = withExtra(extra, options);
                // pooled exchanges come from a stream of their own, so the knobs above keep every seed's values
                boolean pooled = new Random(mix(seed) ^ POOLED_STREAM).nextInt(100) < 40;
                withExtra = withExtra.withExtra(withExtra.extra().withPooledExchanges(pooled));
                // seekTo from a fourth stream: none, BEGINNING or END, with every fault, retry topics, consumersCount;
                // the CI seeds picked before seekTo was drawn keep the combination that caught their defect
                int seek = new Random(mix(seed) ^ SEEK_STREAM).nextInt(100);
                String seekTo = PICKED_BEFORE_SEEK_TO.contains(seed) ? null
                        : seek < 60 ? null : seek < 80 ? "BEGINNING" : "END";
                withExtra = withExtra.withExtra(withExtra.extra().withSeekTo(seekTo));
                // commits through finishedCommitIntervalMs (the interval 5 s) from a fifth stream, same cadence
                boolean finished = new Random(mix(seed) ^ FINISHED_COMMITS_STREAM).nextInt(100) < 40;
                withExtra = withExtra.withExtra(withExtra.extra().withFinishedCommits(finished));
                // transacted pipelines from a sixth stream; drawn, they drop what the endpoint refuses with them
                if (!PICKED_BEFORE_TRANSACTED.contains(seed)
                    && new Random(mix(mix(seed) ^ TRANSACTED_STREAM)).nextInt(100) < TRANSACTED_PERCENT) {
                    withExtra = withExtra.asTransacted();
                }
                SoakSchedule full = withFailures(extra, withExtra, schedule);
                // an operator's partition pause from a seventh stream, after the other faults
                if (!PICKED_BEFORE_OPERATOR_FAULTS.contains(seed)) {
                    Random operator = new Random(mix(mix(seed) ^ OPERATOR_STREAM));
                    if (operator.nextInt(100) < OPERATOR_PERCENT) {
                        full = withOperatorPause(operator, withExtra, full);
                    }
                }
                // an operator's seek back and park of a record from an eighth stream, after the pause
                if (!PICKED_BEFORE_OPERATOR_FAULTS.contains(seed) && !PICKED_BEFORE_SEEK_AND_PARK.contains(seed)) {
                    full = withOperatorActions(new Random(mix(mix(seed) ^ OPERATOR_ACTIONS_STREAM)), withExtra, full);
                }
                // an asynchronous route from a ninth stream, with everything above; the seeds named before keep theirs
                if (!pickedBeforeAsync(seed)
                    && new Random(mix(mix(seed) ^ ASYNC_STREAM)).nextInt(100) < ASYNC_PERCENT) {
                    withExtra = withExtra.withExtra(withExtra.extra().withAsyncRoute(true));
                }
                return new SoakCase(seed, withExtra, full);
            }
        }
    }

    /**
     * The schedule with an operator's partition pause (0.5-3 s) on an in-process member running at that time (its
     * joins and leaves simulated), after the other faults end; unchanged when no in-process member runs then.
     */
    static SoakSchedule withOperatorPause(Random r, SoakOptions o, SoakSchedule s) {
        long t = afterFaults(r, s);
        List<Integer> inProcess = inProcessRunning(o, s);
        if (inProcess.isEmpty()) {
            return s;
        }
        return with(s, new SoakFault(SoakFault.Kind.PAUSE_PARTITION, t, inProcess.get(r.nextInt(inProcess.size())),
                500 + r.nextInt(2500)));
    }

    /**
     * The schedule with an operator's seek back of a partition ({@link #SEEK_PERCENT}: to a little before its committed
     * offset, so that committed records run again too) and, with a dead-letter topic and without batching, a park
     * ({@link #PARK_PERCENT}: the harness produces {@link SoakRecordPlan#OPERATOR_RECORD} to a partition the member
     * holds, which runs {@link #PARKABLE_MS}, and parks it), each on an in-process member running then, after the
     * other faults. Transacted combinations draw neither yet (a seek is refused with transacted=true).
     */
    static SoakSchedule withOperatorActions(Random r, SoakOptions o, SoakSchedule s) {
        boolean seek = r.nextInt(100) < SEEK_PERCENT;
        boolean park = r.nextInt(100) < PARK_PERCENT && o.deadLetterTopic() && !o.batching();
        List<Integer> inProcess = inProcessRunning(o, s);
        if (o.transacted() || inProcess.isEmpty()) {
            return s;
        }
        SoakSchedule out = s;
        if (seek) {
            out = with(out, new SoakFault(SoakFault.Kind.OPERATOR_SEEK, afterFaults(r, out),
                    inProcess.get(r.nextInt(inProcess.size())), 0));
        }
        if (park) {
            out = with(out, new SoakFault(SoakFault.Kind.OPERATOR_PARK, afterFaults(r, out),
                    inProcess.get(r.nextInt(inProcess.size())), 0));
            out = new SoakSchedule(out.backlog(), out.ratePerSecond(), out.durationMs(), out.faults(),
                    out.plan().withParkable(PARKABLE_MS));
        }
        return out;
    }

    /** A time 1-2.5 s after every fault of the schedule has ended (at least 1.5 s into production). */
    private static long afterFaults(Random r, SoakSchedule s) {
        long t = 1500 + r.nextInt(1500);
        for (SoakFault f : s.faults()) {
            t = Math.max(t, f.atMs() + f.durationMs() + 1000 + r.nextInt(1500));
        }
        return t;
    }

    /** The in-process member slots running once the schedule's joins and leaves are done. */
    private static List<Integer> inProcessRunning(SoakOptions o, SoakSchedule s) {
        TreeSet<Integer> running = new TreeSet<>();
        for (int i = 0; i < o.initialMembers(); i++) {
            running.add(i);
        }
        for (SoakFault f : s.faults()) {
            if (f.kind() == SoakFault.Kind.JOIN) {
                running.add(f.target());
            } else if (f.kind() == SoakFault.Kind.LEAVE) {
                running.remove(f.target());
            }
        }
        List<Integer> inProcess = new ArrayList<>();
        for (int slot : running) {
            if (!o.childSlots().get(slot)) {
                inProcess.add(slot);
            }
        }
        return inProcess;
    }

    private static SoakSchedule with(SoakSchedule s, SoakFault fault) {
        List<SoakFault> faults = new ArrayList<>(s.faults());
        faults.add(fault);
        return new SoakSchedule(s.backlog(), s.ratePerSecond(), s.durationMs(), List.copyOf(faults), s.plan());
    }

    /**
     * Retry topics carry only failed records: when retryDelays is drawn and no record of the plan fails, 1-3 records
     * failing 1-3 times are added (some then use up every retry), from the second stream.
     */
    private static SoakSchedule withFailures(Random r, SoakOptions o, SoakSchedule s) {
        SoakRecordPlan plan = s.plan();
        if (!o.retries() || plan.count(SoakRecordPlan.Kind.FAIL_ALWAYS) + plan.count(SoakRecordPlan.Kind.FAIL_N) > 0) {
            return s;
        }
        Map<Integer, SoakRecordPlan.Behaviour> special = new HashMap<>(plan.special());
        place(r, special, s.plannedRecords(), 1 + r.nextInt(3), SoakRecordPlan.Kind.FAIL_N, 1 + r.nextInt(3));
        return new SoakSchedule(s.backlog(), s.ratePerSecond(), s.durationMs(), s.faults(),
                new SoakRecordPlan(Map.copyOf(special)));
    }

    /** Adds the later knobs to a valid combination, drawing again while the endpoint would refuse them. */
    private static SoakOptions withExtra(Random r, SoakOptions base) {
        while (true) {
            boolean offsetMap = r.nextInt(100) >= 30;
            int roll = r.nextInt(100);
            boolean registry = roll >= 55;
            boolean perPartition = roll >= 40 && roll < 55 || roll >= 80;
            String retryDelays = r.nextInt(100) < 40 ? RETRY_DELAYS[r.nextInt(RETRY_DELAYS.length)] : null;
            int fetchWaitMaxMs = r.nextInt(100) < 30 ? pick(r, 10, 100) : 0;
            int maxPartitionFetchBytes = r.nextInt(100) < 30 ? pick(r, 256, 4096) : 0;
            String commitTimeout = r.nextInt(100) < 35 ? COMMIT_TIMEOUTS[r.nextInt(COMMIT_TIMEOUTS.length)] : null;
            SoakOptions o = base.withExtra(new SoakOptions.Extra(offsetMap, registry, perPartition, retryDelays,
                    fetchWaitMaxMs, maxPartitionFetchBytes, commitTimeout, false, null, false, false, false));
            if (o.invalidReason() == null) {
                return o;
            }
        }
    }

    /** Rules that need both the options and the schedule; null when the pair is valid. */
    static String invalid(SoakOptions o, SoakSchedule s) {
        if (o.breakOnFirstError() && o.breakOnFirstErrorMaxAttempts() == 0 && s.plan().alwaysFailing() > 0) {
            return "breakOnFirstError without max attempts re-delivers an always-failing record forever (documented)";
        }
        if (s.count(SoakFault.Kind.KILL) > 0 && !o.childSlots().contains(true)) {
            return "a SIGKILL needs a child JVM";
        }
        return null;
    }

    private static SoakOptions options(Random r) {
        int partitions = 1 + r.nextInt(8);
        int keys = pick(r, 8, 32, 128);
        int slots = 1 + r.nextInt(3);
        List<Boolean> children = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            children.add(r.nextInt(100) < 35);
        }
        int initial = 1 + r.nextInt(slots);
        int roll = r.nextInt(100);
        int consumersCount = roll < 60 ? 1 : roll < 85 ? 2 : 3;
        String protocol = PROTOCOLS[r.nextInt(PROTOCOLS.length)];
        int maxConcurrency = CONCURRENCY[r.nextInt(CONCURRENCY.length)];
        String ordering = ORDERINGS[r.nextInt(ORDERINGS.length)];
        boolean batching = r.nextInt(100) < 25;
        int batchingInterval = batching && r.nextBoolean() ? pick(r, 50, 200) : 0;
        boolean bofe = r.nextInt(100) < 30;
        int bofeMax = bofe && r.nextBoolean() ? pick(r, 2, 3) : 0;
        roll = r.nextInt(100);
        String manual = roll < 60 ? "none" : roll < 73 ? "sync" : roll < 86 ? "nth" : "later";
        int manualEvery = pick(r, 3, 10);
        int manualDelay = pick(r, 20, 150);
        boolean autoCommit = "none".equals(manual) || r.nextBoolean();
        boolean dlt = r.nextInt(100) < 60;
        long stall = r.nextInt(100) < 35 ? pick(r, 1000, 1500) : 0;
        int maxPollInterval = r.nextInt(100) < 25 ? 5000 : 0;
        int maxPollRecords = POLL_RECORDS[r.nextInt(POLL_RECORDS.length)];
        int maxInFlight = IN_FLIGHT[r.nextInt(IN_FLIGHT.length)];
        int work = maxConcurrency == 1 ? pick(r, 0, 1) : pick(r, 1, 3, 5);
        return new SoakOptions(partitions, keys, List.copyOf(children), initial, consumersCount, protocol,
                maxConcurrency, ordering, batching, batchingInterval, bofe, bofeMax, manual,
                "nth".equals(manual) ? manualEvery : 0, "later".equals(manual) ? manualDelay : 0, autoCommit, dlt,
                stall, maxPollInterval, maxPollRecords, maxInFlight, work, SoakOptions.Extra.DEFAULTS);
    }

    private static SoakSchedule schedule(Random r, SoakOptions o) {
        long duration = 6000 + r.nextInt(6001);
        int rate = 150 + r.nextInt(151);
        int backlog = 100 + r.nextInt(901);
        List<SoakFault> faults = faults(r, o, duration, EnumSet.allOf(SoakFault.Kind.class));
        int planned = backlog + (int) (rate * duration / 1000);
        return new SoakSchedule(backlog, rate, duration, List.copyOf(faults), plan(r, o, planned));
    }

    /**
     * Up to three faults of the given kinds, one after another, each feasible in the simulated state of the members at
     * its time (the share soak's oldest seeds draw no suspend and no broker restart: {@link ShareSoakGenerator}).
     */
    static List<SoakFault> faults(Random r, SoakOptions o, long duration, Set<SoakFault.Kind> kinds) {
        TreeSet<Integer> running = new TreeSet<>();
        for (int i = 0; i < o.initialMembers(); i++) {
            running.add(i);
        }
        List<SoakFault> faults = new ArrayList<>();
        long t = 1500 + r.nextInt(1500);
        while (t < duration - 1500 && faults.size() < 3) {
            List<Integer> children = new ArrayList<>();
            List<Integer> idle = new ArrayList<>();
            for (int i = 0; i < o.maxMembers(); i++) {
                if (running.contains(i)) {
                    if (o.childSlots().get(i)) {
                        children.add(i);
                    }
                } else {
                    idle.add(i);
                }
            }
            List<SoakFault.Kind> feasible = new ArrayList<>();
            if (!children.isEmpty()) {
                feasible.add(SoakFault.Kind.KILL);
                feasible.add(SoakFault.Kind.KILL); // kills are what only the soak can do: twice as likely
            }
            feasible.add(SoakFault.Kind.RESTART);
            feasible.add(SoakFault.Kind.SUSPEND);
            feasible.add(SoakFault.Kind.BROKER);
            if (!idle.isEmpty()) {
                feasible.add(SoakFault.Kind.JOIN);
            }
            if (running.size() >= 2) {
                feasible.add(SoakFault.Kind.LEAVE);
            }
            feasible.retainAll(kinds);
            SoakFault.Kind kind = feasible.get(r.nextInt(feasible.size()));
            List<Integer> runningList = new ArrayList<>(running);
            SoakFault fault = switch (kind) {
                case KILL -> new SoakFault(kind, t, children.get(r.nextInt(children.size())), 500 + r.nextInt(2000));
                case RESTART -> new SoakFault(kind, t, runningList.get(r.nextInt(runningList.size())),
                        500 + r.nextInt(2000));
                case SUSPEND -> new SoakFault(kind, t, runningList.get(r.nextInt(runningList.size())),
                        500 + r.nextInt(2500));
                case BROKER -> new SoakFault(kind, t, r.nextInt(3), 1000 + r.nextInt(4000));
                case JOIN -> new SoakFault(kind, t, idle.get(r.nextInt(idle.size())), 0);
                case LEAVE -> new SoakFault(kind, t, runningList.get(r.nextInt(runningList.size())), 0);
                case PAUSE_PARTITION, OPERATOR_SEEK, OPERATOR_PARK -> throw new IllegalStateException(
                        "drawn apart (withOperatorPause, withOperatorActions)");
            };
            if (kind == SoakFault.Kind.JOIN) {
                running.add(fault.target());
            } else if (kind == SoakFault.Kind.LEAVE) {
                running.remove(fault.target());
            }
            faults.add(fault);
            t += fault.durationMs() + 1000 + r.nextInt(2500);
        }
        return faults;
    }

    private static SoakRecordPlan plan(Random r, SoakOptions o, int planned) {
        Map<Integer, SoakRecordPlan.Behaviour> special = new HashMap<>();
        if (r.nextInt(100) < 40) {
            place(r, special, planned, 1 + r.nextInt(4), SoakRecordPlan.Kind.FAIL_ALWAYS, 0);
        }
        if (r.nextInt(100) < 40) {
            place(r, special, planned, 1 + r.nextInt(4), SoakRecordPlan.Kind.FAIL_N, 1 + r.nextInt(2));
        }
        if (r.nextInt(100) < 35) {
            place(r, special, planned, 1 + r.nextInt(4), SoakRecordPlan.Kind.UNDESERIALIZABLE, 0);
        }
        if (o.stallTimeoutMs() > 0 && r.nextInt(100) < 60) {
            place(r, special, planned, 1 + r.nextInt(2), SoakRecordPlan.Kind.SLOW_STALL,
                    (int) o.stallTimeoutMs() + 1000);
        }
        if (o.maxPollIntervalMs() > 0 && r.nextInt(100) < 70) {
            place(r, special, planned, 1, SoakRecordPlan.Kind.SLOW_POLL, o.maxPollIntervalMs() + 1000);
        }
        return new SoakRecordPlan(Map.copyOf(special));
    }

    static void place(Random r, Map<Integer, SoakRecordPlan.Behaviour> special, int planned, int count,
                      SoakRecordPlan.Kind kind, int param) {
        for (int i = 0; i < count; i++) {
            int n = r.nextInt(planned);
            if (!special.containsKey(n)) {
                special.put(n, new SoakRecordPlan.Behaviour(kind, param));
            }
        }
    }

    /** MurmurHash3's 64-bit finalizer. */
    static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    static int pick(Random r, int... values) {
        return values[r.nextInt(values.length)];
    }
}
