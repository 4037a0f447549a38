package dev.kafkafetch.error;

import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;

/**
 * The {@code pollOnError} option as a strategy: every poll error gets the configured action, except authentication
 * and authorization errors, which always STOP: retrying them cannot succeed and would hammer the brokers.
 */
public final class ConfiguredPollExceptionStrategy implements PollExceptionStrategy {

    private final PollOnError configured;

    public ConfiguredPollExceptionStrategy(PollOnError configured) {
        this.configured = configured;
    }

    @Override
    public PollOnError decide(Exception error) {
        if (error instanceof AuthenticationException || error instanceof AuthorizationException) {
            return PollOnError.STOP;
        }
        return configured;
    }
}
