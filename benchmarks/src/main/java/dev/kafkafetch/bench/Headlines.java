package dev.kafkafetch.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The report's headline lines: each target of issue #8 and what KEY ordering costs against UNORDERED, every ratio a
 * per-round paired ratio with its 95 % interval ({@link Stats#pairedRatio}), written "no difference" when the
 * interval contains 1.0; a target is met only when the whole interval meets it.
 */
final class Headlines {

    private final List<Result> results;
    private final BenchConfig cfg;

    Headlines(List<Result> results, BenchConfig cfg) {
        this.results = results;
        this.cfg = cfg;
    }

    /** The first result of {@code scenario} and {@code metric} whose spec matches. */
    Optional<Result> find(String scenario, String metric, Predicate<ContenderSpec> which) {
        return results.stream().filter(r -> r.scenario().equals(scenario) && r.metric().equals(metric)
                                            && which.test(r.spec()))
                .findFirst();
    }

    static boolean isStreamingMc1(ContenderSpec s) {
        return s.isKafkaFetch() && !s.pooled() && s.maxConcurrency() == 1 && "PARTITION".equals(s.ordering());
    }

    /** camel-kafka as the reference of {@code s}: batching=true for a batching row, streaming otherwise. */
    static boolean camelKafkaFor(ContenderSpec s, ContenderSpec ref) {
        return ref.isCamelKafka() && !ref.pooled() && ref.isBatching() == s.isBatching() && ref.sameRun(s);
    }

    static Stats.Ratio ratio(Result a, Result b) {
        return Stats.pairedRatio(a.values(), b.values());
    }

    /**
     * "met" when the whole interval is at least (or, {@code atMost}, at most) {@code target}; without an interval
     * (one round) the ratio itself decides, and the ratio's text says there is no interval.
     */
    static String verdict(Stats.Ratio r, double target, boolean atMost) {
        double worst = r.hasInterval() ? (atMost ? r.high() : r.low()) : r.ratio();
        boolean ok = atMost ? worst <= target : worst >= target;
        return ok ? "**met**" : "**not met**";
    }

    private Set<RouteVariant> routes(String scenario) {
        Set<RouteVariant> s = new LinkedHashSet<>();
        results.stream().filter(r -> r.scenario().equals(scenario)).forEach(r -> s.add(r.spec().route()));
        return s;
    }

    List<String> targets() {
        List<String> out = new ArrayList<>();
        for (RouteVariant route : routes(Harness.S1)) {
            s1(route, out);
        }
        s5(out);
        for (Result r : results) {
            if (r.scenario().equals(Harness.S7) && r.spec().isKafkaFetch() && r.metric().equals(Harness.RATE)
                && "cyclic".equals(r.spec().keys())) {
                double ideal = r.spec().maxConcurrency() * 1000.0 / cfg.s3SleepMs;
                double f = r.median() / ideal;
                Optional<Result> pc = find(Harness.S7, Harness.RATE, s -> s.isParallelConsumer() && s.sameRun(r.spec())
                                                                          && s.maxConcurrency() == r.spec()
                                                                                  .maxConcurrency()
                                                                          && s.ordering().equals(r.spec().ordering()));
                out.add(String.format(Locale.ROOT, "S7 %s: %,.0f rec/s = %.1f%% of ideal %,.0f (target ≥ 95%%) %s%s",
                        r.spec().describe(), r.median(), 100 * f, ideal, f >= 0.95 ? "**met**" : "**not met**",
                        pc.map(p -> String.format(Locale.ROOT, "; Parallel Consumer %,.0f rec/s; kafka-fetch / PC %s",
                                p.median(), ratio(r, p).text())).orElse("")));
            }
        }
        for (Result kf : results) {
            ContenderSpec s = kf.spec();
            if (!kf.scenario().equals(Harness.S3) || !kf.metric().equals(Harness.RATE) || !s.isKafkaFetch()
                || s.maxConcurrency() != 256 || !"UNORDERED".equals(s.ordering()) || !"cyclic".equals(s.keys())) {
                continue;
            }
            double ideal = 256 * 1000.0 / cfg.s3SleepMs;
            double f = kf.median() / ideal;
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                    "S3 %s: %,.0f rec/s = %.0f%% of ideal %,.0f (target ≥ 90%%) %s", s.describe(), kf.median(),
                    100 * f, ideal, f >= 0.9 ? "**met**" : "**not met**"));
            find(Harness.S3, Harness.RATE, o -> camelKafkaFor(s, o)).ifPresent(ck -> {
                Stats.Ratio x = ratio(kf, ck);
                sb.append("; vs camel-kafka ").append(x.text()).append(" (target ≥ 20x) ")
                        .append(verdict(x, 20, false));
            });
            find(Harness.S3, Harness.RATE, o -> o.isParallelConsumer() && o.sameRun(s) && o.maxConcurrency() == 256
                                                && "UNORDERED".equals(o.ordering()))
                    .ifPresent(pc -> {
                        Stats.Ratio x = ratio(kf, pc);
                        sb.append("; vs Parallel Consumer mc=256 UNORDERED ")
                                .append(x.text()).append(" (target ≥ 1x) ")
                                .append(verdict(x, 1, false));
                    });
            out.add(sb.toString());
        }
        s4(out);
        Optional<Result> kfStop = find(Harness.S6, "idle stop", ContenderSpec::isKafkaFetch);
        Optional<Result> ckStop = find(Harness.S6, "idle stop", ContenderSpec::isCamelKafka);
        kfStop.ifPresent(r -> out.add(String.format(Locale.ROOT,
                "S6 kafka-fetch idle stop: %.0f ms (target < 1000 ms) %s%s", r.median(),
                r.median() < 1000 ? "**met**" : "**not met**",
                ckStop.map(c -> String.format(Locale.ROOT, "; camel-kafka: %.0f ms", c.median())).orElse(""))));
        return out;
    }

    private void s1(RouteVariant route, List<String> out) {
        String tag = "S1 [" + route.id() + " route] ";
        Predicate<ContenderSpec> r = s -> s.route() == route;
        Optional<Result> kf1 = find(Harness.S1, Harness.RATE, s -> r.test(s) && isStreamingMc1(s));
        Optional<Result> ck1 = find(Harness.S1, Harness.RATE, s -> r.test(s) && s.isCamelKafka() && !s.pooled()
                                                                   && !s.isBatching());
        Optional<Result> pl1 = find(Harness.S1, Harness.RATE, s -> r.test(s) && s.isPlainLoop());
        if (kf1.isPresent() && ck1.isPresent() && pl1.isPresent()) {
            Stats.Ratio a = ratio(kf1.get(), ck1.get());
            Stats.Ratio b = ratio(kf1.get(), pl1.get());
            out.add(tag + "kafka-fetch streaming (mc=1, PARTITION) vs camel-kafka: " + a.text() + " (target ≥ 2x) "
                    + verdict(a, 2, false) + "; vs plain loop: " + b.text() + " (target ≥ 0.6x) "
                    + verdict(b, 0.6, false));
        }
        cpu(tag, r, out);
        Optional<Result> kfb = find(Harness.S1, Harness.RATE, s -> r.test(s) && s.isKafkaFetch() && s.isBatching());
        Optional<Result> ckb = find(Harness.S1, Harness.RATE, s -> r.test(s) && s.isCamelKafka() && s.isBatching());
        if (kfb.isPresent() && (pl1.isPresent() || ckb.isPresent())) {
            List<String> parts = new ArrayList<>();
            pl1.ifPresent(p -> {
                Stats.Ratio b = ratio(kfb.get(), p);
                parts.add("vs plain loop: " + b.text() + " (target ≥ 0.9x) " + verdict(b, 0.9, false));
            });
            ckb.ifPresent(c -> parts.add("vs camel-kafka batching=true: " + ratio(kfb.get(), c).text()));
            out.add(tag + "kafka-fetch batching " + String.join("; ", parts));
        }
        Optional<Result> kfA = find(Harness.S1, Harness.ALLOC_PER_RECORD, s -> r.test(s) && isStreamingMc1(s));
        Optional<Result> ckA = find(Harness.S1, Harness.ALLOC_PER_RECORD,
                s -> r.test(s) && s.isCamelKafka() && !s.pooled() && !s.isBatching());
        if (kfA.isPresent() && ckA.isPresent()) {
            Stats.Ratio a = ratio(kfA.get(), ckA.get());
            out.add(String.format(Locale.ROOT, "%sallocation per record, kafka-fetch mc=1 %,.0f B vs camel-kafka"
                                               + " %,.0f B: %s (target ≤ 1x) %s",
                    tag, kfA.get().median(), ckA.get().median(), a.text(), verdict(a, 1, true)));
        }
    }

    /** CPU per record of the whole JVM, and records per CPU second against camel-kafka (the rate per CPU). */
    private void cpu(String tag, Predicate<ContenderSpec> r, List<String> out) {
        Optional<Result> kf = find(Harness.S1, Harness.JVM_CPU_PER_RECORD, s -> r.test(s) && isStreamingMc1(s));
        Optional<Result> ck = find(Harness.S1, Harness.JVM_CPU_PER_RECORD,
                s -> r.test(s) && s.isCamelKafka() && !s.pooled() && !s.isBatching());
        Optional<Result> kfT = find(Harness.S1, Harness.THREADS, s -> r.test(s) && isStreamingMc1(s));
        Optional<Result> ckT = find(Harness.S1, Harness.THREADS,
                s -> r.test(s) && s.isCamelKafka() && !s.pooled() && !s.isBatching());
        if (kf.isPresent() && ck.isPresent()) {
            out.add(String.format(Locale.ROOT, "%sCPU per record, whole JVM (GC and JIT included), kafka-fetch mc=1"
                                               + " %.3f us (%s threads) vs camel-kafka %.3f us (%s threads): %s;"
                                               + " records per CPU second, kafka-fetch / camel-kafka %s",
                    tag, kf.get().median(), kfT.map(t -> fmtInt(t.median())).orElse("?"), ck.get().median(),
                    ckT.map(t -> fmtInt(t.median())).orElse("?"), ratio(kf.get(), ck.get()).text(),
                    ratio(ck.get(), kf.get()).text()));
        }
    }

    private static String fmtInt(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    private void s5(List<String> out) {
        for (String p : List.of("p50", "p99")) {
            Optional<Result> kf = find(Harness.S5, "latency " + p, Headlines::isStreamingMc1);
            Optional<Result> ck = find(Harness.S5, "latency " + p, ContenderSpec::isCamelKafka);
            if (kf.isPresent() && ck.isPresent()) {
                Stats.Ratio x = ratio(kf.get(), ck.get());
                out.add(String.format(Locale.ROOT, "S5 kafka-fetch mc=1 latency %s vs camel-kafka: %.2f ms vs %.2f ms"
                                                   + " = %s (target ≤ 1x) %s",
                        p, kf.get().median(), ck.get().median(), x.text(), verdict(x, 1, true)));
            }
        }
    }

    private void s4(List<String> out) {
        for (Result r : results) {
            if (r.scenario().equals(Harness.S4) && r.spec().isKafkaFetch() && r.metric().equals(Harness.LIVE_SET)) {
                Optional<Result> inflight = find(Harness.S4, "max in-flight observed", s -> s.equals(r.spec()));
                Optional<Result> ck = find(Harness.S4, Harness.LIVE_SET, ContenderSpec::isCamelKafka);
                long bound = r.spec().maxInFlight();
                out.add(String.format(Locale.ROOT, "S4 %s: live set %.1f MB", r.contender(), r.median())
                        + ck.map(c -> String.format(Locale.ROOT, " (camel-kafka %.1f MB, ratio %s)", c.median(),
                                ratio(r, c).text())).orElse("")
                        + inflight.map(i -> String.format(Locale.ROOT,
                                ", max in-flight observed %,.0f ≤ maxInFlightRecords %,d: %s", i.max(), bound,
                                i.max() <= bound ? "**met**" : "**not met**")).orElse(""));
            }
        }
    }

    /**
     * What KEY ordering costs: for every KEY row of S3/S7 its records/s against the UNORDERED row of the same
     * contender kind, concurrency, route and key distribution, as a paired ratio.
     */
    List<String[]> keyCost() {
        List<String[]> rows = new ArrayList<>();
        for (Result key : results) {
            ContenderSpec s = key.spec();
            if (!(key.scenario().equals(Harness.S3) || key.scenario().equals(Harness.S7))
                || !key.metric().equals(Harness.RATE) || !"KEY".equals(s.ordering())) {
                continue;
            }
            find(key.scenario(), Harness.RATE, o -> o.kind().equals(s.kind()) && o.sameRun(s)
                                                    && o.maxConcurrency() == s.maxConcurrency()
                                                    && "UNORDERED".equals(o.ordering()))
                    .ifPresent(u -> rows.add(new String[] { key.scenario().substring(0, 2),
                        s.label().replace(" KEY", ""), s.route().id(), s.keys(), fmt(key.median()), fmt(u.median()),
                        ratio(key, u).text() }));
        }
        return rows;
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }
}
