package dev.kafkafetch.error;

/**
 * Why a record is in the dead-letter topic with reason {@code parked}: an operator took it out of the route (the
 * {@code exception-message} provenance header names the record, who asked and what it was doing).
 */
public final class ParkedException extends Exception {

    private static final long serialVersionUID = 1L;

    public ParkedException(String where, String requestedBy, String was) {
        super("Record " + where + " was parked by " + requestedBy + " while " + was, null, false, false);
    }
}
