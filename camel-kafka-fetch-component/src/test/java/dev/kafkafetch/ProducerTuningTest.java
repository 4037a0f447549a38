package dev.kafkafetch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import org.apache.camel.CamelContext;
import org.apache.camel.FailedToStartRouteException;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.util.json.DeserializationException;
import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * camel-kafka's producer options reach a transacted fetch task's producer under their Kafka names, the Kafka producer
 * accepts what results, the defaults bound a commit by commitTimeoutMs, and a setting that would turn off idempotence
 * or acks=all, or let a commit block longer than commitTimeoutMs, fails the route's start naming the option.
 */
class ProducerTuningTest {

    private static final String BASE = "kafka-fetch:in?brokers=localhost:9092&groupId=g&transacted=true&clientId=c";
    /** The producer options taken from camel-kafka: same name, type and Java type. */
    private static final List<String> TAKEN = List.of("lingerMs", "producerBatchSize", "compressionCodec",
            "maxRequestSize", "bufferMemorySize", "sendBufferBytes", "receiveBufferBytes", "maxInFlightRequest",
            "retries", "requestTimeoutMs", "deliveryTimeoutMs", "maxBlockMs", "requestRequiredAcks",
            "enableIdempotence");
    /** Those whose default is derived from commitTimeoutMs instead of camel-kafka's (a commit must not block longer). */
    private static final List<String> DERIVED = List.of("requestTimeoutMs", "deliveryTimeoutMs", "maxBlockMs");

    private CamelContext context;

    @BeforeEach
    void start() {
        context = new DefaultCamelContext();
        context.start();
    }

    @AfterEach
    void stop() {
        context.stop();
    }

    @Test
    void optionsReachTheTransactionalProducer() {
        Properties p = producerProperties(BASE + "&lingerMs=20&producerBatchSize=65536&compressionCodec=ZSTD"
                                          + "&maxRequestSize=2097152&bufferMemorySize=16777216&sendBufferBytes=-1"
                                          + "&receiveBufferBytes=262144&maxInFlightRequest=3&retries=10"
                                          + "&requestTimeoutMs=4000&deliveryTimeoutMs=9000&maxBlockMs=3000"
                                          + "&requestRequiredAcks=-1&enableIdempotence=true");
        assertThat(p).containsEntry("linger.ms", "20").containsEntry("batch.size", "65536")
                .containsEntry("compression.type", "zstd").containsEntry("max.request.size", "2097152")
                .containsEntry("buffer.memory", "16777216").containsEntry("send.buffer.bytes", "-1")
                .containsEntry("receive.buffer.bytes", "262144")
                .containsEntry("max.in.flight.requests.per.connection", "3").containsEntry("retries", "10")
                .containsEntry("request.timeout.ms", "4000").containsEntry("delivery.timeout.ms", "9000")
                .containsEntry("max.block.ms", "3000")
                // what the transaction needs stays
                .containsEntry("acks", "all").containsEntry("enable.idempotence", "true")
                .containsEntry("transactional.id", "kafka-fetch-g-c-0");
        acceptedByKafka(p);
    }

    @Test
    void defaultsBoundACommitByCommitTimeoutMs() {
        Properties p = producerProperties(BASE + "&commitTimeoutMs=7000");
        assertThat(p).containsEntry("max.block.ms", "7000").containsEntry("request.timeout.ms", "7000")
                .containsEntry("delivery.timeout.ms", "8000").containsEntry("linger.ms", "5")
                .containsEntry("compression.type", "none").containsEntry("max.in.flight.requests.per.connection", "5")
                .doesNotContainKey("retries");
        acceptedByKafka(p);
        // a longer request timeout alone moves the derived delivery timeout up to what Kafka requires
        assertThat(producerProperties(BASE + "&requestTimeoutMs=30000")).containsEntry("delivery.timeout.ms",
                "30005");
        acceptedByKafka(producerProperties(BASE + "&requestTimeoutMs=30000"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "requestRequiredAcks=1|requestRequiredAcks must be all with transacted=true",
        "requestRequiredAcks=0|requestRequiredAcks must be all with transacted=true",
        "enableIdempotence=false|enableIdempotence cannot be false with transacted=true",
        "maxInFlightRequest=6|maxInFlightRequest must be between 1 and 5",
        "retries=0|retries must be at least 1",
        "maxBlockMs=6000|maxBlockMs (6000) must not exceed commitTimeoutMs (5000)",
        "deliveryTimeoutMs=3000&requestTimeoutMs=4000|deliveryTimeoutMs (3000) must be at least lingerMs (5) + requestTimeoutMs (4000)",
        "compressionCodec=brotli|compressionCodec must be one of",
        "lingerMs=-1|lingerMs must not be negative",
        "maxRequestSize=0|maxRequestSize must be positive",
        "sendBufferBytes=-2|sendBufferBytes must be -1",
        "requestTimeoutMs=0|requestTimeoutMs must be positive" })
    void conflictingSettingsAreRefusedNamingTheOption(String options, String message) {
        Throwable t = catchThrowable(() -> producerProperties(BASE + "&" + options));
        assertThat(t).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kafka-fetch option " + message);
    }

    @Test
    void aBadValueFailsTheRouteStart() {
        // the context runs: adding the route starts it
        Throwable t = catchThrowable(() -> context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(BASE + "&maxInFlightRequest=10").routeId("tuned").to("kafka-fetch:out");
            }
        }));
        assertThat(t).isInstanceOf(FailedToStartRouteException.class).rootCause()
                .hasMessageContaining("kafka-fetch option maxInFlightRequest must be between 1 and 5");
    }

    @Test
    void withoutTransactedTheProducerOptionsAreNotChecked() {
        assertThat(context.getEndpoint("kafka-fetch:in?brokers=localhost:9092&groupId=g&maxInFlightRequest=10",
                KafkaFetchEndpoint.class).taskSettings().transactions()).isNull();
    }

    @Test
    void theOptionsKeepCamelKafkasNamesAndTypes() throws IOException {
        JsonObject theirs = properties("META-INF/org/apache/camel/component/kafka/kafka.json");
        JsonObject ours = properties("META-INF/dev/kafkafetch/kafka-fetch.json");
        for (String name : TAKEN) {
            JsonObject t = (JsonObject) theirs.get(name);
            JsonObject o = (JsonObject) ours.get(name);
            assertThat(t).as("camel-kafka's %s", name).isNotNull();
            assertThat(o).as("kafka-fetch's %s", name).isNotNull();
            assertThat(o.getString("type")).as(name).isEqualTo(t.getString("type"));
            assertThat(o.getString("javaType")).as(name).isEqualTo(t.getString("javaType"));
            assertThat(o.get("enum")).as(name).isEqualTo(t.get("enum"));
            if (DERIVED.contains(name)) {
                assertThat(o.get("defaultValue")).as(name + " has no fixed default").isNull();
            } else if (t.get("defaultValue") != null) {
                assertThat(String.valueOf(o.get("defaultValue"))).as(name)
                        .isEqualTo(String.valueOf(t.get("defaultValue")));
            }
        }
    }

    private Properties producerProperties(String uri) {
        return context.getEndpoint(uri, KafkaFetchEndpoint.class).taskSettings().transactions().producerProperties(0);
    }

    /** The Kafka producer's own config checks pass (it connects to nothing before initTransactions). */
    private static void acceptedByKafka(Properties p) {
        new KafkaProducer<byte[], byte[]>(p).close(Duration.ZERO);
    }

    private static JsonObject properties(String resource) throws IOException {
        try (InputStream in = ProducerTuningTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            JsonObject catalog = (JsonObject) Jsoner.deserialize(new String(in.readAllBytes(),
                    StandardCharsets.UTF_8));
            return (JsonObject) catalog.get("properties");
        } catch (DeserializationException e) {
            throw new IOException(e);
        }
    }
}
