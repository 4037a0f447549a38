package dev.kafkafetch.error;

/**
 * Where a record that is still failed after Camel's error handler goes, as the endpoint says.
 *
 * @param maxAttempts     breakOnFirstErrorMaxAttempts: deliveries before a record is handed on (0 = no limit)
 * @param deadLetterTopic null without a dead-letter topic
 * @param retries         null without retry topics
 * @param inTransaction   transacted: a dead letter is held as its record's only output and sent in the transaction
 *                        that commits the record's offset, not by the letter publisher
 */
public record FailureRules(String groupId, boolean breakOnFirstError, int maxAttempts, String deadLetterTopic,
        RetryPlan retries, boolean inTransaction) {

    /** Whether failed records are sent anywhere (so a letter publisher is needed). */
    public boolean sendsLetters() {
        return deadLetterTopic != null || retries != null;
    }
}
