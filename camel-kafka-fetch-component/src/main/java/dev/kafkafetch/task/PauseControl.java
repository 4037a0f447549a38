package dev.kafkafetch.task;

import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.ProcessingResult;
import org.apache.camel.resume.ConsumerListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Why a fetch task's partitions are paused: the route was suspended ({@code user}), a Pausable EIP listener asked for
 * it ({@code listener}), or the window is full ({@code back-pressure}). Requests come from any thread; the fetch
 * thread applies them at its next turn.
 * <p>
 * Guarantees: while paused by the user or a listener no queued record starts (the dispatcher holds them, so a resume
 * delivers them without a seek and nothing twice), every assigned partition is paused, and the task keeps polling,
 * so it stays in its group. A listener's resume check runs on the fetch thread, at each turn while it paused the task.
 */
final class PauseControl {

    private static final Logger LOG = LoggerFactory.getLogger(PauseControl.class);

    private final String taskName;
    private final Dispatcher dispatcher;
    private final PartitionStates partitions;
    private final CompletionQueue backPressure;
    private volatile boolean userPaused;
    private volatile boolean listenerPaused;
    /** Fetch thread: whether the dispatcher holds queued records now. */
    private boolean holding;

    PauseControl(String taskName, Dispatcher dispatcher, PartitionStates partitions, CompletionQueue backPressure) {
        this.taskName = taskName;
        this.dispatcher = dispatcher;
        this.partitions = partitions;
        this.backPressure = backPressure;
    }

    /** Any thread: the route was suspended (true) or resumed (false). */
    void userPause(boolean pause) {
        userPaused = pause;
    }

    /** Any thread: a Pausable EIP listener asked for a pause. */
    void listenerPause() {
        listenerPaused = true;
    }

    boolean listenerPaused() {
        return listenerPaused;
    }

    /**
     * Fetch thread: asks a pausing listener whether to resume, then brings the dispatcher and the partitions in line.
     * Returns true while the task is paused by the user or a listener.
     */
    boolean apply(ConsumerListener<Object, ProcessingResult> listener, Object task) {
        if (listenerPaused && listener != null) {
            try {
                listenerPaused = !listener.afterConsume(task);
            } catch (RuntimeException e) {
                LOG.warn("Fetch task {}: the consumer listener's resume check failed; staying paused: {}", taskName,
                        e.toString());
            }
        }
        boolean hold = userPaused || listenerPaused;
        if (hold != holding) {
            holding = hold;
            dispatcher.hold(hold);
            LOG.info("Fetch task {} {}", taskName, hold ? "paused" : "resumed");
        }
        applyToPartitions();
        return hold;
    }

    /** Fetch thread: pauses or resumes the partitions for the strongest reason there is now. */
    void applyToPartitions() {
        partitions.pauses()
                .pauseTask(userPaused ? "user" : listenerPaused ? "listener" : backPressure.paused() ? "back-pressure"
                        : null);
    }

    /** Fetch thread: the dispatcher holds records while paused; after a reconnect, as before. */
    void restoreHold() {
        dispatcher.hold(holding);
    }
}
