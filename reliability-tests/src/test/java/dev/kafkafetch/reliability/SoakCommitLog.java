package dev.kafkafetch.reliability;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

import dev.kafkafetch.KafkaClientFactory;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelContextAware;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;

/**
 * The classic soak's client factory (URI option {@code kafkaClientFactory=#class:...}, created per endpoint by Camel's
 * injector, which hands it the member's CamelContext): plain Kafka clients, except that every commit the broker
 * accepted from a fetch task ({@code commitSync} returned) is logged through the member's {@link SoakRoute}, an
 * {@code O} line per partition with its offset map. A commit that failed, or that succeeded but whose member was
 * killed before the line was written, has no line: the checker then knows less committed than there was, so it
 * excuses more, never less.
 */
public final class SoakCommitLog implements KafkaClientFactory, CamelContextAware {

    private CamelContext context;

    public SoakCommitLog() {
        // created by Camel's injector
    }

    @Override
    public void setCamelContext(CamelContext camelContext) {
        this.context = camelContext;
    }

    @Override
    public CamelContext getCamelContext() {
        return context;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Consumer<byte[], byte[]> getConsumer(Properties properties) {
        Consumer<byte[], byte[]> consumer = KafkaClientFactory.DEFAULT.getConsumer(properties);
        SoakRoute route = context.getRegistry().lookupByNameAndType(SoakOptions.EXCEPTION_HANDLER, SoakRoute.class);
        return (Consumer<byte[], byte[]>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] { Consumer.class }, (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(consumer, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if ("commitSync".equals(method.getName()) && args != null && args[0] instanceof Map<?, ?> offsets) {
                        ((Map<TopicPartition, OffsetAndMetadata>) offsets).forEach((tp, om) -> route
                                .committed(tp.topic(), tp.partition(), om.offset(), om.metadata()));
                    }
                    return result;
                });
    }

    /**
     * A transacted fetch task's producer (it has a {@code transactional.id}) commits the offsets in its transactions:
     * the offsets of {@code sendOffsetsToTransaction} are logged once {@code commitTransaction} returned, forgotten
     * when the transaction is aborted (and the abort logged: its records are read again). Other producers (dead
     * letters, retry letters) are plain.
     */
    @Override
    @SuppressWarnings("unchecked")
    public Producer<byte[], byte[]> getProducer(Properties properties) {
        Producer<byte[], byte[]> producer = KafkaClientFactory.DEFAULT.getProducer(properties);
        if (properties.getProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG) == null) {
            return producer;
        }
        SoakRoute route = context.getRegistry().lookupByNameAndType(SoakOptions.EXCEPTION_HANDLER, SoakRoute.class);
        AtomicReference<Map<TopicPartition, OffsetAndMetadata>> pending = new AtomicReference<>();
        return (Producer<byte[], byte[]>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] { Producer.class }, (proxy, method, args) -> {
                    String name = method.getName();
                    if ("sendOffsetsToTransaction".equals(name)) {
                        pending.set(Map.copyOf((Map<TopicPartition, OffsetAndMetadata>) args[0]));
                    } else if ("abortTransaction".equals(name) || "beginTransaction".equals(name)) {
                        pending.set(null);
                    }
                    if ("abortTransaction".equals(name)) {
                        route.aborted(); // before the records of the transaction can be read again
                    }
                    Object result;
                    try {
                        result = method.invoke(producer, args);
                    } catch (InvocationTargetException e) {
                        if ("commitTransaction".equals(name)) {
                            pending.set(null);
                        }
                        throw e.getCause();
                    }
                    Map<TopicPartition, OffsetAndMetadata> offsets = pending.get();
                    if ("commitTransaction".equals(name) && offsets != null) {
                        pending.set(null);
                        offsets.forEach((tp, om) -> route.committed(tp.topic(), tp.partition(), om.offset(),
                                om.metadata()));
                    }
                    return result;
                });
    }

    @Override
    public ShareConsumer<byte[], byte[]> getShareConsumer(Properties properties) {
        return KafkaClientFactory.DEFAULT.getShareConsumer(properties);
    }
}
