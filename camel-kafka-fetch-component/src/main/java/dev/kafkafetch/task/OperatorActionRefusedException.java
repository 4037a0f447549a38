package dev.kafkafetch.task;

/** An operator's action that the route does not allow (operatorActions=false) or cannot carry out as asked. */
public final class OperatorActionRefusedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public OperatorActionRefusedException(String message) {
        super(message);
    }
}
