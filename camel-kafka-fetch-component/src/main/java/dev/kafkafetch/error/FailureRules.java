package dev.kafkafetch.error;

/**
 * Where a record that is still failed after Camel's error handler goes, as the endpoint says.
 *
 * @param maxAttempts     breakOnFirstErrorMaxAttempts: deliveries before a record is handed on (0 = no limit)
 * @param deadLetterTopic null without a dead-letter topic
 * @param retries         null without retry topics
 */
public record FailureRules(String groupId, boolean breakOnFirstError, int maxAttempts, String deadLetterTopic,
        RetryPlan retries) {

    /** Whether failed records are sent anywhere (so a letter publisher is needed). */
    public boolean sendsLetters() {
        return deadLetterTopic != null || retries != null;
    }
}
