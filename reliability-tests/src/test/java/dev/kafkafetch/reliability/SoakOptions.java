package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.List;

/**
 * The kafka-fetch options of one soak combination (what {@link SoakGenerator} drew from the seed), the kafka-fetch URI
 * they make, and a compact description for the {@code SOAK} line. Timings the combination does not vary are constants
 * here, so that duplicate bounds and the checker's excuses can be computed from them.
 *
 * @param partitions        partitions of the consumed topic (1-8)
 * @param keys              distinct record keys ({@code k0..k<keys-1>})
 * @param childSlots        one entry per member slot (the first {@code initialMembers} run from the start, the others
 *                          can join): true = a child JVM (can be SIGKILLed), false = a CamelContext in the test JVM
 * @param initialMembers    members running from the start
 * @param consumersCount    fetch tasks per member
 * @param protocol          {@code eager} (classic, RangeAssignor), {@code cooperative} (classic, CooperativeSticky)
 *                          or {@code consumer} (KIP-848)
 * @param manualCommit      {@code none}, {@code sync} (commit() of every record in the route), {@code nth} (of every
 *                          {@code manualEvery}-th offset) or {@code later} (every record, from another thread
 *                          {@code manualDelayMs} after the route finished it)
 * @param stallTimeoutMs    0 = none
 * @param maxPollIntervalMs 0 = Kafka's default
 * @param workMs            what the route sleeps per record
 * @param extra             the knobs added after the first soak (drawn from a random stream of their own, so that the
 *                          seeds of the first soak still give the same combinations above)
 */
record SoakOptions(int partitions, int keys, List<Boolean> childSlots, int initialMembers, int consumersCount,
        String protocol, int maxConcurrency, String ordering, boolean batching, int batchingIntervalMs,
        boolean breakOnFirstError, int breakOnFirstErrorMaxAttempts, String manualCommit, int manualEvery,
        int manualDelayMs, boolean autoCommitEnable, boolean deadLetterTopic, long stallTimeoutMs,
        int maxPollIntervalMs, int maxPollRecords, int maxInFlightRecords, int workMs, Extra extra) {

    /**
     * The knobs of the options added since the first soak.
     *
     * @param offsetMap              kafka-fetch's {@code offsetMap} (default true; takes effect with autoCommitEnable)
     * @param meterRegistry          a Micrometer {@code SimpleMeterRegistry} is bound as {@code metricsRegistry} in every
     *                               member's Camel registry, so the consumer registers its meters
     * @param metricsPerPartition    {@code metricsPerPartition=true} (accepted, and ignored without a registry)
     * @param retryDelays            {@code retryDelays} as written in the URI (e.g. {@code 200,500} or
     *                               {@code 300ms,1s}), null = no retry topics
     * @param fetchWaitMaxMs         {@code fetchWaitMaxMs}, 0 = the default
     * @param maxPartitionFetchBytes {@code maxPartitionFetchBytes}, 0 = the default
     * @param commitTimeout          {@code commitTimeoutMs} as written in the URI (milliseconds or a duration such as
     *                               {@code 2s}), null = the default
     * @param pooledExchanges        every member's CamelContext uses Camel's pooled exchange factories (as
     *                               {@code camel.main.exchangeFactory=pooled} does), so exchanges and their messages are
     *                               reused record after record
     * @param finishedCommits        commits go through {@code finishedCommitIntervalMs} (every
     *                               {@link #COMMIT_INTERVAL_MS} after records finish) with {@code autoCommitIntervalMs}
     *                               5 s, instead of through an interval of {@link #COMMIT_INTERVAL_MS}
     * @param transacted             {@code transacted=true}: the route sends each record it routes successfully to
     *                               the output topic ({@link #outputTopic}) with {@code to("kafka-fetch:<out>")}, and a
     *                               read_committed reader must see each such record there exactly once
     * @param asyncRoute             the route's work is an asynchronous step ({@link SoakAsyncStep}): the worker gives
     *                               its thread back at once and another thread completes the record after the work
     */
    record Extra(boolean offsetMap, boolean meterRegistry, boolean metricsPerPartition, String retryDelays,
            int fetchWaitMaxMs, int maxPartitionFetchBytes, String commitTimeout, boolean pooledExchanges,
            String seekTo, boolean finishedCommits, boolean transacted, boolean asyncRoute) {

        /** What a combination without any of the new knobs has (the endpoint's defaults). */
        static final Extra DEFAULTS = new Extra(true, false, false, null, 0, 0, null, false, null, false, false,
                false);

        Extra withPooledExchanges(boolean pooled) {
            return new Extra(offsetMap, meterRegistry, metricsPerPartition, retryDelays, fetchWaitMaxMs,
                    maxPartitionFetchBytes, commitTimeout, pooled, seekTo, finishedCommits, transacted, asyncRoute);
        }

        /** @param seek BEGINNING, END or null (none) */
        Extra withSeekTo(String seek) {
            return new Extra(offsetMap, meterRegistry, metricsPerPartition, retryDelays, fetchWaitMaxMs,
                    maxPartitionFetchBytes, commitTimeout, pooledExchanges, seek, finishedCommits, transacted,
                    asyncRoute);
        }

        Extra withFinishedCommits(boolean finished) {
            return new Extra(offsetMap, meterRegistry, metricsPerPartition, retryDelays, fetchWaitMaxMs,
                    maxPartitionFetchBytes, commitTimeout, pooledExchanges, seekTo, finished, transacted, asyncRoute);
        }

        Extra withTransacted(boolean tx, String retries, String seek) {
            return new Extra(offsetMap, meterRegistry, metricsPerPartition, retries, fetchWaitMaxMs,
                    maxPartitionFetchBytes, commitTimeout, pooledExchanges, seek, finishedCommits, tx, asyncRoute);
        }

        Extra withAsyncRoute(boolean async) {
            return new Extra(offsetMap, meterRegistry, metricsPerPartition, retryDelays, fetchWaitMaxMs,
                    maxPartitionFetchBytes, commitTimeout, pooledExchanges, seekTo, finishedCommits, transacted, async);
        }
    }

    static final int COMMIT_INTERVAL_MS = 200;
    static final int SESSION_TIMEOUT_MS = 6000;
    /** The broker's {@code group.consumer.session.timeout.ms} (EmbeddedKafkaCluster's default) for KIP-848. */
    static final int CONSUMER_PROTOCOL_SESSION_TIMEOUT_MS = 10_000;
    static final int REVOKE_TIMEOUT_MS = 2000;
    static final int SHUTDOWN_TIMEOUT_MS = 8000;
    static final int POLL_TIMEOUT_MS = 1000;
    static final String ROUTE_ID = "soak";
    static final String EXCEPTION_HANDLER = "soakExceptionHandler";
    /** The component's default {@code retryTopicPattern} is {@code {topic}.retry-{n}}. */
    static final String RETRY_TOPIC_INFIX = ".retry-";

    int maxMembers() {
        return childSlots.size();
    }

    boolean manual() {
        return !"none".equals(manualCommit);
    }

    /** PARTITION or KEY: executions of one lane must not overlap and must run in offset order. */
    boolean ordered() {
        return !"UNORDERED".equals(ordering);
    }

    SoakOptions withExtra(Extra e) {
        return new SoakOptions(partitions, keys, childSlots, initialMembers, consumersCount, protocol, maxConcurrency,
                ordering, batching, batchingIntervalMs, breakOnFirstError, breakOnFirstErrorMaxAttempts, manualCommit,
                manualEvery, manualDelayMs, autoCommitEnable, deadLetterTopic, stallTimeoutMs, maxPollIntervalMs,
                maxPollRecords, maxInFlightRecords, workMs, e);
    }

    /** Whether the combination is a transacted pipeline (see {@link Extra#transacted}). */
    boolean transacted() {
        return extra.transacted();
    }

    /**
     * This combination as a transacted pipeline: without what the endpoint refuses with {@code transacted=true}
     * (batching, breakOnFirstError, manual commits and {@code autoCommitEnable=false}, retryDelays; see
     * {@code EndpointSettings} and {@code TransactedOptionsTest}), and without seekTo=BEGINNING, which asks for the
     * records to be routed (and written) again.
     */
    SoakOptions asTransacted() {
        return new SoakOptions(partitions, keys, childSlots, initialMembers, consumersCount, protocol, maxConcurrency,
                ordering, false, 0, false, 0, "none", 0, 0, true, deadLetterTopic, stallTimeoutMs, maxPollIntervalMs,
                maxPollRecords, maxInFlightRecords, workMs,
                extra.withTransacted(true, null, "BEGINNING".equals(extra.seekTo()) ? null : extra.seekTo()));
    }

    /** The topic a transacted combination's route writes to: the source topic's name with {@code .out}. */
    static String outputTopic(String topic) {
        return topic + ".out";
    }

    /**
     * The URI of the member in {@code slot}: a transacted member gets a transactionalIdPrefix of its slot's own, the
     * same for each of its incarnations, so a restarted (or killed and started again) member fences its predecessor.
     */
    static String memberUri(String uri, boolean transacted, String group, int slot) {
        return transacted ? uri + "&transactionalIdPrefix=" + group + "-m" + slot : uri;
    }

    /** Whether failed records go through retry topics ({@code retryDelays}). */
    boolean retries() {
        return extra.retryDelays() != null;
    }

    /** The retry delays in ms (none without retries); the retry topic of stage n (1..) waits {@code [n-1]}. */
    long[] retryDelaysMs() {
        if (!retries()) {
            return new long[0];
        }
        String[] parts = extra.retryDelays().split(",");
        long[] ms = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i].trim();
            ms[i] = p.endsWith("ms") ? Long.parseLong(p.substring(0, p.length() - 2))
                    : p.endsWith("s") ? 1000 * Long.parseLong(p.substring(0, p.length() - 1)) : Long.parseLong(p);
        }
        return ms;
    }

    /** Retry topics per source topic (0 without retries). */
    int retryStages() {
        return retryDelaysMs().length;
    }

    /** The retry topics of {@code topic}, stage 1 first (the component creates them at route start). */
    List<String> retryTopics(String topic) {
        List<String> topics = new ArrayList<>();
        for (int n = 1; n <= retryStages(); n++) {
            topics.add(topic + RETRY_TOPIC_INFIX + n);
        }
        return topics;
    }

    /** The longest a record spends waiting in retry topics (sum of the delays). */
    long retryWaitMs() {
        long sum = 0;
        for (long d : retryDelaysMs()) {
            sum += d;
        }
        return sum;
    }

    int sessionTimeoutMs() {
        return "consumer".equals(protocol) ? CONSUMER_PROTOCOL_SESSION_TIMEOUT_MS : SESSION_TIMEOUT_MS;
    }

    /** Why the component (EndpointSettings) or the contract rules this combination out, or null when it is valid. */
    String invalidReason() {
        if (maxInFlightRecords < maxPollRecords) {
            return "maxInFlightRecords < maxPollRecords (refused by the endpoint)";
        }
        if (batchingIntervalMs > 0 && !batching) {
            return "batchingIntervalMs without batching";
        }
        if (breakOnFirstErrorMaxAttempts > 0 && !breakOnFirstError) {
            return "breakOnFirstErrorMaxAttempts without breakOnFirstError";
        }
        if (!autoCommitEnable && !manual()) {
            return "nothing would ever commit";
        }
        if ("nth".equals(manualCommit) && manualEvery < 2) {
            return "nth manual commit needs a period";
        }
        if (maxPollIntervalMs > 0 && maxPollIntervalMs <= REVOKE_TIMEOUT_MS + 2000) {
            return "maxPollIntervalMs must leave the revoke callback time to finish";
        }
        if (initialMembers < 1 || initialMembers > childSlots.size()) {
            return "initial members out of range";
        }
        if (transacted() && (batching || breakOnFirstError || manual() || !autoCommitEnable || retries())) {
            return "transacted with batching, breakOnFirstError, manual commits or retryDelays (refused by the endpoint)";
        }
        if (retries() && breakOnFirstError) {
            return "retryDelays with breakOnFirstError (refused by the endpoint: a retried record leaves its order)";
        }
        return null;
    }

    /** The kafka-fetch URI of every member of this combination. */
    String uri(String bootstrap, String topic, String group, String dlt) {
        List<String> o = new ArrayList<>();
        o.add("brokers=" + bootstrap);
        o.add("groupId=" + group);
        o.add("autoOffsetReset=earliest");
        o.add("operatorActions=true"); // enables the operator's actions (PAUSE_PARTITION faults); changes nothing else
        if (extra.finishedCommits()) {
            o.add("autoCommitIntervalMs=5000");
            o.add("finishedCommitIntervalMs=" + COMMIT_INTERVAL_MS);
        } else {
            o.add("autoCommitIntervalMs=" + COMMIT_INTERVAL_MS);
        }
        o.add("pollTimeoutMs=" + POLL_TIMEOUT_MS);
        o.add("sessionTimeoutMs=" + SESSION_TIMEOUT_MS);
        o.add("heartbeatIntervalMs=500");
        o.add("revokeTimeoutMs=" + REVOKE_TIMEOUT_MS);
        o.add("shutdownTimeout=" + SHUTDOWN_TIMEOUT_MS);
        o.add("consumersCount=" + consumersCount);
        o.add("maxConcurrency=" + maxConcurrency);
        o.add("ordering=" + ordering);
        o.add("maxPollRecords=" + maxPollRecords);
        o.add("maxInFlightRecords=" + maxInFlightRecords);
        o.add("valueDeserializer=org.apache.kafka.common.serialization.IntegerDeserializer");
        o.add("exceptionHandler=#" + EXCEPTION_HANDLER);
        o.add("kafkaClientFactory=#class:" + SoakCommitLog.class.getName()); // logs every accepted commit
        o.add("additionalProperties.reconnect.backoff.max.ms=1000");
        if ("consumer".equals(protocol)) {
            o.add("groupProtocol=consumer");
        } else if ("cooperative".equals(protocol)) {
            o.add("partitionAssignor=org.apache.kafka.clients.consumer.CooperativeStickyAssignor");
        }
        if (batching) {
            o.add("batching=true");
            if (batchingIntervalMs > 0) {
                o.add("batchingIntervalMs=" + batchingIntervalMs);
            }
        }
        if (breakOnFirstError) {
            o.add("breakOnFirstError=true");
            if (breakOnFirstErrorMaxAttempts > 0) {
                o.add("breakOnFirstErrorMaxAttempts=" + breakOnFirstErrorMaxAttempts);
            }
        }
        if (manual()) {
            o.add("allowManualCommit=true");
            o.add("autoCommitEnable=" + autoCommitEnable);
        }
        if (deadLetterTopic) {
            o.add("deadLetterTopic=" + dlt);
        }
        if (stallTimeoutMs > 0) {
            o.add("stallTimeoutMs=" + stallTimeoutMs);
        }
        if (maxPollIntervalMs > 0) {
            o.add("maxPollIntervalMs=" + maxPollIntervalMs);
        }
        if (!extra.offsetMap()) {
            o.add("offsetMap=false");
        }
        if (extra.metricsPerPartition()) {
            o.add("metricsPerPartition=true");
        }
        if (retries()) {
            o.add("retryDelays=" + extra.retryDelays());
        }
        if (extra.seekTo() != null) {
            o.add("seekTo=" + extra.seekTo());
        }
        if (extra.fetchWaitMaxMs() > 0) {
            o.add("fetchWaitMaxMs=" + extra.fetchWaitMaxMs());
        }
        if (extra.maxPartitionFetchBytes() > 0) {
            o.add("maxPartitionFetchBytes=" + extra.maxPartitionFetchBytes());
        }
        if (extra.commitTimeout() != null) {
            o.add("commitTimeoutMs=" + extra.commitTimeout());
        }
        if (transacted()) {
            o.add("transacted=true"); // the member's transactionalIdPrefix: memberUri
        }
        return "kafka-fetch:" + topic + "?" + String.join("&", o);
    }

    /** e.g. {@code p4,keys32,members2/3[child,in,in],cc1,cooperative,c64,KEY,batch(50ms),bofe(3),dlt,...}. */
    String describe() {
        List<String> d = new ArrayList<>();
        d.add("p" + partitions);
        d.add("keys" + keys);
        List<String> kinds = new ArrayList<>();
        for (boolean child : childSlots) {
            kinds.add(child ? "child" : "in");
        }
        d.add("members" + initialMembers + "/" + childSlots.size() + "[" + String.join(",", kinds) + "]");
        d.add("cc" + consumersCount);
        d.add(protocol);
        d.add("c" + maxConcurrency);
        d.add(ordering);
        if (batching) {
            d.add(batchingIntervalMs > 0 ? "batch(" + batchingIntervalMs + "ms)" : "batch");
        }
        if (breakOnFirstError) {
            d.add(breakOnFirstErrorMaxAttempts > 0 ? "bofe(" + breakOnFirstErrorMaxAttempts + ")" : "bofe");
        }
        if (manual()) {
            String how = switch (manualCommit) {
                case "nth" -> "nth" + manualEvery;
                case "later" -> "later" + manualDelayMs + "ms";
                default -> manualCommit;
            };
            d.add("manual(" + how + (autoCommitEnable ? ",auto" : ",noauto") + ")");
        }
        if (deadLetterTopic) {
            d.add("dlt");
        }
        if (stallTimeoutMs > 0) {
            d.add("stall" + stallTimeoutMs);
        }
        if (maxPollIntervalMs > 0) {
            d.add("mpi" + maxPollIntervalMs);
        }
        d.add("mpr" + maxPollRecords);
        d.add("mif" + maxInFlightRecords);
        d.add("work" + workMs);
        if (extra.asyncRoute()) {
            d.add("async");
        }
        if (!extra.offsetMap()) {
            d.add("nomap");
        }
        if (extra.meterRegistry() || extra.metricsPerPartition()) {
            d.add((extra.meterRegistry() ? "meters" : "noRegistry") + (extra.metricsPerPartition() ? "(part)" : ""));
        }
        if (retries()) {
            d.add("retry(" + extra.retryDelays().replace(',', '/') + ")");
        }
        if (extra.seekTo() != null) {
            d.add("seekTo" + extra.seekTo());
        }
        if (extra.finishedCommits()) {
            d.add("finishedCommits");
        }
        if (extra.fetchWaitMaxMs() > 0) {
            d.add("fwm" + extra.fetchWaitMaxMs());
        }
        if (extra.maxPartitionFetchBytes() > 0) {
            d.add("mpfb" + extra.maxPartitionFetchBytes());
        }
        if (extra.commitTimeout() != null) {
            d.add("ct" + extra.commitTimeout());
        }
        if (extra.pooledExchanges()) {
            d.add("pooled");
        }
        if (transacted()) {
            d.add("transacted");
        }
        return String.join(",", d);
    }
}
