package dev.kafkafetch.share;

import java.util.stream.Stream;

import dev.kafkafetch.OptionsTestSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-fetch-share refuses at route start, naming them, the kafka-fetch options a share group cannot have (offsets,
 * commits, seeks, assignors, static membership, per-consumer session settings, partition order, batching,
 * breakOnFirstError, retry topics), the client settings a share consumer refuses or the component manages, and bad
 * values of its own options; checked without a broker.
 */
class ShareBadOptionsTest extends OptionsTestSupport {

    static Stream<Arguments> refused() {
        return Stream.of("autoOffsetReset=earliest", "autoCommitEnable=false", "autoCommitIntervalMs=100",
                "allowManualCommit=true", "groupInstanceId=me", "isolationLevel=read_committed",
                "partitionAssignor=org.apache.kafka.clients.consumer.RangeAssignor", "groupRemoteAssignor=uniform",
                "sessionTimeoutMs=6000", "heartbeatIntervalMs=500", "groupProtocol=consumer", "seekTo=BEGINNING",
                "topicIsPattern=true", "batching=true", "breakOnFirstError=true", "breakOnFirstErrorMaxAttempts=3",
                "retryDelays=1s", "offsetMap=false", "revokeTimeoutMs=100",
                "interceptorClasses=com.example.Interceptor")
                .map(option -> Arguments.of(option,
                        "option " + option.substring(0, option.indexOf('=')) + " is refused"));
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of("ordering=PARTITION", "kafka-fetch-share option ordering must be UNORDERED or KEY"),
                Arguments.of("additionalProperties.auto.offset.reset=earliest",
                        "additionalProperties.auto.offset.reset is refused"),
                Arguments.of("additionalProperties.group.instance.id=me",
                        "additionalProperties.group.instance.id is refused"),
                Arguments.of("additionalProperties.share.acknowledgement.mode=implicit",
                        "additionalProperties.share.acknowledgement.mode is refused"),
                Arguments.of("additionalProperties.share.acquire.mode=batch_optimized",
                        "additionalProperties.share.acquire.mode is refused"),
                Arguments.of("additionalProperties.enable.auto.commit=true",
                        "additionalProperties.enable.auto.commit is refused"),
                Arguments.of("consumersCount=0", "kafka-fetch-share option consumersCount"),
                Arguments.of("maxConcurrency=0", "kafka-fetch-share option maxConcurrency"),
                Arguments.of("maxDeliveryAttempts=0", "kafka-fetch-share option maxDeliveryAttempts"),
                Arguments.of("stallTimeoutMs=-1", "kafka-fetch-share option stallTimeoutMs"),
                Arguments.of("maxPollRecords=50&maxInFlightRecords=10", "maxInFlightRecords"),
                Arguments.of("consumersPerWindow=0", "kafka-fetch-share option consumersPerWindow"),
                Arguments.of("consumersPerWindow=2&ordering=KEY", "kafka-fetch-share option consumersPerWindow"),
                Arguments.of("deadLetterTopic=t", "deadLetterTopic"),
                Arguments.of("valueDeserializer=com.example.NoSuchDeserializer", "valueDeserializer"),
                Arguments.of("pollOnError=SOMETIMES", "pollOnError"),
                Arguments.of("unknownOption=1", "unknownOption"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void optionsAShareGroupCannotHaveAreRefused(String option, String message) {
        assertThat(messages(startFailure(uri(option)))).contains("kafka-fetch-share " + message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badValues")
    void badValuesFailStartNamingTheOption(String option, String named) {
        assertThat(messages(startFailure(uri(option)))).contains(named);
    }

    @Test
    void missingGroupId() {
        assertThat(messages(startFailure("kafka-fetch-share:t?brokers=" + NO_BROKER)))
                .contains("kafka-fetch-share option groupId is required");
    }

    @Test
    void missingBrokers() {
        assertThat(messages(startFailure("kafka-fetch-share:t?groupId=g")))
                .contains("kafka-fetch-share option brokers");
    }

    private static String uri(String option) {
        return "kafka-fetch-share:t?brokers=" + NO_BROKER + "&groupId=g&" + option;
    }
}
