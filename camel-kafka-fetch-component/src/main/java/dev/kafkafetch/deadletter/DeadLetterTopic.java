package dev.kafkafetch.deadletter;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A dead-letter topic to browse and replay from. {@link #list} reads its letters with their provenance; {@link #replay}
 * puts a selection back on the topic each came from (or another one), each replayed record as its letter was (key,
 * value, the record's own headers) plus the replay headers ({@value #REPLAY_LETTER}, {@value #REPLAY_ID},
 * {@value #REPLAY_TIME}, {@value #REPLAY_REQUESTED_BY}), without the letter's {@code kafka-fetch.dlt.*} headers.
 * Everything runs on the caller's thread with short-lived clients of its own (never a fetch task's consumer).
 * <p>
 * Guarantees: a letter is replayed at most once by accident: the replayed records and their entries in the
 * {@link ReplayLog} are written in one Kafka transaction (transactional id {@code kafka-fetch-replay-<topic>}), and
 * the log is read back before each replay, so a letter whose replay was committed is never replayed again, and one
 * whose replay failed is neither replayed nor logged (for consumers that read {@code read_committed}: one that reads
 * uncommitted records may have seen the records of an aborted replay). Two replays of one dead-letter topic at once (also from two
 * JVMs) fence each other: the later one wins, the earlier one fails and replays nothing.
 */
public final class DeadLetterTopic {

    /** Replay header: the dead letter a replayed record came from, {@code topic-partition@offset}. */
    public static final String REPLAY_LETTER = "kafka-fetch.replay.letter";
    /** Replay header: the id of the replay that put the record back (one per {@link #replay} call). */
    public static final String REPLAY_ID = "kafka-fetch.replay.id";
    /** Replay header: when it was replayed (ISO-8601). */
    public static final String REPLAY_TIME = "kafka-fetch.replay.time";
    /** Replay header: who asked for the replay. */
    public static final String REPLAY_REQUESTED_BY = "kafka-fetch.replay.requested-by";

    /** What a replay did: the letters it put back, those already replayed before, those it could not (and why). */
    public record ReplayResult(String replayId, int matched, List<String> replayed, List<String> alreadyReplayed,
            List<String> notReplayable, String summary) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterTopic.class);

    private final String topic;
    private final ReplayLog log;
    private final Properties clientProperties;
    private final Function<Properties, Consumer<byte[], byte[]>> consumers;
    private final Function<Properties, Producer<byte[], byte[]>> producers;
    private final UnaryOperator<String> mask;
    private final Duration timeout;
    private final ReentrantLock replaying = new ReentrantLock();

    /**
     * @param topic            the dead-letter topic
     * @param replayLogTopic   where replays are recorded (created compacted if missing), e.g. {@code <topic>.replays}
     * @param clientProperties connection and security settings for the clients it creates
     * @param mask             masks secrets in texts shown (exception messages)
     * @param timeout          bounds each client call
     */
    public DeadLetterTopic(String topic, String replayLogTopic, Properties clientProperties,
                           Function<Properties, Admin> admins, Function<Properties, Consumer<byte[], byte[]>> consumers,
                           Function<Properties, Producer<byte[], byte[]>> producers, UnaryOperator<String> mask,
                           Duration timeout) {
        this.topic = topic;
        this.clientProperties = clientProperties;
        this.consumers = consumers;
        this.producers = producers;
        this.mask = mask;
        this.timeout = timeout;
        this.log = new ReplayLog(replayLogTopic, admins, consumers, clientProperties, timeout);
    }

    /** The replay log topic for a dead-letter topic when none is named: {@code <topic>.replays}. */
    public static String defaultReplayLog(String deadLetterTopic) {
        return deadLetterTopic + ".replays";
    }

    public String topic() {
        return topic;
    }

    /** The letters that match, in topic order (partition by partition), up to the filter's limit. */
    public List<DeadLetter> list(DeadLetterFilter filter) {
        List<DeadLetter> letters = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : select(filter)) {
            letters.add(DeadLetter.of(r, mask));
        }
        return letters;
    }

    /**
     * Replays the letters that match to their original topic ({@code targetTopic} null) or to {@code targetTopic},
     * leaving out those replayed before; see the class guarantees.
     *
     * @throws IllegalStateException when the replay failed (nothing of it was replayed or logged)
     */
    public ReplayResult replay(DeadLetterFilter filter, String targetTopic, String requestedBy) {
        replaying.lock();
        String replayId = UUID.randomUUID().toString();
        Instant now = Instant.now();
        try (Producer<byte[], byte[]> producer = producers.apply(transactional())) {
            producer.initTransactions(); // ends (or fences) an earlier replay of this topic before the log is read
            log.ensureTopic();
            Set<String> done = log.replayed();
            List<ConsumerRecord<byte[], byte[]>> selected = select(filter);
            List<DeadLetter> todo = new ArrayList<>();
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            List<String> already = new ArrayList<>();
            List<String> notReplayable = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : selected) {
                DeadLetter letter = DeadLetter.of(r, mask);
                if (done.contains(letter.id())) {
                    already.add(letter.id());
                } else if (targetTopic == null
                           && (letter.originalTopic() == null || letter.originalTopic().isBlank())) {
                    notReplayable.add(letter.id() + " (no original topic header; name a target topic)");
                } else {
                    todo.add(letter);
                    records.add(r);
                }
            }
            List<String> replayed = new ArrayList<>();
            if (!todo.isEmpty()) {
                producer.beginTransaction();
                try {
                    List<Future<RecordMetadata>> sent = new ArrayList<>();
                    for (int i = 0; i < todo.size(); i++) {
                        sent.add(producer.send(replayOf(records.get(i), todo.get(i), targetTopic, replayId,
                                requestedBy, now)));
                    }
                    producer.flush();
                    for (int i = 0; i < todo.size(); i++) {
                        producer.send(log.entry(todo.get(i), await(sent.get(i)), replayId, requestedBy, now));
                        replayed.add(todo.get(i).id());
                    }
                    producer.commitTransaction();
                } catch (KafkaException e) {
                    if (!(e instanceof ProducerFencedException)) {
                        abort(producer);
                    }
                    throw e;
                }
            }
            String summary = summary(replayId, selected.size(), replayed, already, notReplayable, targetTopic);
            LOG.info("Dead letters of {}: {} asked to replay {}: {}", topic, requestedBy, filter, summary);
            return new ReplayResult(replayId, selected.size(), replayed, already, notReplayable, summary);
        } catch (ProducerFencedException e) {
            throw failed(requestedBy, "another replay of " + topic + " began meanwhile and took over", e);
        } catch (KafkaException e) {
            throw failed(requestedBy, e.toString(), e);
        } finally {
            replaying.unlock();
        }
    }

    private void abort(Producer<byte[], byte[]> producer) {
        try {
            producer.abortTransaction();
        } catch (KafkaException e) {
            LOG.debug("Aborting the replay transaction of {} failed: {}", topic, e.toString());
        }
    }

    private IllegalStateException failed(String requestedBy, String why, Exception e) {
        String msg = "Replay of dead letters from " + topic + " failed; nothing of it was replayed or logged: " + why;
        LOG.warn("{} (asked by {})", msg, requestedBy);
        return new IllegalStateException(msg, e);
    }

    private String summary(String replayId, int matched, List<String> replayed, List<String> already,
                           List<String> notReplayable, String targetTopic) {
        StringBuilder sb = new StringBuilder();
        sb.append(matched).append(" letter(s) matched; ");
        if (replayed.isEmpty()) {
            sb.append("nothing replayed");
        } else {
            sb.append("replayed ").append(replayed.size()).append(" to ")
                    .append(targetTopic != null ? targetTopic : "their original topics").append(" (replay ")
                    .append(replayId).append("): ").append(replayed);
        }
        if (!already.isEmpty()) {
            sb.append("; ").append(already.size()).append(" replayed before, not again (").append(log.topic())
                    .append("): ").append(already);
        }
        if (!notReplayable.isEmpty()) {
            sb.append("; not replayable: ").append(notReplayable);
        }
        return sb.toString();
    }

    private List<ConsumerRecord<byte[], byte[]>> select(DeadLetterFilter filter) {
        DeadLetterFilter f = filter != null ? filter : DeadLetterFilter.ALL;
        List<ConsumerRecord<byte[], byte[]>> selected = new ArrayList<>();
        TopicScan.scan(consumers, clientProperties, topic, false, timeout, r -> {
            if (f.matches(DeadLetter.of(r, UnaryOperator.identity()))) {
                selected.add(r);
            }
            return f.limit() <= 0 || selected.size() < f.limit();
        });
        return selected;
    }

    private ProducerRecord<byte[], byte[]> replayOf(ConsumerRecord<byte[], byte[]> r, DeadLetter letter,
                                                    String targetTopic, String replayId, String requestedBy,
                                                    Instant now) {
        RecordHeaders headers = new RecordHeaders();
        for (Header h : r.headers()) {
            if (!h.key().startsWith("kafka-fetch.dlt.") && !h.key().startsWith("kafka-fetch.replay.")) {
                headers.add(h.key(), h.value());
            }
        }
        headers.add(REPLAY_LETTER, bytes(letter.id()));
        headers.add(REPLAY_ID, bytes(replayId));
        headers.add(REPLAY_TIME, bytes(now.toString()));
        headers.add(REPLAY_REQUESTED_BY, bytes(requestedBy));
        boolean home = targetTopic == null || targetTopic.equals(letter.originalTopic());
        Integer partition = home && letter.originalPartition() >= 0 ? letter.originalPartition() : null;
        return new ProducerRecord<>(targetTopic != null ? targetTopic : letter.originalTopic(), partition, null,
                r.key(), r.value(), headers);
    }

    private Properties transactional() {
        Properties p = new Properties();
        p.putAll(clientProperties);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "kafka-fetch-replay-" + topic);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(timeout.toMillis()));
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return p;
    }

    private RecordMetadata await(Future<RecordMetadata> sent) {
        try {
            return sent.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof KafkaException k ? k : new KafkaException(e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaException("a replayed record was not acknowledged within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("interrupted", e);
        }
    }

    private static byte[] bytes(String s) {
        return (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
    }
}
