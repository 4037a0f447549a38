package dev.kafkafetch;

import java.util.HashMap;
import java.util.Map;

import dev.kafkafetch.dispatch.Ordering;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.PropertyBindingSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Every endpoint option can be set once on the component (as {@code camel.component.kafka-fetch.<option>} does): each
 * endpoint starts from a copy of the component's configuration, its own URI options override it, additional
 * properties merge, and one endpoint's values never leak into another's or back into the component. Durations are
 * accepted where camel-kafka accepts them, and bad values fail naming the option.
 */
class ComponentOptionsTest {

    private CamelContext context;
    private KafkaFetchComponent component;

    @BeforeEach
    void start() {
        context = new DefaultCamelContext();
        component = context.getComponent("kafka-fetch", KafkaFetchComponent.class);
        context.start();
    }

    @AfterEach
    void stop() {
        context.stop();
    }

    @Test
    void componentValuesReachEveryEndpointAndEndpointValuesOverrideThem() {
        bind(Map.of("brokers", "b1:9092", "groupId", "app", "maxConcurrency", "8", "ordering", "KEY",
                "pollTimeoutMs", "1234", "deadLetterTopic", "dlt"));

        KafkaFetchEndpoint plain = context.getEndpoint("kafka-fetch:a", KafkaFetchEndpoint.class);
        KafkaFetchEndpoint own = context.getEndpoint("kafka-fetch:b?groupId=other&maxConcurrency=2",
                KafkaFetchEndpoint.class);

        assertThat(plain.getConfiguration().getBrokers()).isEqualTo("b1:9092");
        assertThat(plain.getConfiguration().getGroupId()).isEqualTo("app");
        assertThat(plain.getConfiguration().getMaxConcurrency()).isEqualTo(8);
        assertThat(plain.getConfiguration().getOrdering()).isEqualTo(Ordering.KEY);
        assertThat(plain.taskSettings().pollTimeoutMs()).isEqualTo(1234);
        assertThat(plain.taskSettings().deadLetterTopic()).isEqualTo("dlt");

        assertThat(own.getConfiguration().getBrokers()).isEqualTo("b1:9092");
        assertThat(own.getConfiguration().getGroupId()).isEqualTo("other");
        assertThat(own.getConfiguration().getMaxConcurrency()).isEqualTo(2);
        assertThat(own.taskSettings().properties()).containsEntry("group.id", "other");

        assertThat(component.getConfiguration().getGroupId()).isEqualTo("app");
        assertThat(component.getConfiguration().getMaxConcurrency()).isEqualTo(8);
    }

    @Test
    void additionalPropertiesMergeAndStayPerEndpoint() {
        bind(Map.of("brokers", "b1:9092", "groupId", "app", "additionalProperties[client.rack]", "r1",
                "additionalProperties[fetch.max.wait.ms]", "100"));

        KafkaFetchEndpoint one = context.getEndpoint(
                "kafka-fetch:a?additionalProperties.fetch.max.wait.ms=7&additionalProperties.receive.buffer.bytes=1024",
                KafkaFetchEndpoint.class);
        KafkaFetchEndpoint two = context.getEndpoint("kafka-fetch:b", KafkaFetchEndpoint.class);

        assertThat(one.taskSettings().properties()).containsEntry("client.rack", "r1")
                .containsEntry("fetch.max.wait.ms", "7").containsEntry("receive.buffer.bytes", "1024");
        assertThat(two.taskSettings().properties()).containsEntry("client.rack", "r1")
                .containsEntry("fetch.max.wait.ms", "100").doesNotContainKey("receive.buffer.bytes");
        assertThat(component.getConfiguration().getAdditionalProperties())
                .containsOnlyKeys("client.rack", "fetch.max.wait.ms");
    }

    @Test
    void aChangeToOneEndpointLeavesTheOthersAndTheComponentAlone() {
        bind(Map.of("brokers", "b1:9092", "groupId", "app"));
        KafkaFetchEndpoint one = context.getEndpoint("kafka-fetch:a", KafkaFetchEndpoint.class);
        KafkaFetchEndpoint two = context.getEndpoint("kafka-fetch:b", KafkaFetchEndpoint.class);

        one.getConfiguration().setGroupId("changed");
        one.getConfiguration().getAdditionalProperties().put("x", "y");

        assertThat(two.getConfiguration().getGroupId()).isEqualTo("app");
        assertThat(two.getConfiguration().getAdditionalProperties()).doesNotContainKey("x");
        assertThat(component.getConfiguration().getGroupId()).isEqualTo("app");
        assertThat(component.getConfiguration().getAdditionalProperties()).doesNotContainKey("x");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        "pollTimeoutMs=-5s|pollTimeoutMs",
        "commitTimeoutMs=-1|commitTimeoutMs",
        "maxPollIntervalMs=-2s|maxPollIntervalMs",
        "fetchMinBytes=-1|fetchMinBytes",
        "kerberosRenewJitter=-0.5|kerberosRenewJitter",
        "saslAuthType=BOGUS|saslAuthType" })
    void badValuesFailNamingTheOption(String option, String named) {
        Throwable failure = catchThrowable(() -> context
                .getEndpoint("kafka-fetch:t?brokers=b:1&groupId=g&" + option, KafkaFetchEndpoint.class)
                .taskSettings());
        StringBuilder messages = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append(" | ");
        }
        assertThat(messages.toString()).contains(named);
    }

    @Test
    void durationsAreAcceptedAsInCamelKafka() {
        KafkaFetchEndpoint endpoint = context.getEndpoint(
                "kafka-fetch:t?brokers=b:1&groupId=g&pollTimeoutMs=2s&commitTimeoutMs=3s&maxPollIntervalMs=1m",
                KafkaFetchEndpoint.class);
        assertThat(endpoint.taskSettings().pollTimeoutMs()).isEqualTo(2000);
        assertThat(endpoint.taskSettings().commitTimeoutMs()).isEqualTo(3000);
        assertThat(endpoint.taskSettings().properties()).containsEntry("max.poll.interval.ms", "60000");
    }

    private void bind(Map<String, Object> options) {
        PropertyBindingSupport.build().withCamelContext(context).withTarget(component)
                .withProperties(new HashMap<>(options)).withRemoveParameters(false).bind();
    }
}
