package dev.kafkafetch.deadletter;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The durable record of every dead letter replayed: a compacted topic keyed by the letter's own coordinates
 * ({@link DeadLetter#id()}), one entry per replayed letter naming where it was replayed to, when, by whom and in which
 * replay. Entries are written in the replay's own transaction, so a letter is logged exactly when its replay is
 * committed; the log is read back ({@code read_committed}) before each replay.
 */
final class ReplayLog {

    private final String topic;
    private final Function<Properties, Admin> admins;
    private final Function<Properties, Consumer<byte[], byte[]>> consumers;
    private final Properties clientProperties;
    private final Duration timeout;

    ReplayLog(String topic, Function<Properties, Admin> admins,
              Function<Properties, Consumer<byte[], byte[]>> consumers,
              Properties clientProperties, Duration timeout) {
        this.topic = topic;
        this.admins = admins;
        this.consumers = consumers;
        this.clientProperties = clientProperties;
        this.timeout = timeout;
    }

    String topic() {
        return topic;
    }

    /** Creates the log topic (one partition, compacted) unless it exists. */
    void ensureTopic() {
        try (Admin admin = admins.apply(clientProperties)) {
            NewTopic t = new NewTopic(topic, Optional.of(1), Optional.empty())
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            admin.createTopics(List.of(t)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("Cannot create the replay log topic " + topic + ": "
                                                + e.getCause().getMessage(),
                        e.getCause());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("The replay log topic " + topic + " could not be created within "
                                            + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating the replay log topic " + topic, e);
        }
    }

    /** The ids of every letter replayed so far (committed entries only). */
    Set<String> replayed() {
        Set<String> ids = new HashSet<>();
        TopicScan.scan(consumers, clientProperties, topic, true, timeout, r -> {
            if (r.key() != null && r.value() != null) {
                ids.add(new String(r.key(), StandardCharsets.UTF_8));
            }
            return true;
        });
        return ids;
    }

    /** The entry saying that the letter was replayed to {@code target} in replay {@code replayId}. */
    ProducerRecord<byte[], byte[]> entry(DeadLetter letter, RecordMetadata target, String replayId, String requestedBy,
                                         Instant time) {
        String value = "replayed to " + target.topic() + "-" + target.partition() + "@" + target.offset() + " at "
                       + time + " by " + requestedBy + " (replay " + replayId + ")";
        return new ProducerRecord<>(topic, 0, letter.id().getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
    }
}
