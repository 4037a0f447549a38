package dev.kafkafetch.share;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Reads the share group's delivery count limit ({@code share.delivery.count.limit}, the broker's
 * {@code group.share.delivery.count.limit} unless set for the group): the broker archives a record once it was
 * delivered that many times, so a record's last delivery must be known to dead-letter it instead of losing it.
 * Blocking (an admin request, bounded by its timeout): called on the fetch thread while it connects, and in the
 * background afterwards ({@link DeliveryLimitRefresh}), never in the poll loop.
 */
final class GroupLimits {

    /** Kafka's default {@code group.share.delivery.count.limit}. */
    static final int KAFKA_DEFAULT_DELIVERY_COUNT_LIMIT = 5;
    static final String DELIVERY_COUNT_LIMIT = "share.delivery.count.limit";

    private GroupLimits() {
    }

    /** The group's delivery count limit; throws when it cannot be read (not authorized, unreachable, old broker). */
    static int deliveryCountLimit(Function<Properties, Admin> admins, Properties clientProperties, String groupId,
                                  long timeoutMs)
            throws Exception {
        Properties p = new Properties();
        p.putAll(clientProperties);
        p.put("request.timeout.ms", Long.toString(Math.max(1000, timeoutMs)));
        p.put("default.api.timeout.ms", Long.toString(Math.max(1000, timeoutMs)));
        try (Admin admin = admins.apply(p)) {
            ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, groupId);
            Config config = admin.describeConfigs(List.of(group)).all().get(timeoutMs, TimeUnit.MILLISECONDS)
                    .get(group);
            ConfigEntry entry = config == null ? null : config.get(DELIVERY_COUNT_LIMIT);
            if (entry == null || entry.value() == null) {
                throw new IllegalStateException("the broker did not name " + DELIVERY_COUNT_LIMIT);
            }
            return Integer.parseInt(entry.value().trim());
        }
    }
}
