package dev.kafkafetch.error;

import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

class ConfiguredPollExceptionStrategyTest {

    @ParameterizedTest
    @EnumSource(PollOnError.class)
    void anOrdinaryPollErrorGetsTheConfiguredAction(PollOnError configured) {
        ConfiguredPollExceptionStrategy strategy = new ConfiguredPollExceptionStrategy(configured);
        assertThat(strategy.decide(new KafkaException("broker trouble"))).isEqualTo(configured);
        assertThat(strategy.decide(new NoOffsetForPartitionException(new TopicPartition("t", 0))))
                .isEqualTo(configured);
    }

    @ParameterizedTest
    @EnumSource(PollOnError.class)
    void securityErrorsAlwaysStop(PollOnError configured) {
        ConfiguredPollExceptionStrategy strategy = new ConfiguredPollExceptionStrategy(configured);
        assertThat(strategy.decide(new SaslAuthenticationException("bad password"))).isEqualTo(PollOnError.STOP);
        assertThat(strategy.decide(new TopicAuthorizationException("not allowed"))).isEqualTo(PollOnError.STOP);
    }
}
