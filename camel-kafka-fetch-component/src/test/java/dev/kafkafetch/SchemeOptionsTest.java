package dev.kafkafetch;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.kafkafetch.share.KafkaFetchShareEndpoint;
import org.apache.camel.CamelContext;
import org.apache.camel.Component;
import org.apache.camel.Endpoint;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.spi.UriParam;
import org.apache.camel.support.PropertyBindingSupport;
import org.apache.camel.support.jsse.SSLContextParameters;
import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The options both schemes share ({@link KafkaFetchClientConfiguration}) behave the same on both, without a broker:
 * the catalog describes each one the same way under both schemes; a component value reaches every endpoint and an
 * endpoint's own value overrides it; additional properties merge per endpoint; global SSL fills an endpoint without
 * sslContextParameters; and a bad value fails naming the scheme and the option.
 */
class SchemeOptionsTest {

    /** One scheme: its name, its catalog and how to read an endpoint's consumer properties. */
    record Scheme(String name, String catalog, Function<Endpoint, Properties> properties) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final Scheme CLASSIC = new Scheme("kafka-fetch", "META-INF/dev/kafkafetch/kafka-fetch.json",
            e -> ((KafkaFetchEndpoint) e).taskSettings().properties());
    private static final Scheme SHARE = new Scheme("kafka-fetch-share",
            "META-INF/dev/kafkafetch/share/kafka-fetch-share.json",
            e -> ((KafkaFetchShareEndpoint) e).shareSettings().properties());

    private CamelContext context;

    static Stream<Scheme> schemes() {
        return Stream.of(CLASSIC, SHARE);
    }

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
    void everySharedOptionIsDescribedAlikeUnderBothSchemes() throws Exception {
        JsonObject classic = catalog(CLASSIC).getMap("properties");
        JsonObject share = catalog(SHARE).getMap("properties");
        List<String> shared = new ArrayList<>();
        for (Field f : KafkaFetchClientConfiguration.class.getDeclaredFields()) {
            if (f.isAnnotationPresent(UriParam.class)) {
                shared.add(f.getName());
            }
        }
        assertThat(shared).hasSizeGreaterThan(50).contains("brokers", "saslJaasConfig", "sslContextParameters");
        for (String name : shared) {
            Map<String, Object> ours = withoutClass(classic.getMap(name));
            Map<String, Object> theirs = withoutClass(share.getMap(name));
            assertThat(theirs).as(name).isEqualTo(ours);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemes")
    void componentValuesReachEveryEndpointAndEndpointValuesOverrideThem(Scheme scheme) throws Exception {
        Component component = context.getComponent(scheme.name());
        bind(component, Map.of("brokers", "b1:9092", "groupId", "app", "fetchMinBytes", "7",
                "additionalProperties[client.rack]", "r1"));

        Properties plain = scheme.properties().apply(context.getEndpoint(scheme.name() + ":a"));
        Properties own = scheme.properties().apply(context.getEndpoint(scheme.name()
                                                                       + ":b?fetchMinBytes=9&additionalProperties"
                                                                       + ".receive.buffer.bytes=1024"));

        assertThat(plain).containsEntry("bootstrap.servers", "b1:9092").containsEntry("fetch.min.bytes", "7")
                .containsEntry("client.rack", "r1").doesNotContainKey("receive.buffer.bytes");
        assertThat(own).containsEntry("bootstrap.servers", "b1:9092").containsEntry("fetch.min.bytes", "9")
                .containsEntry("client.rack", "r1").containsEntry("receive.buffer.bytes", "1024");
        assertThat(((AbstractKafkaFetchComponent<?, ?>) component).getConfiguration().getFetchMinBytes())
                .isEqualTo(7);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemes")
    void globalSslFillsAnEndpointWithoutItsOwn(Scheme scheme) {
        SSLContextParameters global = new SSLContextParameters();
        context.setSSLContextParameters(global);
        AbstractKafkaFetchComponent<?, ?> component = (AbstractKafkaFetchComponent<?, ?>) context
                .getComponent(scheme.name());
        component.setUseGlobalSslContextParameters(true);

        Endpoint endpoint = context.getEndpoint(scheme.name() + ":t?brokers=b:1&groupId=g");

        KafkaFetchClientConfiguration configuration = endpoint instanceof KafkaFetchEndpoint e
                ? e.getConfiguration() : ((KafkaFetchShareEndpoint) endpoint).getConfiguration();
        assertThat(configuration.getSslContextParameters()).isSameAs(global);
        assertThat(component.getConfiguration().getSslContextParameters()).isNull();
    }

    static Stream<Arguments> badValues() {
        List<Arguments> cases = new ArrayList<>();
        for (Scheme scheme : List.of(CLASSIC, SHARE)) {
            String option = scheme.name() + " option ";
            cases.add(Arguments.of(scheme, "fetchMinBytes=-1", option + "fetchMinBytes must not be negative"));
            cases.add(Arguments.of(scheme, "kerberosRenewJitter=-0.5", option + "kerberosRenewJitter"));
            cases.add(Arguments.of(scheme, "securityProtocol=BOGUS", option + "securityProtocol must be one of"));
            cases.add(Arguments.of(scheme, "saslUsername=u", option + "saslUsername is only used with"));
            cases.add(Arguments.of(scheme, "keyDeserializer=java.lang.String",
                    option + "keyDeserializer: class java.lang.String does not implement"));
            cases.add(Arguments.of(scheme, "valueDeserializer=no.such.Type",
                    option + "valueDeserializer: class no.such.Type cannot be found"));
            cases.add(Arguments.of(scheme, "consumersCount=0", option + "consumersCount must be positive"));
        }
        cases.add(Arguments.of(CLASSIC, "finishedCommitIntervalMs=-1",
                "kafka-fetch option finishedCommitIntervalMs must not be negative"));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("badValues")
    void aBadValueFailsNamingTheSchemeAndTheOption(Scheme scheme, String option, String named) {
        Throwable failure = catchThrowable(() -> scheme.properties()
                .apply(context.getEndpoint(scheme.name() + ":t?brokers=b:1&groupId=g&" + option)));
        assertThat(failure).isNotNull();
        StringBuilder messages = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append(" | ");
        }
        assertThat(messages.toString()).contains(named);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemes")
    void aMissingTopicNamesTheScheme(Scheme scheme) {
        Throwable failure = catchThrowable(() -> context.getEndpoint(scheme.name() + ":?brokers=b:1&groupId=g"));
        StringBuilder messages = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append(" | ");
        }
        assertThat(messages.toString()).contains(scheme.name() + ": the topic is missing");
    }

    private static Map<String, Object> withoutClass(Map<String, Object> option) {
        assertThat(option).isNotNull();
        Map<String, Object> copy = new HashMap<>(option);
        copy.remove("configurationClass");
        copy.remove("index");
        return copy;
    }

    private void bind(Component component, Map<String, Object> options) {
        PropertyBindingSupport.build().withCamelContext(context).withTarget(component)
                .withProperties(new HashMap<>(options)).withRemoveParameters(false).bind();
    }

    private static JsonObject catalog(Scheme scheme) throws Exception {
        try (InputStream in = SchemeOptionsTest.class.getClassLoader().getResourceAsStream(scheme.catalog())) {
            assertThat(in).as(scheme.catalog()).isNotNull();
            return (JsonObject) Jsoner.deserialize(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
