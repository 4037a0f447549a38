package dev.kafkafetch.error;

/**
 * Decides what a fetch task does about an exception thrown by {@code poll()}. Called on the fetch thread; must not
 * block. Set a custom one on the component ({@code pollExceptionStrategy}) to override {@code pollOnError}.
 */
@FunctionalInterface
public interface PollExceptionStrategy {

    PollOnError decide(Exception error);
}
