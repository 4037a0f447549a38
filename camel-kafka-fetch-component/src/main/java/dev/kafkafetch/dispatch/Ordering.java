package dev.kafkafetch.dispatch;

/** Which records of a fetch task may be in the route at the same time. */
public enum Ordering {
    /** One record at a time per partition, in offset order (camel-kafka's order). */
    PARTITION,
    /** One record at a time per key within a partition, in offset order; records with a null key are all different. */
    KEY,
    /** Any records at once, up to maxConcurrency. */
    UNORDERED
}
