package dev.kafkafetch;

import java.util.stream.Stream;

import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Bad input to {@code kafka-fetch:} fails the route's start with a message that names the option (DESIGN §4.7),
 * checked without a broker. What needs one (createRetryTopics=false, which asks the broker whether the retry topics
 * exist) stays in {@code it/BadOptionsIT}.
 */
class BadOptionsTest extends OptionsTestSupport {

    static Stream<Arguments> badOptions() {
        return Stream.of(
                Arguments.of("unknownOption=1", "unknownOption"),
                Arguments.of("ordering=SIDEWAYS", "ordering"),
                Arguments.of("seekTo=MIDDLE", "seekTo"),
                Arguments.of("autoOffsetReset=middle", "autoOffsetReset"),
                Arguments.of("groupProtocol=gossip", "groupProtocol"),
                Arguments.of("isolationLevel=sometimes", "isolationLevel"),
                Arguments.of("consumersCount=0", "consumersCount"),
                Arguments.of("maxConcurrency=-3", "maxConcurrency"),
                Arguments.of("pollTimeoutMs=0", "pollTimeoutMs"),
                Arguments.of("maxPollRecords=0", "maxPollRecords"),
                Arguments.of("shutdownTimeout=-1", "shutdownTimeout"),
                Arguments.of("commitTimeoutMs=0", "commitTimeoutMs"),
                Arguments.of("stallTimeoutMs=-5", "stallTimeoutMs"),
                Arguments.of("maxInFlightRecords=10", "maxInFlightRecords"),
                Arguments.of("valueDeserializer=com.example.NoSuchDeserializer", "valueDeserializer"),
                Arguments.of("keyDeserializer=java.lang.String", "keyDeserializer"),
                Arguments.of("partitionAssignor=com.example.NoSuchAssignor", "partitionAssignor"),
                Arguments.of("additionalProperties.enable.auto.commit=true", "enable.auto.commit"),
                Arguments.of("topicIsPattern=true&unused=(", "unused"),
                Arguments.of("retryDelays=,", "retryDelays"),
                Arguments.of("retryDelays=2s,1s", "retryDelays must increase"),
                Arguments.of("retryDelays=1s,1s", "retryDelays must increase"),
                Arguments.of("retryDelays=0s,1s", "retryDelays"),
                Arguments.of("retryDelays=-1s", "retryDelays"),
                Arguments.of("retryDelays=soon", "retryDelays"),
                Arguments.of("retryDelays=1s&breakOnFirstError=true",
                        "retryDelays cannot be used with breakOnFirstError"),
                Arguments.of("retryDelays=1s&deadLetterTopic=t.retry-1", "deadLetterTopic"),
                Arguments.of("retryDelays=1s&retryTopicPattern=t", "retryTopicPattern"),
                Arguments.of("retryDelays=1s&retryTopicPattern={topic}.r{n}&topicIsPattern=true", "retryDelays"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badOptions")
    void badOptionFailsStartNamingIt(String option, String named) {
        assertThat(messages(startFailure("kafka-fetch:t?brokers=" + NO_BROKER + "&groupId=g&" + option)))
                .contains(named);
    }

    @Test
    void missingBrokers() {
        assertThat(messages(startFailure("kafka-fetch:t?groupId=g"))).contains("brokers");
    }

    @Test
    void missingGroupId() {
        assertThat(messages(startFailure("kafka-fetch:t?brokers=" + NO_BROKER))).contains("groupId");
    }

    @Test
    void invalidTopicPattern() {
        assertThat(
                messages(startFailure("kafka-fetch:orders[?brokers=" + NO_BROKER + "&groupId=g&topicIsPattern=true")))
                .contains("topicIsPattern");
    }

    /**
     * kafka-fetch: as a producer sends only inside the transaction of a transacted kafka-fetch consumer (issue 27); a
     * send from any other exchange fails, pointing to camel-kafka. It cannot be refused at start: the exchange may come
     * through direct: from a transacted route.
     */
    @Test
    void producerOutsideATransactedRouteIsRefusedWithPointerToCamelKafka() throws Exception {
        CamelContext context = newContext();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:in").to("kafka-fetch:out?brokers=" + NO_BROKER);
            }
        });
        context.start();
        Throwable failure = catchThrowable(() -> context.createProducerTemplate().sendBody("direct:in", "x"));
        assertThat(messages(failure)).contains("camel-kafka").contains("transacted=true");
    }
}
