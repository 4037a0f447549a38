package dev.kafkafetch.share;

/**
 * The share group's delivery limit as this task knows it ({@code share.delivery.count.limit}, read from the broker):
 * the broker archives a record given back (released, by hand, by a close or by a lock timeout) on that delivery, so
 * a record on its last delivery must be run or dead-lettered, never given back.
 * <p>
 * Guarantee: while the limit is not known (never read, or the read failed) every delivery from the lowest limit a
 * broker allows ({@value #LOWEST_POSSIBLE}) on counts as possibly the last, so the unknown limit can make a failure
 * final too early (dead-lettered with fewer deliveries than asked), never too late (archived unrouted). Read by any
 * thread, written by whoever read the limit.
 */
final class DeliveryLimit {

    /** The lowest {@code share.delivery.count.limit} a broker accepts ({@code group.share.min.delivery.count.limit}). */
    static final int LOWEST_POSSIBLE = 2;

    private volatile int known = -1;

    /** The limit read from the broker. */
    void known(int limit) {
        known = limit;
    }

    boolean isKnown() {
        return known > 0;
    }

    /** The known limit, or the lowest possible one. */
    int value() {
        int k = known;
        return k > 0 ? k : LOWEST_POSSIBLE;
    }

    /** True when giving back a record on this delivery would (or might) archive it. */
    boolean isLast(int deliveryCount) {
        return deliveryCount >= value();
    }
}
