package dev.kafkafetch.tx;

import dev.kafkafetch.KafkaFetchEndpoint;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * transacted=true refuses, at route start and naming the option, what it cannot keep exactly once, and requires a
 * stable transactional id per member (transactionalIdPrefix, else groupInstanceId or clientId).
 */
class TransactedOptionsTest {

    private static final String BASE = "kafka-fetch:in?brokers=localhost:9092&groupId=g&transacted=true";
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

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "&clientId=c&autoCommitEnable=false|transacted cannot be used with autoCommitEnable=false",
        "&clientId=c&allowManualCommit=true&kafkaManualCommitFactory=#class:dev.kafkafetch.commit.DefaultKafkaManualCommitFactory|transacted cannot be used with allowManualCommit=true",
        "&clientId=c&batching=true|transacted cannot be used with batching=true",
        "&clientId=c&breakOnFirstError=true|transacted cannot be used with breakOnFirstError=true",
        "&clientId=c&retryDelays=1s|transacted cannot be used with retryDelays",
        "&offsetMap=true|transactionalIdPrefix is required with transacted=true" })
    void refusedNamingTheOption(String extra, String message) {
        Throwable t = catchThrowable(() -> context.getEndpoint(BASE + extra, KafkaFetchEndpoint.class).taskSettings());
        assertThat(t).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kafka-fetch option " + message);
    }

    @Test
    void theTransactionalIdIsStablePerMemberAndTask() {
        TxSettings fromClient = context.getEndpoint(BASE + "&clientId=member-1", KafkaFetchEndpoint.class)
                .taskSettings().transactions();
        assertThat(fromClient.transactionalId(0)).isEqualTo("kafka-fetch-g-member-1-0");
        TxSettings fromInstance = context.getEndpoint(BASE + "&groupInstanceId=i-1&clientId=c",
                KafkaFetchEndpoint.class).taskSettings().transactions();
        assertThat(fromInstance.transactionalId(2)).isEqualTo("kafka-fetch-g-i-1-2");
        TxSettings given = context.getEndpoint(BASE + "&transactionalIdPrefix=orders-eu-7", KafkaFetchEndpoint.class)
                .taskSettings().transactions();
        assertThat(given.producerProperties(1).getProperty("transactional.id")).isEqualTo("orders-eu-7-1");
        assertThat(context.getEndpoint("kafka-fetch:in?brokers=localhost:9092&groupId=g", KafkaFetchEndpoint.class)
                .taskSettings().transacted()).isFalse();
    }
}
