package dev.kafkafetch;

import dev.kafkafetch.commit.KafkaManualCommitFactory;
import dev.kafkafetch.dispatch.ProcessingResult;
import org.apache.camel.resume.ConsumerListener;

/**
 * What the optional {@code camel-kafka-fetch-compat} module provides, found at
 * {@code META-INF/services/dev/kafkafetch/camel-kafka-compat}: code written against camel-kafka's types keeps working.
 * Without it, a camel-kafka type configured on a kafka-fetch route fails the route's start with a message naming the
 * kafka-fetch type to use; nothing is silently ignored.
 */
public interface CamelKafkaCompat {

    /** The service name under {@code META-INF/services/dev/kafkafetch/}. */
    String SERVICE = "camel-kafka-compat";

    /** The factory, whose commits (header CamelKafkaManualCommit) also implement camel-kafka's KafkaManualCommit. */
    KafkaManualCommitFactory manualCommitFactory(KafkaManualCommitFactory factory);

    /** A camel-kafka consumer listener of the Pausable EIP (or a subclass of one), adapted to kafka-fetch. */
    ConsumerListener<Object, ProcessingResult> consumerListener(ConsumerListener<?, ?> camelKafkaListener);

    /** Whether a value is of one of camel-kafka's types (its class or a super type is in camel-kafka's package). */
    static boolean isCamelKafkaType(Object value) {
        for (Class<?> c = value == null ? null : value.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().startsWith("org.apache.camel.component.kafka.")) {
                return true;
            }
            for (Class<?> i : c.getInterfaces()) {
                if (i.getName().startsWith("org.apache.camel.component.kafka.")) {
                    return true;
                }
            }
        }
        return false;
    }
}
