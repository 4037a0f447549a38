package dev.kafkafetch.bench;

import java.util.Locale;

/**
 * What to run: a contender kind and its knobs. {@link #toArg()} / {@link #parse(String)} carry a spec to a child JVM.
 *
 * @param kind            {@link #KAFKA_FETCH}, {@link #CAMEL_KAFKA}, {@link #PLAIN_LOOP} or {@link #PARALLEL_CONSUMER}
 * @param consumers       consumersCount (Camel), poll threads (plain loop); Parallel Consumer always uses one
 * @param maxConcurrency  kafka-fetch / Parallel Consumer window width (ignored by the others)
 * @param ordering        PARTITION, KEY or UNORDERED (kafka-fetch / Parallel Consumer)
 * @param maxInFlight     kafka-fetch maxInFlightRecords, 0 = component default
 * @param pooled          Camel contenders: Camel's pooled exchange factory ({@code camel.main.exchangeFactory=pooled})
 * @param route           what the route does per record ({@link RouteVariant})
 * @param keys            the key distribution of the topic it reads ({@link KeyDistribution#id()}), "" for none
 * @param options         kafka-fetch only: further endpoint options ("k=v&amp;k2=v2"), "" for none; a twin of a
 *                        contender with other options ({@code --kf-twin}) compares them in the same run
 */
record ContenderSpec(String kind, int consumers, int maxConcurrency, String ordering, int maxInFlight,
        boolean pooled, RouteVariant route, String keys, String options) {

    ContenderSpec(String kind, int consumers, int maxConcurrency, String ordering, int maxInFlight,
                  boolean pooled, RouteVariant route, String keys) {
        this(kind, consumers, maxConcurrency, ordering, maxInFlight, pooled, route, keys, "");
    }

    ContenderSpec(String kind, int consumers, int maxConcurrency, String ordering, int maxInFlight) {
        this(kind, consumers, maxConcurrency, ordering, maxInFlight, false);
    }

    ContenderSpec(String kind, int consumers, int maxConcurrency, String ordering, int maxInFlight,
                  boolean pooled) {
        this(kind, consumers, maxConcurrency, ordering, maxInFlight, pooled, RouteVariant.PLAIN, "");
    }

    static final String KAFKA_FETCH = "kafka-fetch";
    static final String CAMEL_KAFKA = "camel-kafka";
    static final String PLAIN_LOOP = "plain-loop";
    static final String PARALLEL_CONSUMER = "parallel-consumer";

    static ContenderSpec kafkaFetch(int consumers, int maxConcurrency, String ordering) {
        return new ContenderSpec(KAFKA_FETCH, consumers, maxConcurrency, ordering, 0);
    }

    static ContenderSpec camelKafka(int consumers) {
        return new ContenderSpec(CAMEL_KAFKA, consumers, 1, "PARTITION", 0);
    }

    /** camel-kafka with {@code batching=true}: one exchange per poll, its body the list of per-record exchanges. */
    static ContenderSpec camelKafkaBatching(int consumers) {
        return new ContenderSpec(CAMEL_KAFKA, consumers, 1, "BATCH", 0);
    }

    static ContenderSpec plainLoop(int consumers) {
        return new ContenderSpec(PLAIN_LOOP, consumers, 1, "PARTITION", 0);
    }

    static ContenderSpec parallelConsumer(int maxConcurrency, String ordering) {
        return new ContenderSpec(PARALLEL_CONSUMER, 1, maxConcurrency, ordering, 0);
    }

    ContenderSpec withMaxInFlight(int n) {
        return new ContenderSpec(kind, consumers, maxConcurrency, ordering, n, pooled, route, keys, options);
    }

    /** The same, with Camel's pooled exchange factory. */
    ContenderSpec pooledExchanges() {
        return new ContenderSpec(kind, consumers, maxConcurrency, ordering, maxInFlight, true, route, keys, options);
    }

    /** The same, with route variant {@code r}. */
    ContenderSpec withRoute(RouteVariant r) {
        return new ContenderSpec(kind, consumers, maxConcurrency, ordering, maxInFlight, pooled, r, keys, options);
    }

    /** The same, reading a topic whose keys follow distribution {@code k} ({@link KeyDistribution#id()}). */
    ContenderSpec withKeys(String k) {
        return new ContenderSpec(kind, consumers, maxConcurrency, ordering, maxInFlight, pooled, route, k, options);
    }

    /** The same kafka-fetch contender with further endpoint options {@code o} ("k=v&amp;k2=v2"). */
    ContenderSpec withOptions(String o) {
        return new ContenderSpec(kind, consumers, maxConcurrency, ordering, maxInFlight, pooled, route, keys, o);
    }

    /** Same contender, route and keys as {@code o} apart from the kind-specific knobs: comparable in a ratio. */
    boolean sameRun(ContenderSpec o) {
        return route == o.route && keys.equals(o.keys);
    }

    /** Consumer-group members this contender creates. */
    int members() {
        return PARALLEL_CONSUMER.equals(kind) ? 1 : consumers;
    }

    boolean isCamelKafka() {
        return CAMEL_KAFKA.equals(kind);
    }

    boolean isPlainLoop() {
        return PLAIN_LOOP.equals(kind);
    }

    boolean isKafkaFetch() {
        return KAFKA_FETCH.equals(kind);
    }

    /** kafka-fetch or camel-kafka in batching mode (one exchange per poll), written as ordering "BATCH". */
    boolean isBatching() {
        return (KAFKA_FETCH.equals(kind) || CAMEL_KAFKA.equals(kind)) && "BATCH".equals(ordering);
    }

    boolean isParallelConsumer() {
        return PARALLEL_CONSUMER.equals(kind);
    }

    String label() {
        return kindLabel() + (pooled ? " pooled" : "") + (options.isEmpty() ? "" : " " + options);
    }

    /** The label with the route and, for a keyed topic, the key distribution: "camel-kafka [headers, zipf keys]". */
    String describe() {
        return label() + " [" + route.id() + (keys.isEmpty() ? "" : ", " + keys + " keys") + "]";
    }

    private String kindLabel() {
        String cc = consumers > 1 ? " cc=" + consumers : "";
        switch (kind) {
            case KAFKA_FETCH:
                if (isBatching()) {
                    return "kafka-fetch" + cc + " batching";
                }
                return "kafka-fetch" + cc + " mc=" + maxConcurrency + " " + ordering
                       + (maxInFlight > 0 ? " inFlight=" + maxInFlight : "");
            case CAMEL_KAFKA:
                return "camel-kafka" + cc + (isBatching() ? " batching" : "");
            case PLAIN_LOOP:
                return "plain KafkaConsumer loop" + (consumers > 1 ? " x" + consumers : "");
            case PARALLEL_CONSUMER:
                return "parallel-consumer mc=" + maxConcurrency + " " + ordering;
            case CamelFloor.KIND:
                return ordering;
            default:
                return kind;
        }
    }

    /**
     * @param camelKafkaExtra extra camel-kafka endpoint options ("&amp;k=v"): empty when measuring; smoke mode lowers
     *                        pollTimeoutMs so that each camel-kafka stop does not cost its default 5 s
     */
    Contender create(String camelKafkaExtra) {
        switch (kind) {
            case KAFKA_FETCH:
            case CAMEL_KAFKA:
                return new CamelRouteContender(this, isCamelKafka() ? camelKafkaExtra : "");
            case PLAIN_LOOP:
                return new PlainLoopContender(consumers);
            case PARALLEL_CONSUMER:
                return new ParallelConsumerContender(maxConcurrency, ordering);
            default:
                throw new IllegalArgumentException("Unknown contender kind " + kind);
        }
    }

    String toArg() {
        return String.join(",", kind, Integer.toString(consumers), Integer.toString(maxConcurrency), ordering,
                Integer.toString(maxInFlight), Boolean.toString(pooled), route.id(), options);
    }

    static ContenderSpec parse(String arg) {
        String[] p = arg.split(",", -1);
        if (p.length < 6 || p.length > 8) {
            throw new IllegalArgumentException("Bad contender spec '" + arg + "' (kind,consumers,maxConcurrency,"
                                               + "ordering,maxInFlight,pooled[,route[,options]])");
        }
        return new ContenderSpec(p[0], Integer.parseInt(p[1]), Integer.parseInt(p[2]), p[3].toUpperCase(Locale.ROOT),
                Integer.parseInt(p[4]), Boolean.parseBoolean(p[5]),
                p.length >= 7 ? RouteVariant.parse(p[6]) : RouteVariant.PLAIN, "", p.length == 8 ? p[7] : "");
    }
}
