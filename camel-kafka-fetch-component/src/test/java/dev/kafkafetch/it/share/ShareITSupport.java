package dev.kafkafetch.it.share;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.share.KafkaFetchShareConstants;
import dev.kafkafetch.share.KafkaFetchShareConsumer;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Route;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Base of the share-group integration tests: {@code kafka-fetch-share} URIs on the shared broker, the group settings a
 * share group takes from the broker (where it starts, its acquisition lock), and the share consumer's snapshots.
 */
public abstract class ShareITSupport extends KafkaFetchITSupport {

    /** A kafka-fetch-share URI on the shared broker; {@code extra} is {@code a=1&b=2}. */
    protected static String shareUri(String topic, String group, String extra) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("brokers", KAFKA.bootstrapServers());
        options.put("groupId", group);
        options.put("pollTimeoutMs", "1000");
        if (extra != null && !extra.isEmpty()) {
            for (String pair : extra.split("&")) {
                int eq = pair.indexOf('=');
                options.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        StringBuilder sb = new StringBuilder("kafka-fetch-share:").append(topic);
        char sep = '?';
        for (Map.Entry<String, String> e : options.entrySet()) {
            sb.append(sep).append(e.getKey()).append('=').append(e.getValue());
            sep = '&';
        }
        return sb.toString();
    }

    /**
     * Makes the share group start at the earliest offset (a share group starts at the latest by default) and, when
     * {@code lockMs} is positive, sets its acquisition lock duration.
     */
    protected static void prepareGroup(String group, long lockMs) throws Exception {
        prepareGroup(kafka.admin(), group, lockMs);
    }

    /** {@link #prepareGroup(String, long)} on the broker of {@code admin} (a test's own cluster). */
    protected static void prepareGroup(Admin admin, String group, long lockMs) throws Exception {
        List<AlterConfigOp> ops = new ArrayList<>();
        ops.add(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET));
        if (lockMs > 0) {
            ops.add(new AlterConfigOp(new ConfigEntry("share.record.lock.duration.ms", Long.toString(lockMs)),
                    AlterConfigOp.OpType.SET));
        }
        admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), ops))
                .all().get();
    }

    /** Sets the group's share.delivery.count.limit: delivery {@code limit} is a record's last. */
    protected static void deliveryLimit(String group, int limit) throws Exception {
        kafka.admin().incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group),
                List.of(new AlterConfigOp(new ConfigEntry("share.delivery.count.limit", Integer.toString(limit)),
                        AlterConfigOp.OpType.SET))))
                .all().get();
    }

    /**
     * Records the delivery of the exchange's record (its body is its id) under its id in {@code deliveries}, in the
     * order the route got them; returns the delivery (1 for the first).
     */
    protected static int delivered(Exchange exchange, Map<String, List<Integer>> deliveries) {
        String id = exchange.getMessage().getBody(String.class);
        int delivery = exchange.getMessage().getHeader(KafkaFetchShareConstants.DELIVERY_COUNT, Integer.class);
        deliveries.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(delivery);
        return delivery;
    }

    /** A plain KafkaShareConsumer of {@code group} (explicit acknowledgement, String values) subscribed to {@code topic}. */
    protected static KafkaShareConsumer<String, String> plainConsumer(String group, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        KafkaShareConsumer<String, String> c = new KafkaShareConsumer<>(p);
        c.subscribe(List.of(topic));
        return c;
    }

    /** The share consumer of the context's only route. */
    protected static KafkaFetchShareConsumer shareConsumer(CamelContext context) {
        for (Route route : context.getRoutes()) {
            if (route.getConsumer() instanceof KafkaFetchShareConsumer c) {
                return c;
            }
        }
        throw new IllegalStateException("no kafka-fetch-share route in " + context.getName());
    }

    protected static long sum(List<ShareSnapshot> snapshots, java.util.function.ToLongFunction<ShareSnapshot> f) {
        return snapshots.stream().mapToLong(f).sum();
    }

    /** How many of the tasks have a record in the route now. */
    protected static int tasksRunning(KafkaFetchShareConsumer consumer) {
        int n = 0;
        for (TaskSnapshot t : consumer.taskSnapshots()) {
            if (t.running() > 0) {
                n++;
            }
        }
        return n;
    }
}
