package dev.kafkafetch.share;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.AbstractKafkaFetchConsumer;
import dev.kafkafetch.KafkaClientFactory;
import dev.kafkafetch.dispatch.SharedSlots;
import dev.kafkafetch.health.HealthSettings;
import dev.kafkafetch.health.KafkaFetchConsumerHealthCheck;
import dev.kafkafetch.metrics.ManagedFetchTasks;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.processor.ExchangeBuilder;
import org.apache.camel.Processor;
import org.apache.camel.api.management.ManagedResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer of one {@code kafka-fetch-share} route: starts {@code consumersCount} × {@code consumersPerWindow} share
 * fetch tasks, each on its own thread with its own KafkaShareConsumer (a member of the share group), the
 * {@code consumersPerWindow} tasks of one window sharing its {@code maxConcurrency} slots, and a worker pool that runs records through
 * the route (the skeleton both schemes share is {@link AbstractKafkaFetchConsumer}). Stopping it lets records already
 * in the route finish (bounded by shutdownTimeout), acknowledges them, and closes. Suspending it, or a pause asked
 * for by the Pausable EIP's listener, makes its tasks leave the share group until resumed. Its health checks, meters,
 * JMX attributes ({@link ManagedFetchTasks}; a share task cannot be paused on its own) and the dev console read the
 * tasks' published snapshots only.
 */
@ManagedResource(description = "Managed kafka-fetch-share consumer: its share fetch tasks")
public class KafkaFetchShareConsumer extends AbstractKafkaFetchConsumer<ShareFetchTask> {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaFetchShareConsumer.class);
    /** Kafka's defaults for share.session.timeout.ms and share.heartbeat.interval.ms (group settings). */
    private static final long SHARE_SESSION_TIMEOUT_MS = 45_000;
    private static final long SHARE_HEARTBEAT_INTERVAL_MS = 5_000;

    private final ShareSettings settings;

    public KafkaFetchShareConsumer(KafkaFetchShareEndpoint endpoint, Processor processor, ShareSettings settings) {
        super(endpoint, processor, new Frame("kafka-fetch-share", "KafkaFetchShare", settings.subscription(),
                settings.groupId(), settings.maxConcurrency(),
                settings.deadLetterTopic() != null ? settings.producerProperties() : null,
                settings.shutdownTimeoutMs() + 2 * settings.commitTimeoutMs() + 5000, 0));
        this.settings = settings;
    }

    @Override
    public KafkaFetchShareEndpoint getEndpoint() {
        return (KafkaFetchShareEndpoint) super.getEndpoint();
    }

    public ShareSettings getSettings() {
        return settings;
    }

    /** The latest share-group snapshot of every share fetch task, in the order of {@link #taskSnapshots()}. */
    public List<ShareSnapshot> shareSnapshots() {
        List<ShareSnapshot> list = new ArrayList<>(tasks().size());
        for (ShareFetchTask task : tasks()) {
            list.add(task.shareSnapshot());
        }
        return list;
    }

    @Override
    public void pauseTask(int task) {
        managedTask(task);
        throw new UnsupportedOperationException("kafka-fetch-share fetch tasks cannot be paused one by one");
    }

    @Override
    public void resumeTask(int task) {
        managedTask(task);
        throw new UnsupportedOperationException("kafka-fetch-share fetch tasks cannot be paused one by one");
    }

    @Override
    protected KafkaFetchShareConfiguration configuration() {
        return getEndpoint().getConfiguration();
    }

    @Override
    protected KafkaFetchShareComponent component() {
        return getEndpoint().getComponent();
    }

    @Override
    protected KafkaClientFactory clients() {
        return getEndpoint().kafkaClientFactory();
    }

    @Override
    protected List<ShareFetchTask> createTasks(TaskParts parts) {
        KafkaFetchShareConfiguration configuration = configuration();
        ExchangeBuilder builder = new ExchangeBuilder(configuration.getHeaderFilterStrategy(),
                configuration.getHeaderDeserializer(), settings.groupId(), false, null, null);
        String topic = settings.subscription();
        int perWindow = settings.consumersPerWindow();
        List<ShareFetchTask> created = new ArrayList<>(parts.count());
        SharedSlots slots = null;
        LeavingTogether together = new LeavingTogether();
        for (int i = 0; i < parts.count(); i++) {
            if (perWindow > 1 && i % perWindow == 0) {
                slots = new SharedSlots(settings.maxConcurrency()); // one window per consumersCount
            }
            created.add(new ShareFetchTask(settings.forTask(i, parts.count()), "kafka-fetch-share[" + topic + "]#" + i,
                    parts.clients()::getShareConsumer, parts.clients()::getAdmin, this::instantiate,
                    new ShareItemProcessor(this, builder),
                    parts.workers(), getExceptionHandler(), parts.pollErrors(), parts.letters(), slots,
                    together));
        }
        LOG.info("Started {} share fetch task(s) on {} (share group {}, maxConcurrency {} per {} task(s), ordering {},"
                 + " maxPollRecords {}, maxDeliveryAttempts {})",
                parts.count(), topic, settings.groupId(), settings.maxConcurrency(), perWindow, settings.ordering(),
                settings.maxPollRecords(), settings.maxDeliveryAttempts());
        return created;
    }

    /** consumersPerWindow share consumers (tasks) per consumersCount, sharing one window of maxConcurrency. */
    @Override
    protected int taskCount(int consumersCount) {
        return consumersCount * settings.consumersPerWindow();
    }

    @Override
    protected HealthSettings healthSettings() {
        KafkaFetchShareConfiguration c = configuration();
        return new HealthSettings(getEndpoint().getTopic(), settings.groupId(), c.getBrokers(),
                settings.pollTimeoutMs(), SHARE_SESSION_TIMEOUT_MS, SHARE_HEARTBEAT_INTERVAL_MS,
                c.getMaxPollIntervalMs() != null ? c.getMaxPollIntervalMs()
                        : HealthSettings.DEFAULT_MAX_POLL_INTERVAL_MS);
    }

    @Override
    protected void customize(KafkaFetchConsumerHealthCheck check) {
        check.setTaskDetails(this::shareDetails);
    }

    /** The share-group details of one task, for the health checks. */
    private Map<String, Object> shareDetails(String taskName) {
        Map<String, Object> details = new LinkedHashMap<>();
        for (ShareFetchTask task : tasks()) {
            if (task.threadName().equals(taskName)) {
                ShareSnapshot s = task.shareSnapshot();
                details.put("share.held", s.held());
                details.put("share.acquired", s.acquired());
                details.put("share.accepted", s.accepted());
                details.put("share.released", s.released());
                details.put("share.rejected", s.rejected());
                details.put("share.renewed", s.renewed());
                details.put("share.lock.lost", s.lockLost());
                details.put("share.delivery.counts", s.deliveryCounts().toString());
            }
        }
        return details;
    }
}
