package dev.kafkafetch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.PropertyBindingSupport;
import org.apache.camel.util.json.DeserializationException;
import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Option parity with camel-kafka 4.22, checked mechanically against its catalog ({@code kafka.json} inside
 * camel-kafka-4.22.0.jar): every endpoint and component option labelled consumer, common or security exists in
 * kafka-fetch's catalog with the same type, default and enum values, and the same Java type except where kafka-fetch
 * has its own type of the same shape (listed with the reason) — or it is on the refuse list, and setting it fails the
 * route's start with a message naming it.
 */
class ComponentParityTest {

    private static final Set<String> LABELS = Set.of("consumer", "common", "security");

    /** Options whose Java type is kafka-fetch's own: same name, kind and values, a type in package dev.kafkafetch. */
    private static final Map<String, String> OWN_TYPES = Map.of(
            "headerDeserializer",
            "kafka-fetch's KafkaHeaderDeserializer (camel-kafka's needs camel-kafka-fetch-compat)",
            "kafkaManualCommitFactory",
            "kafka-fetch's KafkaManualCommitFactory: its commits never pass an unfinished record",
            "pollOnError", "kafka-fetch's PollOnError enum, same values",
            "seekTo", "kafka-fetch's SeekPolicy enum, same values",
            "saslAuthType", "kafka-fetch's KafkaAuthType enum, same values",
            "pollExceptionStrategy", "kafka-fetch's PollExceptionStrategy: the task, not camel-kafka's consumer");

    /** Options kafka-fetch refuses, with the option set as a URI or component option would set it. */
    private static final Map<String, String> REFUSED = Map.of(
            "subscribeConsumerTopicMustExists", "component:true");

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
    void everyConsumerCommonAndSecurityOptionOfCamelKafkaHasTheSameNameTypeAndDefault() throws IOException {
        JsonObject theirs = catalog("META-INF/org/apache/camel/component/kafka/kafka.json");
        JsonObject ours = catalog("META-INF/dev/kafkafetch/kafka-fetch.json");
        List<String> problems = new ArrayList<>();
        int compared = 0;
        for (String section : List.of("properties", "componentProperties")) {
            JsonObject their = (JsonObject) theirs.get(section);
            JsonObject our = (JsonObject) ours.get(section);
            for (Map.Entry<String, Object> e : their.entrySet()) {
                String name = e.getKey();
                JsonObject t = (JsonObject) e.getValue();
                if (!inScope(t) || REFUSED.containsKey(name) && !our.containsKey(name)) {
                    continue;
                }
                compared++;
                JsonObject o = (JsonObject) our.get(name);
                if (o == null) {
                    problems.add(section + "." + name + " is missing");
                    continue;
                }
                same(problems, section, name, "type", t, o);
                same(problems, section, name, "defaultValue", t, o);
                same(problems, section, name, "enum", t, o);
                if (!OWN_TYPES.containsKey(name) && !boxed(t.getString("javaType")).equals(boxed(o.getString(
                        "javaType")))) {
                    problems.add(section + "." + name + " javaType " + t.getString("javaType") + " vs "
                                 + o.getString("javaType"));
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(compared).as("options compared").isGreaterThan(90);
    }

    @Test
    void everyRefusedOptionFailsTheStartNamingIt() {
        for (Map.Entry<String, String> refused : REFUSED.entrySet()) {
            String name = refused.getKey();
            String[] how = refused.getValue().split(":", 2);
            CamelContext c = new DefaultCamelContext();
            try {
                String uri = "kafka-fetch:t?brokers=localhost:9092&groupId=g";
                if (how[0].equals("component")) {
                    PropertyBindingSupport.build().bind(c,
                            c.getComponent("kafka-fetch"), name, how[1]);
                } else {
                    uri += "&" + name + "=" + how[1];
                }
                String endpointUri = uri;
                Throwable failure = catchThrowable(() -> c.getEndpoint(endpointUri, KafkaFetchEndpoint.class)
                        .taskSettings());
                assertThat(failure).as(name).isNotNull();
                assertThat(failure.getMessage()).as(name).contains(name);
            } finally {
                c.stop();
            }
        }
    }

    private static boolean inScope(JsonObject option) {
        String label = option.getString("label");
        if (label == null) {
            return false;
        }
        List<String> labels = Arrays.asList(label.split(","));
        return !labels.contains("producer") && labels.stream().anyMatch(LABELS::contains);
    }

    private static void same(List<String> problems, String section, String name, String key, JsonObject theirs,
                             JsonObject ours) {
        String t = theirs.get(key) == null ? null : String.valueOf(theirs.get(key));
        String o = ours.get(key) == null ? null : String.valueOf(ours.get(key));
        if (t == null ? o != null : !t.equals(o)) {
            problems.add(section + "." + name + " " + key + " " + t + " vs " + o);
        }
    }

    private static String boxed(String javaType) {
        return switch (javaType) {
            case "int" -> "java.lang.Integer";
            case "long" -> "java.lang.Long";
            case "boolean" -> "java.lang.Boolean";
            case "double" -> "java.lang.Double";
            default -> javaType;
        };
    }

    private static JsonObject catalog(String resource) throws IOException {
        try (InputStream in = ComponentParityTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return (JsonObject) Jsoner.deserialize(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (DeserializationException e) {
            throw new IOException(e);
        }
    }
}
