package dev.kafkafetch;

import java.util.function.Predicate;

import dev.kafkafetch.dispatch.ProcessingResult;
import org.apache.camel.resume.ConsumerListener;

/**
 * The listener for Camel's Pausable EIP on a kafka-fetch or kafka-fetch-share route:
 * {@code from("kafka-fetch:...").pausable(new KafkaFetchConsumerListener(), o -> serviceIsUp())}.
 * <p>
 * On {@code kafka-fetch}, when a record is still failed after the error handler, its fetch task seeks its partition
 * back to it and pauses (it keeps polling, so it stays in its group); at every poll it asks the until-check and
 * resumes once it is true. The failed record is then delivered again. Nothing is committed past it meanwhile.
 * <p>
 * On {@code kafka-fetch-share}, the fetch task releases the failed record (unless it was on the group's last
 * delivery, where a release would archive it: it is then dead-lettered or rejected as without the EIP), gives back
 * what it had not started and leaves the share group, so other members get the work; it asks the until-check every
 * 100 ms and joins again once it is true.
 */
public class KafkaFetchConsumerListener implements ConsumerListener<Object, ProcessingResult> {

    private volatile Predicate<Object> resumableCheck = o -> true;

    @Override
    @SuppressWarnings("unchecked")
    public void setResumableCheck(Predicate<?> check) {
        this.resumableCheck = (Predicate<Object>) check;
    }

    /** Called by the paused fetch thread at every poll: true to resume. */
    @Override
    public boolean afterConsume(Object task) {
        return resumableCheck.test(task);
    }

    /** Called when a record finished in the route: false to pause (and seek back to it when it failed). */
    @Override
    public boolean afterProcess(ProcessingResult result) {
        return !result.isFailed();
    }
}
