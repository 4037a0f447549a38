package dev.kafkafetch.error;

import dev.kafkafetch.metrics.TaskMetrics;
import org.apache.camel.spi.ExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a fetch task does when {@code poll()} throws: records the error, asks the {@link PollExceptionStrategy},
 * logs or hands the error to the consumer's exception handler as the decision says, and returns the decision for the
 * fetch task to carry out.
 */
public final class PollErrorHandler {

    private static final Logger LOG = LoggerFactory.getLogger(PollErrorHandler.class);

    private final String what;
    private final PollExceptionStrategy strategy;
    private final ExceptionHandler exceptionHandler;
    private final TaskMetrics metrics;

    public PollErrorHandler(String taskName, String subscription, PollExceptionStrategy strategy,
                            ExceptionHandler exceptionHandler, TaskMetrics metrics) {
        this.what = "Fetch task " + taskName + ": poll error on " + subscription;
        this.strategy = strategy;
        this.exceptionHandler = exceptionHandler;
        this.metrics = metrics;
    }

    public PollOnError handle(RuntimeException e) {
        metrics.error(e);
        PollOnError action = strategy.decide(e);
        switch (action) {
            case STOP:
                LOG.error("{}; the task stops (pollOnError=STOP or a security error): {}", what, e.toString(), e);
                exceptionHandler.handleException(what + "; the task stops", e);
                break;
            case RECONNECT:
                LOG.warn("{}; reconnecting: {}", what, e.toString());
                break;
            case ERROR_HANDLER:
                exceptionHandler.handleException(what + "; polling goes on", e);
                break;
            default:
                LOG.warn("{}; polling goes on ({}): {}", what, action, e.toString());
                break;
        }
        return action;
    }
}
