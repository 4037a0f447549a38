package dev.kafkafetch.reliability;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import dev.kafkafetch.KafkaClientFactory;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelContextAware;
import org.apache.kafka.clients.consumer.AcknowledgementCommitCallback;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicIdPartition;

/**
 * The share soak's client factory (URI option {@code kafkaClientFactory=#class:...}, created per endpoint by Camel's
 * injector, which hands it the member's CamelContext): plain Kafka clients, except that every record a share
 * consumer's {@code poll} hands to its fetch task is logged, with the broker's delivery count, through the member's
 * {@link SoakRoute} (an {@code A} line), queued records included — the route sees only those it starts. A record a
 * lock renewal hands back comes again with the same count (the checker counts a delivery once); a record the client
 * acquired but never handed over (its buffer when the member is killed or closed) has no line: the checker knows
 * such deliveries only by the counts that follow them. Every acknowledgement the broker refuses (a renewal or an
 * outcome, as the fetch task's acknowledgement commit callback hears it) is logged too (an {@code N} line per
 * record): such a record may be delivered again although its member finished it (a broker restart, a moved
 * share-partition leader). With {@link #SLOW_CLOSE_MS} every close waits first, as over a slow network.
 */
public final class SoakShareClients implements KafkaClientFactory, CamelContextAware {

    /**
     * A consumer property (URI {@code additionalProperties.soak.slowCloseMs}, taken out before the client sees it):
     * every close of a share consumer first waits that long, while the client goes on fetching.
     */
    static final String SLOW_CLOSE_MS = "soak.slowCloseMs";

    private CamelContext context;

    public SoakShareClients() {
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
    public Consumer<byte[], byte[]> getConsumer(Properties properties) {
        return KafkaClientFactory.DEFAULT.getConsumer(properties);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Properties properties) {
        return KafkaClientFactory.DEFAULT.getProducer(properties);
    }

    @Override
    @SuppressWarnings("unchecked")
    public ShareConsumer<byte[], byte[]> getShareConsumer(Properties properties) {
        Properties config = new Properties();
        config.putAll(properties);
        long slowCloseMs = Long.parseLong(String.valueOf(config.getOrDefault(SLOW_CLOSE_MS, "0")));
        config.remove(SLOW_CLOSE_MS);
        ShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(config);
        SoakRoute route = context.getRegistry().lookupByNameAndType(SoakOptions.EXCEPTION_HANDLER, SoakRoute.class);
        return (ShareConsumer<byte[], byte[]>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] { ShareConsumer.class }, (proxy, method, args) -> {
                    if ("setAcknowledgementCommitCallback".equals(method.getName()) && args[0] != null) {
                        args[0] = refusalsLogged((AcknowledgementCommitCallback) args[0], route);
                    }
                    if ("close".equals(method.getName()) && slowCloseMs > 0) {
                        holdUp(slowCloseMs); // a slow network: the client's fetch goes on meanwhile
                    }
                    Object result;
                    try {
                        result = method.invoke(consumer, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if ("poll".equals(method.getName())) {
                        for (ConsumerRecord<byte[], byte[]> r : (ConsumerRecords<byte[], byte[]>) result) {
                            route.acquired(SoakRoute.number(r.value()),
                                    r.deliveryCount().map(Short::intValue).orElse(0));
                        }
                    }
                    return result;
                });
    }

    private static void holdUp(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // a forced stop: close at once
        }
    }

    /** The fetch task's callback, after logging every offset whose acknowledgement the broker refused. */
    private static AcknowledgementCommitCallback refusalsLogged(AcknowledgementCommitCallback callback,
                                                                SoakRoute route) {
        return (Map<TopicIdPartition, Set<Long>> offsets, Exception exception) -> {
            if (exception != null) {
                offsets.forEach((tp, refused) -> refused.forEach(offset -> route.refused(tp.partition(), offset)));
            }
            callback.onComplete(offsets, exception);
        };
    }
}
