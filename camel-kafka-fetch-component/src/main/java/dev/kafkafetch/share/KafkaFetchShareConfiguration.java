package dev.kafkafetch.share;

import dev.kafkafetch.KafkaFetchClientConfiguration;
import dev.kafkafetch.dispatch.Ordering;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriParams;

/**
 * The options of a {@code kafka-fetch-share} endpoint of its own (maxPollRecords, consumersPerWindow, maxInFlightRecords, deadLetterTopic,
 * ordering, maxDeliveryAttempts, stallTimeoutMs; the others are {@link KafkaFetchClientConfiguration}'s, shared with
 * {@code kafka-fetch} under the same names and defaults). The component keeps one instance
 * ({@code camel.component.kafka-fetch-share.<option>}) and each endpoint gets a {@link #copy()} on which the URI's
 * options are set. Nothing is validated here: the endpoint checks every option when the route starts, and the
 * component refuses, naming them, the options of {@code kafka-fetch} a share group cannot have.
 */
@UriParams
public class KafkaFetchShareConfiguration extends KafkaFetchClientConfiguration {

    @UriParam(label = "consumer",
              description = "The most records one poll acquires (the consumer runs with share.acquire.mode=record_limit, so the broker hands out no more). By default two rounds of maxConcurrency split over the window's share consumers (consumersPerWindow), at most maxInFlightRecords: maxConcurrency with the default two consumers, twice maxConcurrency with one (and with ordering KEY). While one consumer's records run, the other's next round is acquired and ready; a member acquires only what it can start soon, so the rest of a backlog stays available to the group's other members and a burst ends on every member at about the same time. A member polls again only once every record of its last poll is acknowledged, so fewer records per poll means more polls and a fairer spread; with consumersPerWindow=1, 16 times maxConcurrency suits one steady backlog best.")
    private Integer maxPollRecords;
    @UriParam(label = "consumer",
              description = "Share consumers (members of the share group, each with its own fetch thread) that feed one window of maxConcurrency slots, for each of consumersCount. By default 2 with ordering UNORDERED and 1 with KEY. A share consumer polls again only once every record of its last poll is acknowledged, and a poll's round trip (the broker persists the acknowledgements, then acquires) would leave the slots idle meanwhile; with 2, one consumer acquires its next records while the other's run, and together they never run more than maxConcurrency records at once. Each consumer holds at most maxPollRecords, and each is a member of its own (a route with consumersCount=4 has eight members; a Pausable EIP pause, for one, pauses one consumer). 1 = one consumer per window, which pauses between polls. Must be 1 with ordering KEY (two consumers' records of one key could run at once).")
    private Integer consumersPerWindow;
    @UriParam(label = "consumer", defaultValue = "5000",
              description = "The most records one fetch task holds (acquired and not acknowledged). Must be at least maxPollRecords; as a member polls only once its last poll is acknowledged, it holds at most maxPollRecords.")
    private int maxInFlightRecords = 5000;
    @UriParam(label = "consumer",
              description = "Topic receiving the records that still fail on their last delivery (maxDeliveryAttempts), and the records that cannot be deserialized, with provenance headers. Such a record is accepted only once the broker acknowledged its dead letter; without a dead-letter topic it is rejected.")
    private String deadLetterTopic;
    @UriParam(label = "consumer", defaultValue = "UNORDERED", enums = "UNORDERED,KEY",
              description = "Which records this member may run at the same time: UNORDERED (any, up to maxConcurrency) or KEY (one at a time per key within a partition, among the records this member holds; null keys are all different). Share groups give no order across members, so PARTITION is refused.")
    private Ordering ordering = Ordering.UNORDERED;
    @UriParam(label = "consumer", defaultValue = "5",
              description = "How many deliveries (the broker's delivery count, header CamelKafkaFetchDeliveryCount) a record gets before its failure is final: a record still failed after Camel's error handler is released for redelivery (possibly to another member) while deliveries remain, and on its last one goes to the deadLetterTopic (or is rejected). Bounded by the group's share.delivery.count.limit (Kafka's default 5), which the fetch tasks read when they connect: the lower of the two counts.")
    private int maxDeliveryAttempts = 5;
    @UriParam(label = "consumer", defaultValue = "0",
              description = "A record still in the route after this many ms is stalled: reported (WARN with the thread's stack, metric), given up on (its slot is freed, its lock no longer renewed) and treated as a failure on its delivery: released for another delivery while deliveries remain, else dead-lettered (reason stalled) or, without a deadLetterTopic, rejected. 0 = off.")
    private long stallTimeoutMs = 0;

    @Override
    public KafkaFetchShareConfiguration copy() {
        return (KafkaFetchShareConfiguration) super.copy();
    }

    public Integer getMaxPollRecords() {
        return maxPollRecords;
    }

    public void setMaxPollRecords(Integer maxPollRecords) {
        this.maxPollRecords = maxPollRecords;
    }

    /** As set; null = the default for the ordering (see the option's description). */
    public Integer getConsumersPerWindow() {
        return consumersPerWindow;
    }

    public void setConsumersPerWindow(Integer consumersPerWindow) {
        this.consumersPerWindow = consumersPerWindow;
    }

    public int getMaxInFlightRecords() {
        return maxInFlightRecords;
    }

    public void setMaxInFlightRecords(int maxInFlightRecords) {
        this.maxInFlightRecords = maxInFlightRecords;
    }

    public String getDeadLetterTopic() {
        return deadLetterTopic;
    }

    public void setDeadLetterTopic(String deadLetterTopic) {
        this.deadLetterTopic = deadLetterTopic;
    }

    public Ordering getOrdering() {
        return ordering;
    }

    public void setOrdering(Ordering ordering) {
        this.ordering = ordering;
    }

    public int getMaxDeliveryAttempts() {
        return maxDeliveryAttempts;
    }

    public void setMaxDeliveryAttempts(int maxDeliveryAttempts) {
        this.maxDeliveryAttempts = maxDeliveryAttempts;
    }

    public long getStallTimeoutMs() {
        return stallTimeoutMs;
    }

    public void setStallTimeoutMs(long stallTimeoutMs) {
        this.stallTimeoutMs = stallTimeoutMs;
    }
}
