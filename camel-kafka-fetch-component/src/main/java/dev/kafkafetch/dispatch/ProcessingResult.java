package dev.kafkafetch.dispatch;

/**
 * What happened to one record (or batch) in the route, as told to a Pausable EIP listener.
 *
 * @param failure the exception still on the exchange after Camel's error handler, or null when it succeeded
 */
public record ProcessingResult(String topic, int partition, long offset, Exception failure) {

    public static ProcessingResult of(WorkItem item) {
        return new ProcessingResult(item.topic(), item.partition(), item.offset(), item.failure());
    }

    public boolean isFailed() {
        return failure != null;
    }
}
