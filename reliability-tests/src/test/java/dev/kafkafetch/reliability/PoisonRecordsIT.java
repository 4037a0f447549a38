package dev.kafkafetch.reliability;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 4: poison records mixed into the stream, with a dead-letter topic. Values are 4-byte ints read with
 * {@code IntegerDeserializer}; some records carry 3-byte values (cannot be deserialized) and the route always throws
 * on some others. Every poison record must be in the dead-letter topic (found by its provenance headers
 * original-partition/original-offset), every other record finished by the route, none twice, and no healthy record
 * dead-lettered.
 */
class PoisonRecordsIT extends ReliabilityITSupport {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { SERIAL, PARALLEL })
    void poisonRecordsAreDeadLetteredAndEveryOtherRecordFinishes(String variant) throws Exception {
        int records = Knobs.get("poison.records", 3000, 30000);
        String topic = KafkaTestSupport.uniqueName("poison");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 4);
        kafka.createTopic(dlt, 2);
        IdProducer producer = closeLater(new IdProducer(KAFKA.bootstrapServers(), topic, "poison", KEYS));
        Set<String> undeserializable = new HashSet<>();
        Set<String> throwing = new HashSet<>();

        // half as a backlog, half while the route runs
        produce(producer, 0, records / 2, undeserializable, throwing);
        Finished finished = new Finished();
        String uri = uri(KAFKA.bootstrapServers(), topic, group, variant,
                "valueDeserializer=org.apache.kafka.common.serialization.IntegerDeserializer&deadLetterTopic=" + dlt);
        CamelContext context = newContext();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("poison").process(e -> {
                    int n = e.getMessage().getBody(Integer.class);
                    if (isThrowing(n)) {
                        throw new IllegalStateException("the route refuses record " + n);
                    }
                    Thread.sleep(routeSleepMs(variant));
                    finished.record(producer.id(n));
                });
            }
        });
        context.start();
        produce(producer, records / 2, records, undeserializable, throwing);

        Map<String, IdProducer.Position> produced = producer.acked();
        Set<String> good = new HashSet<>(produced.keySet());
        good.removeAll(undeserializable);
        good.removeAll(throwing);
        int poison = undeserializable.size() + throwing.size();
        awaitAll(finished, good, Duration.ofSeconds(Knobs.get("poison.drainSeconds", 90, 300)));

        Map<IdProducer.Position, String> byPosition = new HashMap<>();
        produced.forEach((id, pos) -> byPosition.put(pos, id));
        List<ConsumerRecord<String, String>> dead = new ArrayList<>();
        waitFor(Duration.ofSeconds(30), () -> {
            dead.clear();
            dead.addAll(kafka.readAll(dlt, Duration.ofSeconds(10)));
            return dead.size() >= poison;
        });
        // dead letters count as "finished" for the verdict: a poison record is safe once it is in the dead-letter topic
        List<Finish> observed = new ArrayList<>(finished.all());
        List<String> wronglyDeadLettered = new ArrayList<>();
        Map<String, String> reasons = new HashMap<>();
        for (ConsumerRecord<String, String> r : dead) {
            IdProducer.Position pos = new IdProducer.Position(
                    Integer.parseInt(header(r, KafkaFetchConstants.DLT_ORIGINAL_PARTITION)),
                    Long.parseLong(header(r, KafkaFetchConstants.DLT_ORIGINAL_OFFSET)));
            String id = byPosition.getOrDefault(pos, "unknown-" + pos);
            observed.add(new Finish(id, r.timestamp()));
            reasons.put(id, header(r, KafkaFetchConstants.DLT_REASON));
            if (!undeserializable.contains(id) && !throwing.contains(id)) {
                wronglyDeadLettered.add(id + "(" + pos + ")");
            }
        }
        Reliability.of("poison-records", variant, produced, observed).faults(poison)
                .dupBound("0(no-fault-causes-re-delivery)", 0)
                .note("undeserializable=" + undeserializable.size() + " routeThrows=" + throwing.size()
                      + " deadLetters=" + dead.size())
                .diagnostics(() -> offsets(kafka, group, topic) + "  tasks " + snapshots(context, "poison") + "\n")
                .verify();
        assertThat(wronglyDeadLettered).as("healthy records in the dead-letter topic").isEmpty();
        for (String id : undeserializable) {
            assertThat(reasons.get(id)).as("dead-letter reason of %s", id).isEqualTo("deserialization");
        }
        for (String id : throwing) {
            assertThat(reasons.get(id)).as("dead-letter reason of %s", id).isEqualTo("failed");
        }
        // and the committed offsets pass every poison record
        assertThat(waitFor(Duration.ofSeconds(15), () -> kafka.committedOffsets(group, topic)
                .equals(kafka.endOffsets(topic)))).as("committed up to the end").isTrue();
    }

    private static boolean isUndeserializable(int n) {
        return n % 97 == 13;
    }

    private static boolean isThrowing(int n) {
        return n % 89 == 7 && !isUndeserializable(n);
    }

    private static void produce(IdProducer producer, int from, int to, Set<String> undeserializable,
                                Set<String> throwing) {
        for (int n = from; n < to; n++) {
            String id = producer.id(n);
            byte[] key = producer.key(n).getBytes(StandardCharsets.UTF_8);
            byte[] value;
            if (isUndeserializable(n)) {
                value = new byte[] { (byte) (n >>> 16), (byte) (n >>> 8), (byte) n }; // 3 bytes: not an int
                undeserializable.add(id);
            } else {
                value = ByteBuffer.allocate(4).putInt(n).array();
                if (isThrowing(n)) {
                    throwing.add(id);
                }
            }
            producer.send(id, null, key, value);
        }
        try {
            producer.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
