package dev.kafkafetch.task;

/** Where a consumer starts on its first assignment, whatever was committed before. */
public enum SeekPolicy {
    /** Read from the beginning of every assigned partition. */
    BEGINNING,
    /** Read only records produced after the first assignment. */
    END
}
