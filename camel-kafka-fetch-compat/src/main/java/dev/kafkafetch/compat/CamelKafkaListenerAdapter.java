package dev.kafkafetch.compat;

import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import dev.kafkafetch.dispatch.ProcessingResult;
import org.apache.camel.component.kafka.consumer.errorhandler.KafkaConsumerListener;
import org.apache.camel.resume.ConsumerListener;
import org.apache.kafka.clients.consumer.Consumer;

/**
 * camel-kafka's consumer listener of the Pausable EIP ({@link KafkaConsumerListener}, or a subclass) on a kafka-fetch
 * route. Its decisions are kept (pause after a failed record, resume when the EIP's check says so); the pausing and
 * seeking themselves are kafka-fetch's: the fetch task pauses every partition and seeks the failed record's partition
 * back to it, so the listener gets a consumer that ignores its pause, resume and seek calls (camel-kafka's
 * {@code seekPolicy} is therefore not applied). kafka-fetch never hands its consumer to another thread.
 */
final class CamelKafkaListenerAdapter implements ConsumerListener<Object, ProcessingResult> {

    private final ConsumerListener<Object, org.apache.camel.component.kafka.consumer.support.ProcessingResult> listener;

    @SuppressWarnings("unchecked")
    CamelKafkaListenerAdapter(ConsumerListener<?, ?> listener) {
        this.listener = (ConsumerListener<Object, org.apache.camel.component.kafka.consumer.support.ProcessingResult>) listener;
        if (listener instanceof KafkaConsumerListener k) {
            k.setConsumer(inertConsumer());
        }
    }

    @Override
    public void setResumableCheck(Predicate<?> afterConsumeEval) {
        listener.setResumableCheck(afterConsumeEval);
    }

    @Override
    public boolean afterConsume(Object consumePayload) {
        return listener.afterConsume(consumePayload);
    }

    @Override
    public boolean afterProcess(ProcessingResult result) {
        return listener.afterProcess(new org.apache.camel.component.kafka.consumer.support.ProcessingResult(false,
                result.isFailed(), result.topic(), result.partition(), result.offset()));
    }

    /** A consumer whose calls do nothing: assignment() is empty, pause/resume/seek are ignored. */
    @SuppressWarnings("unchecked")
    private static Consumer<Object, Object> inertConsumer() {
        return (Consumer<Object, Object>) Proxy.newProxyInstance(CamelKafkaListenerAdapter.class.getClassLoader(),
                new Class<?>[] { Consumer.class }, (proxy, method, args) -> {
                    Class<?> type = method.getReturnType();
                    if (type == Set.class) {
                        return Collections.emptySet();
                    } else if (type == List.class) {
                        return Collections.emptyList();
                    } else if (type == Map.class) {
                        return Collections.emptyMap();
                    } else if (type == boolean.class) {
                        return false;
                    } else if (method.getName().equals("toString")) {
                        return "kafka-fetch inert consumer";
                    } else if (method.getName().equals("hashCode")) {
                        return System.identityHashCode(proxy);
                    } else if (method.getName().equals("equals")) {
                        return proxy == args[0];
                    }
                    return null;
                });
    }
}
