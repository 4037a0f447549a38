package dev.kafkafetch.task;

/** Life cycle of a fetch task, as shown by metrics, the dev console and health checks. */
public enum TaskState {
    /** Creating the KafkaConsumer (with retry and backoff). */
    CONNECTING,
    /** Subscribing to the topics (with retry and backoff). */
    SUBSCRIBING,
    /** Polling and dispatching records. */
    RUNNING,
    /** A pause was asked for; the fetch thread applies it at its next turn. */
    PAUSE_REQUESTED,
    /** Every assigned partition paused and no record started; still polling, so still in the group. */
    PAUSED,
    /** A resume was asked for; the fetch thread applies it at its next turn. */
    RESUME_REQUESTED,
    /** Closing the consumer after an error, to create it again. */
    RECONNECTING,
    /** Finished: stopped, or gave up. */
    TERMINATED
}
