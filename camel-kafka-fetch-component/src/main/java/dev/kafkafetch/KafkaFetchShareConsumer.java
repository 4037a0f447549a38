package dev.kafkafetch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

import dev.kafkafetch.error.ConfiguredPollExceptionStrategy;
import dev.kafkafetch.error.LetterPublisher;
import dev.kafkafetch.error.PollExceptionStrategy;
import dev.kafkafetch.health.HealthSettings;
import dev.kafkafetch.health.KafkaFetchConsumerHealthCheck;
import dev.kafkafetch.metrics.ClientReachability;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.processor.ExchangeBuilder;
import dev.kafkafetch.processor.ShareItemProcessor;
import dev.kafkafetch.share.ShareFetchTask;
import dev.kafkafetch.share.ShareSettings;
import org.apache.camel.Processor;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckAware;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.camel.spi.ExecutorServiceManager;
import org.apache.camel.spi.ThreadPoolProfile;
import org.apache.camel.support.DefaultConsumer;
import org.apache.camel.util.concurrent.ThreadPoolRejectedPolicy;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer of one {@code kafka-fetch-share} route: starts {@code consumersCount} share fetch tasks, each on its own
 * thread with its own KafkaShareConsumer (a member of the share group), and a worker pool that runs records through
 * the route. Stopping it releases what was acquired but not started, lets records already in the route finish
 * (bounded by shutdownTimeout), accepts them, and closes. Its health checks and the dev console read the tasks'
 * published snapshots only.
 */
public class KafkaFetchShareConsumer extends DefaultConsumer implements HealthCheckAware {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaFetchShareConsumer.class);
    /** Kafka's defaults for share.session.timeout.ms and share.heartbeat.interval.ms (group settings). */
    private static final long SHARE_SESSION_TIMEOUT_MS = 45_000;
    private static final long SHARE_HEARTBEAT_INTERVAL_MS = 5_000;

    private final ShareSettings settings;
    /** Replaced whole on start and stop, so readers on other threads always see a complete list. */
    private volatile List<ShareFetchTask> tasks = List.of();
    private ExecutorService fetchThreads;
    private ExecutorService workers;
    private ScheduledExecutorService letterSender;
    private LetterPublisher letters;
    private HealthCheck healthCheck;
    private HealthCheck livenessCheck;
    private HealthCheckRegistry healthCheckRegistry;

    public KafkaFetchShareConsumer(KafkaFetchShareEndpoint endpoint, Processor processor, ShareSettings settings) {
        super(endpoint, processor);
        this.settings = settings;
    }

    @Override
    public KafkaFetchShareEndpoint getEndpoint() {
        return (KafkaFetchShareEndpoint) super.getEndpoint();
    }

    public ShareSettings getSettings() {
        return settings;
    }

    /** The latest snapshot of every share fetch task; never blocks and never touches a consumer. */
    public List<TaskSnapshot> taskSnapshots() {
        List<TaskSnapshot> list = new ArrayList<>(tasks.size());
        for (ShareFetchTask task : tasks) {
            list.add(task.snapshot());
        }
        return list;
    }

    /** The latest share-group snapshot of every share fetch task, in the order of {@link #taskSnapshots()}. */
    public List<ShareSnapshot> shareSnapshots() {
        List<ShareSnapshot> list = new ArrayList<>(tasks.size());
        for (ShareFetchTask task : tasks) {
            list.add(task.shareSnapshot());
        }
        return list;
    }

    public List<ShareFetchTask> tasks() {
        return tasks;
    }

    @Override
    public HealthCheck getHealthCheck() {
        return healthCheck;
    }

    @Override
    public void setHealthCheck(HealthCheck healthCheck) {
        this.healthCheck = healthCheck;
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        KafkaFetchShareEndpoint endpoint = getEndpoint();
        if (endpoint.getComponent().isHealthCheckConsumerEnabled()) {
            if (healthCheck == null) {
                healthCheck = newHealthCheck(HealthCheck.Kind.READINESS);
            }
            healthCheckRegistry = HealthCheckRegistry.get(endpoint.getCamelContext());
            if (healthCheckRegistry != null) {
                livenessCheck = newHealthCheck(HealthCheck.Kind.LIVENESS);
                healthCheckRegistry.register(livenessCheck);
            }
        }
        KafkaFetchShareConfiguration configuration = endpoint.getConfiguration();
        if (configuration.isPreValidateHostAndPort()) {
            EndpointSettings.validateBrokers(configuration.getBrokers());
        }
        if (configuration.getKerberosConfigLocation() != null) {
            System.setProperty("java.security.krb5.conf", configuration.getKerberosConfigLocation());
        }
        KafkaClientFactory clients = endpoint.kafkaClientFactory();
        ExecutorServiceManager esm = endpoint.getCamelContext().getExecutorServiceManager();
        int count = configuration.getConsumersCount();
        String topic = settings.subscription();
        fetchThreads = esm.newFixedThreadPool(this, "KafkaFetchShareConsumer[" + topic + "]", count);
        // a hand-off pool: no dispatcher starts more records than its slots
        ThreadPoolProfile profile = new ThreadPoolProfile("kafka-fetch-share-workers");
        profile.setPoolSize(settings.maxConcurrency() * count);
        profile.setMaxPoolSize(Integer.MAX_VALUE);
        profile.setMaxQueueSize(0);
        profile.setKeepAliveTime(60L);
        profile.setAllowCoreThreadTimeOut(true);
        profile.setRejectedPolicy(ThreadPoolRejectedPolicy.Abort);
        workers = esm.newThreadPool(this, "KafkaFetchShareWorker[" + topic + "]", profile);
        if (settings.deadLetterTopic() != null) {
            letterSender = esm.newSingleThreadScheduledExecutor(this, "KafkaFetchShareLetters[" + topic + "]");
            letters = new LetterPublisher(settings.producerProperties(), clients::getProducer, letterSender);
        }
        ExchangeBuilder builder = new ExchangeBuilder(configuration.getHeaderFilterStrategy(),
                configuration.getHeaderDeserializer(), settings.groupId(), false, null, null);
        PollExceptionStrategy pollErrors = endpoint.getComponent().getPollExceptionStrategy() != null
                ? endpoint.getComponent().getPollExceptionStrategy()
                : new ConfiguredPollExceptionStrategy(configuration.getPollOnError());
        List<ShareFetchTask> created = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            created.add(new ShareFetchTask(settings.forTask(i, count), "kafka-fetch-share[" + topic + "]#" + i,
                    clients::getShareConsumer, this::newDeserializer, new ShareItemProcessor(this, builder), workers,
                    getExceptionHandler(), pollErrors, letters));
        }
        tasks = List.copyOf(created);
        for (ShareFetchTask task : tasks) {
            fetchThreads.submit(task);
        }
        LOG.info("Started {} share fetch task(s) on {} (share group {}, maxConcurrency {}, ordering {},"
                 + " maxPollRecords {}, maxDeliveryAttempts {})",
                count, topic, settings.groupId(), settings.maxConcurrency(), settings.ordering(),
                settings.maxPollRecords(), settings.maxDeliveryAttempts());
    }

    private Deserializer<?> newDeserializer(Class<?> type) {
        return (Deserializer<?>) getEndpoint().getCamelContext().getInjector().newInstance(type);
    }

    private HealthCheck newHealthCheck(HealthCheck.Kind kind) {
        KafkaFetchShareEndpoint e = getEndpoint();
        KafkaFetchShareConfiguration c = e.getConfiguration();
        HealthSettings health = new HealthSettings(e.getTopic(), settings.groupId(), c.getBrokers(),
                settings.pollTimeoutMs(), SHARE_SESSION_TIMEOUT_MS, SHARE_HEARTBEAT_INTERVAL_MS,
                c.getMaxPollIntervalMs() != null ? c.getMaxPollIntervalMs()
                        : HealthSettings.DEFAULT_MAX_POLL_INTERVAL_MS);
        KafkaFetchConsumerHealthCheck check = new KafkaFetchConsumerHealthCheck(getRouteId(), kind, health,
                this::taskSnapshots, this::reachability);
        check.setTaskDetails(this::shareDetails);
        check.setCamelContext(e.getCamelContext());
        return check;
    }

    private ClientReachability reachability(String taskName) {
        for (ShareFetchTask task : tasks) {
            if (task.threadName().equals(taskName)) {
                return task.reachability();
            }
        }
        return null;
    }

    /** The share-group details of one task, for the health checks. */
    private Map<String, Object> shareDetails(String taskName) {
        Map<String, Object> details = new LinkedHashMap<>();
        for (ShareFetchTask task : tasks) {
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

    /**
     * Stops every task (each releases what has not started, finishes and accepts what runs, bounded by
     * shutdownTimeout, and closes), then the pools and the dead-letter producer.
     */
    @Override
    protected void doStop() throws Exception {
        if (healthCheckRegistry != null && livenessCheck != null) {
            healthCheckRegistry.unregister(livenessCheck);
        }
        livenessCheck = null;
        healthCheckRegistry = null;
        List<ShareFetchTask> stopping = tasks;
        stopping.forEach(ShareFetchTask::requestStop);
        ExecutorServiceManager esm = getEndpoint().getCamelContext().getExecutorServiceManager();
        boolean interrupted = false;
        long wait = settings.shutdownTimeoutMs() + 2 * settings.commitTimeoutMs() + 5000;
        try {
            for (ShareFetchTask task : stopping) {
                if (!task.awaitTermination(wait)) {
                    LOG.warn("Share fetch task {} did not terminate within {} ms", task.threadName(), wait);
                }
            }
        } catch (InterruptedException e) {
            interrupted = true;
            LOG.warn("Interrupted while stopping {}: its share fetch tasks stop waiting for running records,"
                     + " acknowledge what finished and close",
                    settings.subscription());
            esm.shutdownNow(fetchThreads);
            fetchThreads = null;
        }
        tasks = List.of();
        if (fetchThreads != null) {
            esm.shutdownNow(fetchThreads);
            fetchThreads = null;
        }
        if (workers != null) {
            esm.shutdownNow(workers);
            workers = null;
        }
        if (letters != null) {
            letters.close();
            letters = null;
        }
        if (letterSender != null) {
            esm.shutdownNow(letterSender);
            letterSender = null;
        }
        super.doStop();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
