package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The options of one share-group soak combination ({@code kafka-fetch-share:}, KIP-932): the endpoint's options, the
 * share group's configs (set on the broker before the first member starts) and the URI they make.
 *
 * @param partitions          partitions of the consumed topic (several members read each of them at once)
 * @param childSlots          one entry per member slot, true = a child JVM (can be SIGKILLed)
 * @param maxPollRecords      0 = the endpoint's default
 * @param deliveryLimit       the group's {@code share.delivery.count.limit} (2-5): the broker archives a record after
 *                            that many deliveries
 * @param maxDeliveryAttempts 0 = the endpoint's default (5); the component's failure is final on the lower of the two
 * @param lockMs              the group's acquisition lock {@code share.record.lock.duration.ms}
 * @param consumersPerWindow  share consumers feeding each window (1 with KEY, as the endpoint requires)
 * @param asyncRoute          the route's work is an asynchronous step ({@link SoakAsyncStep})
 * @param slowCloseMs         0, or how long every share consumer's close waits before it closes
 *                            ({@link SoakShareClients}: a slow network, while its fetch goes on)
 */
record ShareSoakOptions(int partitions, int keys, List<Boolean> childSlots, int initialMembers, int consumersCount,
        int maxConcurrency, String ordering, int maxPollRecords, int deliveryLimit, int maxDeliveryAttempts,
        int lockMs, boolean deadLetterTopic, int workMs, int consumersPerWindow, boolean asyncRoute, int slowCloseMs) {

    /** The options of the combinations drawn before consumersPerWindow was: one consumer per window. */
    ShareSoakOptions(int partitions, int keys, List<Boolean> childSlots, int initialMembers, int consumersCount,
                     int maxConcurrency, String ordering, int maxPollRecords, int deliveryLimit,
                     int maxDeliveryAttempts, int lockMs, boolean deadLetterTopic, int workMs) {
        this(partitions, keys, childSlots, initialMembers, consumersCount, maxConcurrency, ordering, maxPollRecords,
             deliveryLimit, maxDeliveryAttempts, lockMs, deadLetterTopic, workMs, 1, false, 0);
    }

    /** These options with {@code consumersPerWindow} and {@code asyncRoute} as given. */
    ShareSoakOptions with(int cpw, boolean async) {
        return new ShareSoakOptions(partitions, keys, childSlots, initialMembers, consumersCount, maxConcurrency,
                ordering, maxPollRecords, deliveryLimit, maxDeliveryAttempts, lockMs, deadLetterTopic, workMs, cpw,
                async, slowCloseMs);
    }

    /** These options with every share consumer's close held up {@code ms}. */
    ShareSoakOptions withSlowClose(int ms) {
        return new ShareSoakOptions(partitions, keys, childSlots, initialMembers, consumersCount, maxConcurrency,
                ordering, maxPollRecords, deliveryLimit, maxDeliveryAttempts, lockMs, deadLetterTopic, workMs,
                consumersPerWindow, asyncRoute, ms);
    }

    static final String SCHEME = "kafka-fetch-share:";
    /** The endpoint's default maxDeliveryAttempts. */
    static final int DEFAULT_MAX_DELIVERY_ATTEMPTS = 5;
    static final int SHUTDOWN_TIMEOUT_MS = 15_000;

    int maxMembers() {
        return childSlots.size();
    }

    /** The delivery on which a failure is final (dead-lettered or rejected): the lower of the two limits. */
    int lastDelivery() {
        return Math.min(deliveryLimit,
                maxDeliveryAttempts > 0 ? maxDeliveryAttempts : DEFAULT_MAX_DELIVERY_ATTEMPTS);
    }

    /**
     * The records one share consumer acquires per poll: the combination's, else the endpoint's default, two rounds of
     * maxConcurrency split over the window's consumers (ShareSettingsFactory.defaultMaxPollRecords; the soak never
     * lowers maxInFlightRecords under it). It bounds what a kill can leave acquired, so it must not be too low.
     */
    int effectiveMaxPollRecords() {
        return maxPollRecords > 0 ? maxPollRecords : (2 * maxConcurrency + consumersPerWindow - 1) / consumersPerWindow;
    }

    /** The most records one member holds (acquired, not acknowledged): one poll per share consumer. */
    int heldPerMember() {
        return consumersCount * consumersPerWindow * effectiveMaxPollRecords();
    }

    /** The share group's configs: where it starts, its acquisition lock and its delivery limit. */
    Map<String, String> groupConfigs() {
        return Map.of("share.auto.offset.reset", "earliest", "share.record.lock.duration.ms", Integer.toString(lockMs),
                "share.delivery.count.limit", Integer.toString(deliveryLimit));
    }

    /**
     * What the soak route needs of a combination ({@link SoakRoute}: the work per record, sleeping or asynchronous, no manual commits, no
     * pooled exchanges, no meters), and what the harness needs (members, partitions, keys, dead-letter topic), in the
     * shape of the classic options; its other fields are the classic defaults and mean nothing here.
     */
    SoakOptions routeOptions() {
        int mpr = effectiveMaxPollRecords();
        return new SoakOptions(partitions, keys, childSlots, initialMembers, consumersCount, "share", maxConcurrency,
                ordering, false, 0, false, 0, "none", 0, 0, true, deadLetterTopic, 0, 0, mpr, mpr, workMs,
                SoakOptions.Extra.DEFAULTS.withAsyncRoute(asyncRoute));
    }

    /** The kafka-fetch-share URI of every member; {@link SoakShareClients} logs every delivery. */
    String uri(String bootstrap, String topic, String group, String dlt) {
        List<String> o = new ArrayList<>();
        o.add("brokers=" + bootstrap);
        o.add("groupId=" + group);
        o.add("pollTimeoutMs=" + SoakOptions.POLL_TIMEOUT_MS);
        o.add("shutdownTimeout=" + SHUTDOWN_TIMEOUT_MS);
        o.add("consumersCount=" + consumersCount);
        // always written: the endpoint's default (2 with UNORDERED) is not the combination's 1
        o.add("consumersPerWindow=" + consumersPerWindow);
        o.add("maxConcurrency=" + maxConcurrency);
        o.add("ordering=" + ordering);
        if (maxPollRecords > 0) {
            o.add("maxPollRecords=" + maxPollRecords);
        }
        if (maxDeliveryAttempts > 0) {
            o.add("maxDeliveryAttempts=" + maxDeliveryAttempts);
        }
        o.add("valueDeserializer=org.apache.kafka.common.serialization.IntegerDeserializer");
        o.add("kafkaClientFactory=#class:" + SoakShareClients.class.getName());
        o.add("exceptionHandler=#" + SoakOptions.EXCEPTION_HANDLER);
        o.add("reconnectBackoffMaxMs=1000");
        if (deadLetterTopic) {
            o.add("deadLetterTopic=" + dlt);
        }
        if (slowCloseMs > 0) {
            o.add("additionalProperties." + SoakShareClients.SLOW_CLOSE_MS + "=" + slowCloseMs);
        }
        return SCHEME + topic + "?" + String.join("&", o);
    }

    /** e.g. {@code share,p1,keys32,members2/3[child,in,in],cc2,c4,UNORDERED,mpr20,limit3,mda2,lock3000,dlt,work1}. */
    String describe() {
        List<String> d = new ArrayList<>();
        d.add("share");
        d.add("p" + partitions);
        d.add("keys" + keys);
        List<String> kinds = new ArrayList<>();
        for (boolean child : childSlots) {
            kinds.add(child ? "child" : "in");
        }
        d.add("members" + initialMembers + "/" + childSlots.size() + "[" + String.join(",", kinds) + "]");
        d.add("cc" + consumersCount);
        if (consumersPerWindow > 1) {
            d.add("cpw" + consumersPerWindow);
        }
        d.add("c" + maxConcurrency);
        d.add(ordering);
        d.add(maxPollRecords > 0 ? "mpr" + maxPollRecords : "mprDefault");
        d.add("limit" + deliveryLimit);
        if (maxDeliveryAttempts > 0) {
            d.add("mda" + maxDeliveryAttempts);
        }
        d.add("lock" + lockMs);
        if (deadLetterTopic) {
            d.add("dlt");
        }
        d.add("work" + workMs);
        if (asyncRoute) {
            d.add("async");
        }
        if (slowCloseMs > 0) {
            d.add("slowClose" + slowCloseMs);
        }
        return String.join(",", d);
    }
}
