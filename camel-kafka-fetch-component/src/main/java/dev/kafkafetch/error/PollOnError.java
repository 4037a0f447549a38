package dev.kafkafetch.error;

/** What a fetch task does when {@code poll()} throws, as in camel-kafka. */
public enum PollOnError {
    /** Log at WARN and go on polling. */
    DISCARD,
    /** Give the error to the consumer's exception handler (logged, or bridged to the route), then go on polling. */
    ERROR_HANDLER,
    /** Finish what is in flight, commit, close the consumer and create it again (after the create backoff). */
    RECONNECT,
    /** Log at WARN and poll again after a short backoff. */
    RETRY,
    /** Finish what is in flight, commit and terminate the task (liveness turns DOWN). */
    STOP
}
