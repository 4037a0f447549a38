package dev.kafkafetch.it;

import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A String deserializer that takes 3 s for the value "slow", the first time only: it runs on the fetch thread, so it
 * blocks polling past max.poll.interval.ms once.
 */
public class SlowStringDeserializer extends StringDeserializer {

    public static final java.util.concurrent.atomic.AtomicBoolean SLOWED = new java.util.concurrent.atomic.AtomicBoolean();

    @Override
    public String deserialize(String topic, byte[] data) {
        String value = super.deserialize(topic, data);
        if ("slow".equals(value) && SLOWED.compareAndSet(false, true)) {
            try {
                Thread.sleep(3000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return value;
    }
}
