package dev.kafkafetch.task;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which assigned partitions a fetch task's consumer has paused, and why: the whole task (suspended, a Pausable EIP
 * listener, back-pressure), a partition that holds more than its share of the task's window, a partition whose next
 * record is a retry letter not due yet, a partition an operator paused. Guarantee: a partition is resumed only when
 * none of the four holds it, and a partition assigned while the task or an operator pauses it is paused before any
 * record of it is polled. Fetch thread only.
 */
final class ConsumerPauses {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerPauses.class);

    private final String taskName;
    /** The task's assigned states, owned by {@link PartitionStates}; read only here. */
    private final Map<TopicPartition, PartitionState> assigned;
    private TaskConsumer consumer;
    private String taskReason;
    private PartitionPauses operator = new PartitionPauses();
    /** Paused because each held more than its share of the window ({@link #balance}). */
    private final Set<TopicPartition> overShare = new HashSet<>();

    ConsumerPauses(String taskName, Map<TopicPartition, PartitionState> assigned) {
        this.taskName = taskName;
        this.assigned = assigned;
    }

    /** A new consumer: nothing of it is paused. */
    void attach(TaskConsumer consumer) {
        this.consumer = consumer;
        this.taskReason = null;
        this.overShare.clear();
    }

    /** The partitions an operator paused on this route (shared by its tasks); set before the task runs. */
    void setOperatorPauses(PartitionPauses operator) {
        this.operator = operator;
    }

    PartitionPauses operatorPauses() {
        return operator;
    }

    /** Why the whole task is paused, null when it is not. */
    String taskReason() {
        return taskReason;
    }

    /**
     * Pauses every assigned partition for {@code reason}, or resumes them when it is null (but those waiting for a
     * retry letter to be due, or paused by an operator).
     */
    void pauseTask(String reason) {
        if ((reason == null) != (taskReason == null)) {
            if (reason != null) {
                consumer.pause(consumer.assignment());
            } else {
                consumer.resume(resumable(consumer.assignment()));
            }
        }
        taskReason = reason;
    }

    /**
     * An operator paused (true) or resumed the partition: paused or resumed in the consumer if it is assigned here
     * (a resume leaves it paused while the task is, or while it waits for a retry letter).
     */
    void operatorPause(TopicPartition tp, boolean pause) {
        PartitionState s = assigned.get(tp);
        if (s == null) {
            return;
        }
        if (pause) {
            consumer.pause(List.of(tp));
        } else if (taskReason == null && s.delayedUntil() == 0 && !overShare.contains(tp)) {
            consumer.resume(List.of(tp));
        }
    }

    /** The partition waits for its next record, a retry letter due at {@code dueMs}: sought back to it and paused. */
    void delay(PartitionState state, long offset, long dueMs) {
        consumer.seek(state.partition(), offset);
        consumer.pause(List.of(state.partition()));
        state.delayUntil(dueMs);
    }

    /** Resumes the delayed partitions whose retry letter is due (unless the task is paused); when the next one is. */
    long resumeDue(long nowMs) {
        long next = Long.MAX_VALUE;
        List<TopicPartition> due = new ArrayList<>();
        for (PartitionState s : assigned.values()) {
            long until = s.delayedUntil();
            if (until > 0 && until <= nowMs) {
                s.delayUntil(0);
                due.add(s.partition());
            } else if (until > 0) {
                next = Math.min(next, until);
            }
        }
        due.removeIf(tp -> operator.isPaused(tp) || overShare.contains(tp));
        if (!due.isEmpty() && taskReason == null) {
            consumer.resume(due);
        }
        return next;
    }

    /** Newly assigned partitions: paused at once while the task is, or each an operator paused. */
    void assigned(Collection<TopicPartition> partitions) {
        overShare.removeAll(partitions); // assigned again (eager): its consumer starts it unpaused, with a new window
        if (taskReason != null) {
            consumer.pause(partitions);
            return;
        }
        // an operator's pause survives the rebalance: paused before any record of it is polled
        List<TopicPartition> operatorPaused = partitions.stream().filter(operator::isPaused).toList();
        if (!operatorPaused.isEmpty()) {
            consumer.pause(operatorPaused);
            LOG.info("Fetch task {}: {} stay paused (an operator paused them)", taskName, operatorPaused);
        }
    }

    /**
     * An operator's seek gave the partition a fresh state: it no longer waits for the retry letter its old state
     * waited for, so it is resumed unless the task or an operator pauses it.
     */
    void freshStart(TopicPartition tp, PartitionState old) {
        if (old != null && old.delayedUntil() > 0 && taskReason == null && !operator.isPaused(tp)
            && !overShare.contains(tp)) {
            consumer.resume(List.of(tp));
        }
    }

    /**
     * Back-pressure per partition, beside the task's own ({@link CompletionQueue}): pauses each partition that holds
     * more than its share of the window, {@code (maxHeld - pollSize) / partitions} records but at least one poll, so
     * that one partition held up (a hot key's lane, a slow record at its head) cannot fill the task's window with
     * records that wait, and stall every other partition behind the task-wide pause. Resumes it once it holds half its
     * share, unless the task, a retry letter or an operator pauses it. A task with one partition has only the task's.
     * <p>
     * A partition is newly paused alone only when {@code pauseAlone} ({@link #mayPauseAlone}): with KEY ordering
     * always, as a key's lane holds its records up whatever the slots (a hot key fills the window while the other
     * keys keep every slot busy, and by the time slots are idle the task-wide pause holds every partition behind it);
     * with PARTITION ordering only while a slot is idle. There, with every slot busy, the other partitions' records
     * could not start anyway, and pausing partitions one by one only breaks up the consumer's fetches (a fast route on
     * four partitions at maxConcurrency 1 lost about 40 % of its rate to it); the task-wide pause then bounds the
     * window.
     */
    void balance(int maxHeld, int pollSize, boolean pauseAlone) {
        int share = assigned.size() < 2 ? Integer.MAX_VALUE
                : Math.max(pollSize, (maxHeld - pollSize) / assigned.size());
        for (Iterator<TopicPartition> it = overShare.iterator(); it.hasNext();) {
            TopicPartition tp = it.next();
            PartitionState s = assigned.get(tp);
            if (s == null) {
                it.remove(); // given up: a consumer forgets the pauses of what it no longer holds
            } else if (s.held() <= share / 2) {
                it.remove();
                if (taskReason == null && s.delayedUntil() == 0 && !operator.isPaused(tp)) {
                    consumer.resume(List.of(tp));
                }
            }
        }
        if (!pauseAlone) {
            return;
        }
        List<TopicPartition> pause = null;
        for (PartitionState s : assigned.values()) {
            if (s.held() > share && overShare.add(s.partition())) {
                if (pause == null) {
                    pause = new ArrayList<>(2);
                }
                pause.add(s.partition());
            }
        }
        if (pause != null) {
            consumer.pause(pause);
            LOG.debug("Fetch task {}: {} paused, each holds more than its share ({}) of the window", taskName, pause,
                    share);
        }
    }

    /** Whether {@link #balance} may newly pause a partition alone: always with KEY ordering, else while a slot is idle. */
    static boolean mayPauseAlone(Ordering ordering, int running, int maxConcurrency) {
        return ordering == Ordering.KEY || running < maxConcurrency;
    }

    /** Why the partition is paused (the strongest reason), null when it is not. */
    String reason(PartitionState s) {
        TopicPartition tp = s.partition();
        return taskReason != null ? taskReason
                : operator.isPaused(tp) ? "operator"
                        : s.delayedUntil() > 0 ? "retry-delay"
                                : overShare.contains(tp) ? "window-share" : null;
    }

    private Collection<TopicPartition> resumable(Collection<TopicPartition> partitions) {
        List<TopicPartition> list = new ArrayList<>(partitions.size());
        for (TopicPartition tp : partitions) {
            PartitionState s = assigned.get(tp);
            if ((s == null || s.delayedUntil() == 0) && !operator.isPaused(tp) && !overShare.contains(tp)) {
                list.add(tp);
            }
        }
        return list;
    }
}
