package dev.kafkafetch.observability;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.task.OperatorActionRefusedException;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Operator actions over JMX (Camel's consumer MBean) and the Java API: refused with an error naming the option while
 * {@code operatorActions} is off (nothing changes, records flow, lost = 0); with it on, the {@code Partitions}
 * attribute names the stuck record, and {@code pausePartition} and {@code parkRecord} work, logged with the JMX
 * caller.
 */
class OperatorActionsJmxIT extends KafkaFetchITSupport {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private final MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseStuckThreads() {
        release.countDown();
    }

    @Test
    void everyActionIsRefusedUnlessEnabled() throws Exception {
        String topic = KafkaTestSupport.uniqueName("opoff");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        Recorder seen = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "deadLetterTopic=" + topic + ".dlt")).routeId("off").process(seen);
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "operatorActions=true")).routeId("nodlt")
                        .process(e -> {
                        });
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("off").getConsumer();
        await().atMost(TIMEOUT).until(() -> consumer.taskSnapshots().get(0).partitions().size() == 2);
        List<String> produced = kafka.produceIds(topic, 50, "off", 5);
        awaitCount(seen, produced.size(), TIMEOUT);
        ObjectName name = consumerMBean(context, "off");
        assertThat(mbeans.getAttribute(name, "OperatorActionsEnabled")).isEqualTo(false);

        Object[][] calls = {
            { "pausePartition", new Object[] { topic, 0 }, new String[] { "java.lang.String", "int" } },
            { "resumePartition", new Object[] { topic, 0 }, new String[] { "java.lang.String", "int" } },
            { "parkRecord", new Object[] { topic, 0, 0L }, new String[] { "java.lang.String", "int", "long" } },
            { "seekPartition", new Object[] { topic, 0, 0L, true },
                new String[] { "java.lang.String", "int", "long", "boolean" } },
            { "seekPartitionToTime", new Object[] { topic, 0, "0", true },
                new String[] { "java.lang.String", "int", "java.lang.String", "boolean" } } };
        for (Object[] call : calls) {
            assertThatThrownBy(() -> mbeans.invoke(name, (String) call[0], (Object[]) call[1], (String[]) call[2]))
                    .as("JMX " + call[0]).rootCause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(call[0] + " " + topic + "-0")
                    .hasMessageContaining("refused: operator actions are off")
                    .hasMessageContaining("operatorActions=true");
        }
        assertThatThrownBy(() -> mbeans.invoke(name, "replayDeadLetters", new Object[] { "", "" },
                new String[] { "java.lang.String", "java.lang.String" })).as("JMX replayDeadLetters").rootCause()
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("replayDeadLetters all refused")
                .hasMessageContaining("operatorActions=true");
        assertThatThrownBy(() -> consumer.pausePartition(topic, 1, "the test"))
                .isInstanceOf(OperatorActionRefusedException.class).hasMessageContaining("operatorActions=true");
        assertThatThrownBy(() -> consumer.resumePartition(topic, 1, "the test"))
                .isInstanceOf(OperatorActionRefusedException.class).hasMessageContaining("operatorActions=true");
        assertThatThrownBy(() -> consumer.parkRecord(topic, 1, 0, "the test"))
                .isInstanceOf(OperatorActionRefusedException.class).hasMessageContaining("operatorActions=true");
        assertThatThrownBy(() -> consumer.seekPartition(topic, 1, 0, true, "the test"))
                .isInstanceOf(OperatorActionRefusedException.class).hasMessageContaining("operatorActions=true");
        assertThatThrownBy(() -> consumer.seekPartitionToTime(topic, 1, Instant.EPOCH, true, "the test"))
                .isInstanceOf(OperatorActionRefusedException.class).hasMessageContaining("operatorActions=true");
        KafkaFetchConsumer noDlt = (KafkaFetchConsumer) context.getRoute("nodlt").getConsumer();
        assertThatThrownBy(() -> noDlt.parkRecord(topic, 1, 0, "the test"))
                .isInstanceOf(OperatorActionRefusedException.class).hasMessageContaining("deadLetterTopic");

        // nothing changed: nothing paused or sought, records still flow (none twice: nothing was sought back)
        assertThat(consumer.getPausedPartitions()).isEmpty();
        assertThat(consumer.taskSnapshots().get(0).seeks()).isZero();
        assertThat(consumer.taskSnapshots().get(0).partitions()).allMatch(p -> p.pausedReason() == null);
        List<String> more = kafka.produceIds(topic, 50, "off2", 5);
        awaitCount(seen, produced.size() + more.size(), TIMEOUT);
        assertThat(seen.lost(produced)).isEmpty();
        assertThat(seen.lost(more)).isEmpty();
        assertThat(seen.duplicates()).isEmpty();
    }

    @Test
    void partitionsAttributeNamesTheStuckRecordAndJmxPausesAndParks() throws Exception {
        String topic = KafkaTestSupport.uniqueName("opjmx");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        kafka.createTopic(dlt, 1);
        String stuckId = "id-jmx-3";
        Recorder seen = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "operatorActions=true&ordering=KEY&maxConcurrency=4&deadLetterTopic=" + dlt))
                        .routeId("jmx").process(e -> {
                            if (stuckId.equals(e.getMessage().getBody(String.class))) {
                                release.await(120, TimeUnit.SECONDS);
                            }
                        }).process(seen);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("jmx").getConsumer();
        await().atMost(TIMEOUT).until(() -> consumer.taskSnapshots().get(0).partitions().size() == 2);
        List<String> produced = kafka.produceIds(topic, 100, "jmx", 1); // one key: everything behind it in its lane
        ConsumerRecord<String, String> stuck = kafka.readAll(topic, TIMEOUT).stream()
                .filter(r -> stuckId.equals(r.value())).findFirst().orElseThrow();
        ObjectName name = consumerMBean(context, "jmx");
        await().atMost(TIMEOUT).until(() -> {
            CompositeData row = row(name, stuck.partition());
            return row != null && (Long) row.get("oldestOffset") == stuck.offset()
                   && "running".equals(row.get("oldestState")) && (Integer) row.get("waitingBehind") > 0;
        });
        CompositeData row = row(name, stuck.partition());
        assertThat(row.get("oldestKey")).isEqualTo("k0");
        assertThat(row.get("oldestAttempt")).isEqualTo(1);
        assertThat(row.get("oldestThreadState")).isEqualTo("TIMED_WAITING");
        assertThat((String) row.get("oldestThread")).isNotEmpty();

        int other = 1 - stuck.partition();
        String paused = (String) mbeans.invoke(name, "pausePartition", new Object[] { topic, other },
                new String[] { "java.lang.String", "int" });
        assertThat(paused).contains("pausing " + topic + "-" + other);
        assertThat((String) mbeans.getAttribute(name, "PausedPartitions"))
                .isEqualTo(topic + "-" + other + " (by JMX (no authenticated principal))");
        await().atMost(TIMEOUT).until(() -> "operator".equals(row(name, other).get("paused")));
        mbeans.invoke(name, "resumePartition", new Object[] { topic, other },
                new String[] { "java.lang.String", "int" });

        String parked = (String) mbeans.invoke(name, "parkRecord",
                new Object[] { topic, stuck.partition(), stuck.offset() },
                new String[] { "java.lang.String", "int", "long" });
        assertThat(parked).startsWith("parked " + topic + "-" + stuck.partition() + "@" + stuck.offset());
        List<String> expected = produced.stream().filter(id -> !id.equals(stuckId)).toList();
        await().atMost(TIMEOUT).until(() -> seen.ids().containsAll(expected));
        TopicPartition tp = new TopicPartition(topic, stuck.partition());
        long end = kafka.endOffsets(topic).get(tp);
        await().atMost(TIMEOUT).until(() -> kafka.committedOffsets(group, topic).getOrDefault(tp, -1L) == end);
        List<ConsumerRecord<String, String>> letters = kafka.readAll(dlt, TIMEOUT);
        assertThat(letters).hasSize(1);
        assertThat(letters.get(0).value()).isEqualTo(stuckId);
        assertThat(new String(letters.get(0).headers().lastHeader("kafka-fetch.dlt.reason").value(),
                StandardCharsets.UTF_8)).isEqualTo("parked");
        assertThat(new String(letters.get(0).headers().lastHeader("kafka-fetch.dlt.exception-message").value(),
                StandardCharsets.UTF_8)).contains("JMX (no authenticated principal)");
        assertThat(seen.duplicates()).isEmpty();
    }

    /** The Partitions row of that partition (task 0), or null. */
    private CompositeData row(ObjectName name, int partition) throws Exception {
        TabularData table = (TabularData) mbeans.getAttribute(name, "Partitions");
        for (Object value : table.values()) {
            CompositeData row = (CompositeData) value;
            if ((Integer) row.get("partition") == partition) {
                return row;
            }
        }
        return null;
    }

    private ObjectName consumerMBean(CamelContext context, String routeId) throws Exception {
        Set<ObjectName> found = new HashSet<>();
        for (ObjectName n : mbeans.queryNames(new ObjectName("org.apache.camel:type=consumers,*"), null)) {
            if (routeId.equals(mbeans.getAttribute(n, "RouteId"))
                && context.getName().equals(mbeans.getAttribute(n, "CamelId"))) {
                found.add(n);
            }
        }
        assertThat(found).hasSize(1);
        return found.iterator().next();
    }
}
