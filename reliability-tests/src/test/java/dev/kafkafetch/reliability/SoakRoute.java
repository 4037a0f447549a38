package dev.kafkafetch.reliability;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.commit.KafkaManualCommit;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.engine.PooledExchangeFactory;
import org.apache.camel.impl.engine.PooledProcessorExchangeFactory;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.spi.ExceptionHandler;

/**
 * The route every soak member runs, and its history. Each execution logs, one write per event:
 * <pre>
 * S exec member seq micros thread partition offset n key attempt batchSize stage at   (one per record of the execution)
 * E exec member seq micros ok|fail [reason]
 * X member seq micros partition offset        the consumer's exception handler got the record (log-and-skip)
 * R member seq micros partition offset        an undeserializable record reached the route (it then fails)
 * C member seq micros partition offset exec   the route calls the record's synchronous manual commit()
 * K member seq micros partition offset exec   ... and that commit() returned: the route committed the record
 * P member seq micros message               the exception handler got an error without an exchange
 * A member seq micros n count               a share consumer's poll handed record n to its fetch task, on delivery
 *                                           count (logged by {@link SoakShareClients})
 * N member seq micros partition offset       the broker refused a share acknowledgement of that record (ditto)
 * O member seq micros stage partition offset metadata   the broker accepted a commit of the fetch task (stage 0 =
 *                                           the source topic, n = retry topic n; logged by {@link SoakCommitLog})
 * T member seq micros abort                 a transacted fetch task aborts its transaction (ditto)
 * </pre>
 * A batch (body {@code List<Exchange>}) is one execution: an S line per record when it starts, one E line when it
 * ends. Records are named by the partition and offset they were produced at: a record routed from a retry topic
 * ({@code retryDelays}) is logged with its original partition and offset (headers {@code CamelKafkaFetchOriginal*}),
 * its {@code stage} (0 = the source topic, n = retry topic n) and {@code at}, where it was read from
 * ({@code partition@offset} in that retry topic; {@code -} for the source); C and K lines use the original position
 * too, and name their execution, so a commit while the record runs from a retry topic never speaks for its failed
 * source execution. The route misbehaves on the records of the {@link SoakRecordPlan} (throws, or works longer on its
 * first execution in this JVM), works {@code workMs} per record — sleeping, or in an asynchronous step that holds no
 * thread ({@link SoakAsyncStep}) — and commits by hand as the combination says. A transacted
 * combination's route then writes the record's number (as text) to the output topic with {@code to("kafka-fetch:…")}.
 */
final class SoakRoute implements Processor, ExceptionHandler {

    /**
     * Executions per record number in this JVM (shared by the in-process members: "first N in a JVM"), for the run
     * under way: {@link #newRun} clears it, or a record of one seed would count the executions of another's.
     */
    private static final Map<Integer, AtomicInteger> EXECUTIONS = new ConcurrentHashMap<>();
    /** The name kafka-fetch (as camel-micrometer) looks a MeterRegistry up by. */
    private static final String METER_REGISTRY = "metricsRegistry";
    private static final Pattern RETRY_STAGE = Pattern
            .compile(Pattern.quote(SoakOptions.RETRY_TOPIC_INFIX) + "(\\d+)$");

    private final String member;
    private final SoakHistoryLog log;
    private final SoakOptions options;
    private final SoakRecordPlan plan;
    private final AtomicLong executions = new AtomicLong();
    private final ScheduledExecutorService later;
    private final SoakAsyncStep async;

    SoakRoute(String member, SoakHistoryLog log, SoakCase soakCase) {
        this.member = member;
        this.log = log;
        this.options = soakCase.options();
        this.plan = soakCase.schedule().plan();
        this.later = "later".equals(options.manualCommit()) ? Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "soak-later-commit-" + member);
            t.setDaemon(true);
            return t;
        }) : null;
        this.async = options.extra().asyncRoute() ? new SoakAsyncStep(this, member) : null;
    }

    /**
     * Puts what the route's URI refers to into the member's Camel registry: this route as the consumer's exception
     * handler and, when the combination says so, a Micrometer registry for the consumer's meters; with pooled
     * exchanges, sets Camel's pooled exchange factories (call before the context starts).
     */
    void bindTo(CamelContext context) {
        context.getRegistry().bind(SoakOptions.EXCEPTION_HANDLER, this);
        if (options.extra().pooledExchanges()) {
            context.getCamelContextExtension().setExchangeFactory(new PooledExchangeFactory());
            context.getCamelContextExtension().setProcessorExchangeFactory(new PooledProcessorExchangeFactory());
        }
        if (options.extra().meterRegistry()) {
            context.getRegistry().bind(METER_REGISTRY, new SimpleMeterRegistry());
        }
    }

    RouteBuilder builder(String uri) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(defaultErrorHandler().logExhausted(false));
                RouteDefinition route = from(uri).routeId(SoakOptions.ROUTE_ID)
                        .process(async != null ? async : SoakRoute.this);
                if (options.transacted()) {
                    // held with its record, written in the transaction that counts the record finished
                    String topic = uri.substring(uri.indexOf(':') + 1, uri.indexOf('?'));
                    route.convertBodyTo(String.class).to("kafka-fetch:" + SoakOptions.outputTopic(topic));
                }
            }
        };
    }

    void close() {
        if (later != null) {
            later.shutdownNow();
        }
        if (async != null) {
            async.stopCompletions();
        }
    }

    /**
     * One record of an execution: {@code partition}/{@code offset} where it was produced; {@code stage} 0 for the
     * source topic, else the retry topic it was read from, at {@code retryPartition}/{@code retryOffset}.
     */
    record Rec(Exchange exchange, int partition, long offset, int n, String key, int attempt,
            boolean undeserializable, int stage, int retryPartition, long retryOffset) {

        String at() {
            return stage == 0 ? "-" : retryPartition + "@" + retryOffset;
        }

        Rec withAttempt(int a) {
            return new Rec(exchange, partition, offset, n, key, a, undeserializable, stage, retryPartition,
                    retryOffset);
        }

        /** The offset in the topic it was read from (what its manual commit commits). */
        long readOffset() {
            return stage == 0 ? offset : retryOffset;
        }
    }

    /** One execution: its name and its records. */
    record Execution(String exec, List<Rec> recs) {
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        Execution x = begin(exchange);
        String outcome = "fail interrupted-or-error";
        try {
            for (Rec r : x.recs()) {
                long ms = behave(r);
                if (ms > 0) {
                    Thread.sleep(ms);
                }
            }
            commit(x);
            outcome = "ok";
        } catch (Exception e) {
            outcome = "fail " + reason(e);
            throw e;
        } finally {
            end(x, outcome);
        }
    }

    /** Names the execution of {@code exchange} (a record or a batch) and logs an S line per record. */
    @SuppressWarnings("unchecked")
    Execution begin(Exchange exchange) {
        Object body = exchange.getMessage().getBody();
        List<Rec> recs = new ArrayList<>();
        if (body instanceof List<?> list) {
            for (Object child : list) {
                recs.add(rec((Exchange) child));
            }
            Integer batchAttempt = exchange.getMessage().getHeader(KafkaFetchConstants.DELIVERY_ATTEMPT,
                    Integer.class);
            if (batchAttempt != null) {
                // the docs say the batch exchange carries the batch's delivery count; today only its records do
                recs.replaceAll(r -> r.attempt >= batchAttempt ? r : r.withAttempt(batchAttempt));
            }
        } else {
            recs.add(rec(exchange));
        }
        String exec = member + "#" + executions.incrementAndGet();
        String thread = Thread.currentThread().getName().replace(' ', '_');
        for (Rec r : recs) {
            log.write("S " + exec + " " + member + " " + SoakHistoryLog.seq() + " " + SoakHistoryLog.micros() + " "
                      + thread + " " + r.partition + " " + r.offset + " " + r.n + " " + r.key + " " + r.attempt + " "
                      + recs.size() + " " + r.stage + " " + r.at());
        }
        return new Execution(exec, recs);
    }

    /** Logs the E line of an execution: {@code ok}, or {@code fail reason}. */
    void end(Execution x, String outcome) {
        log.write("E " + x.exec() + " " + member + " " + SoakHistoryLog.seq() + " " + SoakHistoryLog.micros() + " "
                  + outcome);
    }

    /** A run starts in this JVM: its records have run nowhere here yet. */
    static void newRun() {
        EXECUTIONS.clear();
    }

    /** The exception's class and message as one word (for the E line). */
    static String reason(Throwable e) {
        String text = e.getClass().getSimpleName() + ":" + e.getMessage();
        Throwable cause = e.getCause();
        if (cause != null && cause != e) {
            text += "<-" + cause.getClass().getSimpleName() + ":" + cause.getMessage();
        }
        text = text.replaceAll("\\s+", "_");
        return text.length() > 200 ? text.substring(0, 200) : text;
    }

    private static Rec rec(Exchange exchange) {
        Message m = exchange.getMessage();
        Integer partition = m.getHeader(KafkaFetchConstants.PARTITION, Integer.class);
        Long offset = m.getHeader(KafkaFetchConstants.OFFSET, Long.class);
        Integer attempt = m.getHeader(KafkaFetchConstants.DELIVERY_ATTEMPT, Integer.class);
        String key = m.getHeader(KafkaFetchConstants.KEY, String.class);
        Object body = m.getBody();
        int n = -1;
        boolean undeserializable = false;
        if (body instanceof Integer i) {
            n = i;
        } else if (body instanceof byte[] raw && raw.length == 3) {
            undeserializable = true;
            n = number(raw);
        }
        int stage = 0;
        int retryPartition = -1;
        long retryOffset = -1;
        String topic = m.getHeader(KafkaFetchConstants.TOPIC, String.class);
        String originalTopic = m.getHeader(KafkaFetchConstants.ORIGINAL_TOPIC, String.class);
        if (topic != null && originalTopic != null && !topic.equals(originalTopic)) {
            // read from a retry topic: named by where it was produced, its original partition and offset
            Matcher stageOf = RETRY_STAGE.matcher(topic);
            stage = stageOf.find() ? Integer.parseInt(stageOf.group(1)) : 99;
            retryPartition = partition == null ? -1 : partition;
            retryOffset = offset == null ? -1 : offset;
            partition = m.getHeader(KafkaFetchConstants.ORIGINAL_PARTITION, Integer.class);
            offset = m.getHeader(KafkaFetchConstants.ORIGINAL_OFFSET, Long.class);
        }
        return new Rec(exchange, partition == null ? -1 : partition, offset == null ? -1 : offset, n,
                key == null ? "-" : key, attempt == null ? 0 : attempt, undeserializable, stage, retryPartition,
                retryOffset);
    }

    /**
     * What the plan has record {@code r} do: throws when it fails, else returns how long it works (milliseconds): its
     * slow first execution in this JVM, plus {@code workMs}.
     */
    long behave(Rec r) {
        if (r.undeserializable) {
            log.write("R " + member + " " + SoakHistoryLog.seq() + " " + SoakHistoryLog.micros() + " " + r.partition
                      + " " + r.offset);
            throw new IllegalStateException("an undeserializable record reached the route: " + r.partition + "@"
                                            + r.offset);
        }
        long ms = options.workMs();
        SoakRecordPlan.Behaviour b = plan.of(r.n);
        if (b != null) {
            int count = EXECUTIONS.computeIfAbsent(r.n, k -> new AtomicInteger()).incrementAndGet();
            switch (b.kind()) {
                case FAIL_ALWAYS -> throw new IllegalStateException("poison record " + r.n);
                case FAIL_N -> {
                    if (count <= b.param()) {
                        throw new IllegalStateException("record " + r.n + " fails its execution " + count);
                    }
                }
                case SLOW_STALL, SLOW_POLL, SLOW_LOCK, SLOW_PARK -> {
                    if (count == 1) {
                        ms += b.param();
                    }
                }
                default -> {
                }
            }
        }
        return ms;
    }

    /** Commits the execution's records by hand, as the combination says. */
    void commit(Execution x) {
        List<Rec> recs = x.recs();
        String exec = x.exec();
        switch (options.manualCommit()) {
            case "sync" -> recs.forEach(r -> commitNow(r, exec));
            case "nth" -> {
                // a commit() completes once the records before it are finished; in a batch they finish only with the
                // batch, so a batch commits every record up to its last N-th offset, in order (each commit() marks its
                // record finished) — committing the N-th alone would wait for its own batch until commitTimeoutMs
                int last = -1;
                for (int i = 0; i < recs.size(); i++) {
                    if (recs.get(i).readOffset() % options.manualEvery() == 0) {
                        last = i;
                    }
                }
                recs.subList(0, last + 1).forEach(r -> commitNow(r, exec));
            }
            case "later" -> {
                for (Rec r : recs) {
                    KafkaManualCommit c = manualCommit(r);
                    later.schedule(() -> {
                        try {
                            c.commit();
                        } catch (RuntimeException e) {
                            // a rebalance took the record away: it is not committed, which is all the contract says
                        }
                    }, options.manualDelayMs(), TimeUnit.MILLISECONDS);
                }
            }
            default -> {
            }
        }
    }

    /**
     * A synchronous manual commit from the route: the route declares the record done, so a C event is written first;
     * if the member is SIGKILLed before the execution's E event, the record still counts as completed by the route.
     */
    private void commitNow(Rec r, String exec) {
        log.write("C " + member + " " + SoakHistoryLog.seq() + " " + SoakHistoryLog.micros() + " " + r.partition + " "
                  + r.offset + " " + exec);
        manualCommit(r).commit();
        log.write("K " + member + " " + SoakHistoryLog.seq() + " " + SoakHistoryLog.micros() + " " + r.partition + " "
                  + r.offset + " " + exec);
    }

    private static KafkaManualCommit manualCommit(Rec r) {
        KafkaManualCommit c = r.exchange.getMessage().getHeader(KafkaFetchConstants.MANUAL_COMMIT,
                KafkaManualCommit.class);
        if (c == null) {
            throw new IllegalStateException("no " + KafkaFetchConstants.MANUAL_COMMIT + " header on " + r.partition
                                            + "@" + r.offset);
        }
        return c;
    }

    /** A share consumer of this member handed record {@code n} to its fetch task, on delivery {@code count}. */
    void acquired(int n, int count) {
        log.write("A " + member + " " + SoakHistoryLog.seq() + " " + SoakHistoryLog.micros() + " " + n + " " + count);
    }

    /** The broker refused an acknowledgement (a renewal or an outcome) of this member's record at partition@offset. */
    void refused(int partition, long offset) {
        log.write("N " + member + " " + SoakHistoryLog.seq() + " " + SoakHistoryLog.micros() + " " + partition + " "
                  + offset);
    }

    /** A transacted fetch task of this member aborts its transaction (logged by {@link SoakCommitLog}). */
    void aborted() {
        log.write("T " + member + " " + SoakHistoryLog.seq() + " " + SoakHistoryLog.micros() + " abort");
    }

    /**
     * The broker accepted this member's commit of {@code offset} (with {@code metadata}, the offset map) for
     * partition {@code partition} of {@code topic}, the source topic or a retry topic (logged by {@link SoakCommitLog}).
     */
    void committed(String topic, int partition, long offset, String metadata) {
        Matcher stageOf = RETRY_STAGE.matcher(topic);
        int stage = stageOf.find() ? Integer.parseInt(stageOf.group(1)) : 0;
        log.write("O " + member + " " + SoakHistoryLog.seq() + " " + SoakHistoryLog.micros() + " " + stage + " "
                  + partition + " " + offset + " " + (metadata == null || metadata.isEmpty() ? "-" : metadata));
    }

    /** The record number of a value (see {@link #value}): a 4-byte int, or the 3 bytes of an undeserializable one. */
    static int number(byte[] value) {
        if (value != null && value.length == 3) {
            return (value[0] & 0xff) << 16 | (value[1] & 0xff) << 8 | value[2] & 0xff;
        }
        return value != null && value.length == 4 ? ByteBuffer.wrap(value).getInt() : -1;
    }

    // ---- the consumer's exception handler (URI option exceptionHandler=#soakExceptionHandler) ----

    @Override
    public void handleException(Throwable exception) {
        handleException(null, null, exception);
    }

    @Override
    public void handleException(String message, Throwable exception) {
        handleException(message, null, exception);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void handleException(String message, Exchange exchange, Throwable exception) {
        if (exchange == null) {
            // a poll error, or a record given up without its exchange (breakOnFirstError after its max attempts,
            // which names the record as topic-partition@offset in the message)
            String text = (message == null ? "" : message) + " " + (exception == null ? "" : exception.toString());
            log.write("P " + member + " " + SoakHistoryLog.seq() + " " + SoakHistoryLog.micros() + " "
                      + text.trim().replaceAll("\\s+", "_"));
            return;
        }
        List<Exchange> records = exchange.getMessage().getBody() instanceof List<?> list ? (List<Exchange>) list
                : List.of(exchange);
        for (Exchange e : records) {
            Rec r = rec(e);
            log.write("X " + member + " " + SoakHistoryLog.seq() + " " + SoakHistoryLog.micros() + " " + r.partition
                      + " " + r.offset);
        }
    }

    /** The record value of number n: a 4-byte int, or 3 bytes (not an int) for an undeserializable record. */
    static byte[] value(int n, boolean undeserializable) {
        if (undeserializable) {
            return new byte[] { (byte) (n >>> 16), (byte) (n >>> 8), (byte) n };
        }
        return ByteBuffer.allocate(4).putInt(n).array();
    }
}
