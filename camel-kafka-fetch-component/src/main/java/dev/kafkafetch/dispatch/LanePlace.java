package dev.kafkafetch.dispatch;

/**
 * Where a record stands in its ordering lane at one moment: what waits behind it, and what it waits behind.
 *
 * @param waitingBehind the records of its lane queued behind it (0 without a lane)
 * @param ahead         the lane's head when the record waits behind it (ready, running, or an execution still running
 *                      from before a seek back or a re-assignment); null when the record is the head or has no lane
 */
public record LanePlace(int waitingBehind, WorkItem ahead) {
}
