package dev.kafkafetch.task;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.LanePlace;
import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.metrics.OldestUnfinished;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.window.PartitionState;

/**
 * Builds the partition lines of a task's snapshot, on the fetch thread, from the state it owns: offsets, lag (the
 * client's own fetch metadata), why it is paused, and what it is stuck on: the work item attached to the oldest
 * unfinished slot of its window, its state, age and worker thread, the record it waits behind in its lane (an
 * execution still running from before a seek back or a rebalance), and with {@code ordering=KEY} the records queued
 * behind it in its key lane (one dispatcher lock for all partitions).
 * <p>
 * Guarantee: reads only what the fetch thread owns, the work items' volatile fields and the dispatcher under its
 * lock; never a lock a worker holds while it runs a record, never the consumer beyond {@code currentLag}.
 */
final class PartitionSnapshots {

    private final Dispatcher dispatcher;
    private final boolean keyOrdering;
    private final boolean inLanes;
    private final boolean batching;

    PartitionSnapshots(Dispatcher dispatcher, Ordering ordering, boolean batching) {
        this.dispatcher = dispatcher;
        this.keyOrdering = ordering == Ordering.KEY;
        this.inLanes = ordering != Ordering.UNORDERED;
        this.batching = batching;
    }

    List<PartitionSnapshot> of(Collection<PartitionState> states, TaskConsumer consumer, ConsumerPauses pauses,
                               long nowMs) {
        List<PartitionState> list = new ArrayList<>(states);
        List<WorkItem> oldest = new ArrayList<>(list.size());
        List<WorkItem> laned = new ArrayList<>();
        for (PartitionState s : list) {
            WorkItem item = s.oldestUnfinishedRecord() instanceof WorkItem w ? w : null;
            oldest.add(item);
            if (inLanes && item != null) {
                laned.add(item);
            }
        }
        LanePlace[] places = laned.isEmpty() ? new LanePlace[0] : dispatcher.lanePlaces(laned);
        int lane = 0;
        long nowNanos = System.nanoTime();
        List<PartitionSnapshot> parts = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            PartitionState s = list.get(i);
            long position = s.lastPolledOffset() < 0 ? -1 : s.lastPolledOffset() + 1;
            long lag = -1;
            long end = -1;
            OptionalLong l = consumer.currentLag(s.partition());
            if (l.isPresent()) {
                lag = l.getAsLong();
                end = position < 0 ? -1 : position + lag;
            }
            boolean byOperator = pauses.operatorPauses().isPaused(s.partition());
            String paused = pauses.reason(s);
            WorkItem item = oldest.get(i);
            OldestUnfinished stuck = null;
            if (item != null) {
                LanePlace place = inLanes ? places[lane++] : null;
                stuck = describe(item, byOperator, place, nowMs, nowNanos);
            } else if (s.firstUnfinishedOffset() >= 0) {
                stuck = new OldestUnfinished(s.firstUnfinishedOffset(), null, s.attemptFor(s.firstUnfinishedOffset()),
                        "unknown", 0, 0, null, null, -1, null);
            }
            parts.add(new PartitionSnapshot(s.partition().topic(), s.partition().partition(), position,
                    s.lastCommitted(), s.committable(), end, lag, s.unfinished(), s.held(), paused, s.delayedUntil(),
                    stuck));
        }
        return parts;
    }

    private OldestUnfinished describe(WorkItem item, boolean held, LanePlace place, long nowMs, long nowNanos) {
        String state = stateOf(item, held);
        Thread worker = item.state() == WorkItem.RUNNING ? item.worker() : null;
        long polledAt = item.polledAtMs();
        int waitingBehind = keyOrdering && place != null ? place.waitingBehind() : -1;
        OldestUnfinished.LaneHead ahead = null;
        if (place != null && place.ahead() != null && item.state() == WorkItem.QUEUED) {
            WorkItem head = place.ahead();
            Thread headWorker = head.state() == WorkItem.RUNNING ? head.worker() : null;
            ahead = new OldestUnfinished.LaneHead(head.offset(), head.attempt(), stateOf(head, false),
                    runningMs(head, nowNanos), headWorker != null ? headWorker.getName() : null,
                    headWorker != null ? headWorker.getState().name() : null);
        }
        return new OldestUnfinished(item.offset(), keyText(item), item.attempt(), state,
                polledAt > 0 ? Math.max(0, nowMs - polledAt) : 0, runningMs(item, nowNanos),
                worker != null ? worker.getName() : null, worker != null ? worker.getState().name() : null,
                waitingBehind, ahead);
    }

    private String stateOf(WorkItem item, boolean held) {
        switch (item.state()) {
            case WorkItem.QUEUED:
                return batching && item.decodeError() == null ? "batched" : held ? "held" : "queued";
            case WorkItem.RUNNING:
                // no worker: either none has picked it up yet, or the route goes on asynchronously
                return item.worker() != null ? "running" : item.inAsyncStep() ? "async" : "starting";
            case WorkItem.DONE:
                return item.failure() != null ? "dead-lettering" : "completing";
            case WorkItem.ABANDONED:
                return "stalled";
            default:
                return "dropped";
        }
    }

    private static long runningMs(WorkItem item, long nowNanos) {
        long started = item.state() == WorkItem.RUNNING ? item.startedAtNanos() : 0;
        return started == 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(nowNanos - started);
    }

    private static String keyText(WorkItem item) {
        Object key = item.key();
        String text;
        if (key == null) {
            if (item.rawKey() == null) {
                return null;
            }
            text = new String(item.rawKey(), StandardCharsets.UTF_8);
        } else if (key instanceof byte[] bytes) {
            text = new String(bytes, StandardCharsets.UTF_8);
        } else {
            text = String.valueOf(key);
        }
        return text.length() > OldestUnfinished.MAX_KEY_LENGTH
                ? text.substring(0, OldestUnfinished.MAX_KEY_LENGTH) + "…" : text;
    }
}
