package dev.kafkafetch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

import dev.kafkafetch.commit.KafkaManualCommitFactory;
import dev.kafkafetch.commit.OffsetStore;
import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.dispatch.ProcessingResult;
import dev.kafkafetch.error.ConfiguredPollExceptionStrategy;
import dev.kafkafetch.error.LetterPublisher;
import dev.kafkafetch.error.PollExceptionStrategy;
import dev.kafkafetch.error.RetryTopics;
import dev.kafkafetch.health.HealthSettings;
import dev.kafkafetch.health.KafkaFetchConsumerHealthCheck;
import dev.kafkafetch.metrics.ClientReachability;
import dev.kafkafetch.metrics.ManagedFetchTasks;
import dev.kafkafetch.metrics.MeterBinding;
import dev.kafkafetch.metrics.MeterSource;
import dev.kafkafetch.metrics.OptionalMeters;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.processor.ExchangeBuilder;
import dev.kafkafetch.processor.RouteItemProcessor;
import dev.kafkafetch.resume.KafkaFetchResumeAdapter;
import dev.kafkafetch.resume.OffsetStores;
import dev.kafkafetch.resume.StateRepositoryOffsetStore;
import dev.kafkafetch.serde.RecordDecoder;
import dev.kafkafetch.task.KafkaFetchRecords;
import dev.kafkafetch.task.TaskSettings;
import org.apache.camel.Processor;
import org.apache.camel.Suspendable;
import org.apache.camel.api.management.ManagedResource;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckAware;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.camel.resume.ConsumerListener;
import org.apache.camel.resume.ConsumerListenerAware;
import org.apache.camel.resume.ResumeAdapter;
import org.apache.camel.resume.ResumeAware;
import org.apache.camel.resume.ResumeStrategy;
import org.apache.camel.spi.ExecutorServiceManager;
import org.apache.camel.spi.StateRepository;
import org.apache.camel.spi.ThreadPoolProfile;
import org.apache.camel.support.DefaultConsumer;
import org.apache.camel.support.service.ServiceHelper;
import org.apache.camel.support.service.ServiceSupport;
import org.apache.camel.util.concurrent.ThreadPoolRejectedPolicy;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer of one {@code kafka-fetch} route: starts {@code consumersCount} fetch tasks, each on its own thread with
 * its own KafkaConsumer, and a worker pool that runs records through the route. Suspending the route pauses every
 * task (it stays in its group); stopping it lets records already in the route finish (bounded by shutdownTimeout),
 * commits what finished, and closes.
 * <p>
 * With camel-management, Camel registers it as {@code org.apache.camel:context=<name>,type=consumers,
 * name=KafkaFetchConsumer(0x<hash>)}: besides Camel's consumer attributes, the attributes and operations of
 * {@link ManagedFetchTasks}. With Micrometer and a MeterRegistry in the
 * Camel registry it registers the tasks' meters while it runs ({@link OptionalMeters}). Both read the tasks' published
 * snapshots only.
 */
@ManagedResource(description = "Managed kafka-fetch consumer: its fetch tasks")
public class KafkaFetchConsumer extends DefaultConsumer
        implements Suspendable, HealthCheckAware, ConsumerListenerAware<ConsumerListener<Object, ProcessingResult>>,
        ManagedFetchTasks, ResumeAware<ResumeStrategy> {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaFetchConsumer.class);
    /** The registry name camel-kafka looks its custom {@code SubscribeAdapter} up by. */
    private static final String SUBSCRIBE_ADAPTER = "subscribeAdapter";

    private final TaskSettings settings;
    /** Replaced whole on start and stop, so readers on other threads always see a complete list. */
    private volatile List<KafkaFetchRecords> tasks = List.of();
    private ExecutorService fetchThreads;
    private ExecutorService workers;
    private ScheduledExecutorService letterSender;
    private LetterPublisher letters;
    private HealthCheck healthCheck;
    private volatile ConsumerListener<Object, ProcessingResult> consumerListener;
    private HealthCheck livenessCheck;
    private HealthCheckRegistry healthCheckRegistry;
    private MeterBinding meters = MeterBinding.NONE;
    private boolean stopOffsetRepository;
    private ResumeStrategy resumeStrategy;

    public KafkaFetchConsumer(KafkaFetchEndpoint endpoint, Processor processor, TaskSettings settings) {
        super(endpoint, processor);
        this.settings = settings;
    }

    @Override
    public KafkaFetchEndpoint getEndpoint() {
        return (KafkaFetchEndpoint) super.getEndpoint();
    }

    public TaskSettings getSettings() {
        return settings;
    }

    /** The latest snapshot of every fetch task; never blocks and never touches a KafkaConsumer. */
    @Override
    public List<TaskSnapshot> taskSnapshots() {
        List<TaskSnapshot> list = new ArrayList<>(tasks.size());
        for (KafkaFetchRecords task : tasks) {
            list.add(task.snapshot());
        }
        return list;
    }

    /** The latest snapshot of fetch task {@code index}, or null when the consumer has no such task (stopped). */
    private TaskSnapshot taskSnapshot(int index) {
        List<KafkaFetchRecords> current = tasks;
        return index < current.size() ? current.get(index).snapshot() : null;
    }

    /** The live reachability of the task with this thread name (null when it has no consumer). */
    private ClientReachability reachability(String taskName) {
        for (KafkaFetchRecords task : tasks) {
            if (task.threadName().equals(taskName)) {
                return task.reachability();
            }
        }
        return null;
    }

    public List<KafkaFetchRecords> tasks() {
        return tasks;
    }

    // ---- JMX operations (the attributes are ManagedFetchTasks' defaults) ----

    @Override
    public void pauseTask(int task) {
        managedTask(task).requestPause();
    }

    @Override
    public void resumeTask(int task) {
        managedTask(task).requestResume();
    }

    private KafkaFetchRecords managedTask(int index) {
        List<KafkaFetchRecords> current = tasks;
        if (index < 0 || index >= current.size()) {
            throw new IllegalArgumentException("No fetch task " + index + ": the consumer of route " + getRouteId()
                                               + " has " + current.size() + " (0 to " + (current.size() - 1) + ")");
        }
        return current.get(index);
    }

    /**
     * The readiness check of this consumer, which Camel's consumers health-check repository calls (its liveness twin
     * is registered with the context's health-check registry, since the repository only asks for readiness); null
     * when the component's {@code healthCheckConsumerEnabled} is false.
     */
    @Override
    public ConsumerListener<Object, ProcessingResult> getConsumerListener() {
        return consumerListener;
    }

    /**
     * Camel's Pausable EIP sets it (use {@link KafkaFetchConsumerListener}); every fetch task consults it. camel-kafka's
     * listener is adapted by camel-kafka-fetch-compat, and refused without it (it would pause a consumer it does not
     * have).
     */
    @Override
    public void setConsumerListener(ConsumerListener<Object, ProcessingResult> listener) {
        ConsumerListener<Object, ProcessingResult> adapted = listener;
        if (CamelKafkaCompat.isCamelKafkaType(listener)) {
            CamelKafkaCompat compat = getEndpoint().getComponent().getCamelKafkaCompat();
            if (compat == null) {
                throw new IllegalArgumentException("kafka-fetch route " + getRouteId() + ": the Pausable EIP's consumer"
                                                   + " listener " + listener.getClass().getName() + " is camel-kafka's;"
                                                   + " use " + KafkaFetchConsumerListener.class.getName()
                                                   + " (or add camel-kafka-fetch-compat, which adapts it)");
            }
            adapted = compat.consumerListener(listener);
        }
        this.consumerListener = adapted;
        ConsumerListener<Object, ProcessingResult> set = adapted;
        tasks.forEach(t -> t.setConsumerListener(set));
    }

    /** Camel's resume API ({@code resumable().resumeStrategy(...)}): see {@link KafkaFetchResumeAdapter}. */
    @Override
    public void setResumeStrategy(ResumeStrategy resumeStrategy) {
        this.resumeStrategy = resumeStrategy;
    }

    @Override
    public ResumeStrategy getResumeStrategy() {
        return resumeStrategy;
    }

    @Override
    public String adapterFactoryService() {
        return "kafka-fetch-adapter-factory";
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
        KafkaFetchEndpoint endpoint = getEndpoint();
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
        KafkaFetchConfiguration configuration = endpoint.getConfiguration();
        if (configuration.isPreValidateHostAndPort()) {
            EndpointSettings.validateBrokers(configuration.getBrokers());
        }
        if (configuration.getKerberosConfigLocation() != null) {
            // as camel-kafka: the JVM-wide Kerberos configuration
            System.setProperty("java.security.krb5.conf", configuration.getKerberosConfigLocation());
        }
        OffsetStore offsetStore = offsetStore(configuration);
        KafkaClientFactory clients = endpoint.kafkaClientFactory();
        ExecutorServiceManager esm = endpoint.getCamelContext().getExecutorServiceManager();
        int count = configuration.getConsumersCount();
        String topic = settings.subscription();
        if (endpoint.getCamelContext().getRegistry().lookupByName(SUBSCRIBE_ADAPTER) != null) {
            LOG.warn("Route {}: kafka-fetch subscribes to {} itself; the registry's '{}' bean (camel-kafka's"
                     + " SubscribeAdapter) is not used",
                    getRouteId(), topic, SUBSCRIBE_ADAPTER);
        }
        fetchThreads = esm.newFixedThreadPool(this, "KafkaFetchConsumer[" + topic + "]", count);
        // a hand-off pool: the dispatcher never starts more records than its slots, so threads stay within
        // slots, plus one for each stalled record that was abandoned while its thread is still stuck
        int slots = settings.maxConcurrency() * count;
        ThreadPoolProfile profile = new ThreadPoolProfile("kafka-fetch-workers");
        profile.setPoolSize(slots);
        profile.setMaxPoolSize(Integer.MAX_VALUE);
        profile.setMaxQueueSize(0);
        profile.setKeepAliveTime(60L);
        profile.setAllowCoreThreadTimeOut(true);
        profile.setRejectedPolicy(ThreadPoolRejectedPolicy.Abort);
        workers = esm.newThreadPool(this, "KafkaFetchWorker[" + topic + "]", profile);
        if (settings.retries() != null) {
            RetryTopics.ensure(settings.retries(), settings.producerProperties(),
                    endpoint.getConfiguration().isCreateRetryTopics());
            if (settings.ordering() != Ordering.UNORDERED) {
                LOG.info("Route {}: a record sent to a retry topic leaves its {} order; the records behind it go on"
                         + " (use breakOnFirstError for strict order)",
                        getRouteId(), settings.ordering());
            }
        }
        if (settings.failureRules().sendsLetters()) {
            letterSender = esm.newSingleThreadScheduledExecutor(this, "KafkaFetchLetters[" + topic + "]");
            letters = new LetterPublisher(settings.producerProperties(), clients::getProducer, letterSender);
        }
        KafkaManualCommitFactory manualCommits = configuration.getKafkaManualCommitFactory();
        CamelKafkaCompat compat = endpoint.getComponent().getCamelKafkaCompat();
        if (compat != null && settings.allowManualCommit()) {
            manualCommits = compat.manualCommitFactory(manualCommits); // the header is camel-kafka's type too
        }
        ExchangeBuilder builder = new ExchangeBuilder(configuration.getHeaderFilterStrategy(),
                configuration.getHeaderDeserializer(), settings.groupId(),
                !settings.autoCommitEnable() || settings.allowManualCommit(),
                settings.allowManualCommit() ? manualCommits : null, settings.retries());
        boolean failuresHandledElsewhere = settings.failureRules().sendsLetters() || settings.breakOnFirstError();
        PollExceptionStrategy pollErrors = endpoint.getComponent().getPollExceptionStrategy() != null
                ? endpoint.getComponent().getPollExceptionStrategy()
                : new ConfiguredPollExceptionStrategy(configuration.getPollOnError());
        List<KafkaFetchRecords> created = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            TaskSettings taskSettings = settings.forTask(i, count);
            String name = "kafka-fetch[" + topic + "]#" + i;
            KafkaFetchRecords task = new KafkaFetchRecords(taskSettings, name, clients::getConsumer,
                    () -> newDecoder(taskSettings),
                    commitQueue -> new RouteItemProcessor(this, builder, failuresHandledElsewhere, commitQueue),
                    workers, getExceptionHandler(), pollErrors, letters);
            task.setConsumerListener(consumerListener);
            task.setOffsetStore(offsetStore);
            created.add(task);
        }
        tasks = List.copyOf(created);
        for (KafkaFetchRecords task : tasks) {
            fetchThreads.submit(task);
        }
        meters = OptionalMeters.bind(endpoint.getCamelContext(), this,
                new MeterSource(endpoint.getCamelContext().getName(), getRouteId(), topic, settings.groupId(), count,
                        this::taskSnapshot, endpoint.getConfiguration().isMetricsPerPartition()));
        LOG.info("Started {} fetch task(s) on {} (group {}, maxConcurrency {}, ordering {}, maxInFlightRecords {})",
                count, topic, settings.groupId(), settings.maxConcurrency(), settings.ordering(),
                settings.maxInFlightRecords());
    }

    /**
     * Where newly assigned partitions start: the resume strategy's adapter first, then the offsetRepository (started
     * here unless it runs already).
     */
    private OffsetStore offsetStore(KafkaFetchConfiguration configuration) {
        List<OffsetStore> stores = new ArrayList<>();
        if (resumeStrategy != null) {
            ResumeAdapter adapter = resumeStrategy.getAdapter();
            if (!(adapter instanceof KafkaFetchResumeAdapter ours)) {
                throw new IllegalArgumentException("kafka-fetch: the resume strategy " + resumeStrategy
                                                   + " must use the adapter " + KafkaFetchResumeAdapter.class.getName()
                                                   + ", not " + adapter);
            }
            stores.add(ours);
        }
        StateRepository<String, String> repository = configuration.getOffsetRepository();
        if (repository != null) {
            if (repository instanceof ServiceSupport service && !service.isStarted()) {
                stopOffsetRepository = true;
                ServiceHelper.startService(repository);
            }
            stores.add(new StateRepositoryOffsetStore(repository));
        }
        return OffsetStores.of(stores);
    }

    private HealthCheck newHealthCheck(HealthCheck.Kind kind) {
        KafkaFetchEndpoint e = getEndpoint();
        KafkaFetchConfiguration c = e.getConfiguration();
        HealthSettings health = new HealthSettings(e.getTopic(), settings.groupId(), c.getBrokers(),
                settings.pollTimeoutMs(), c.getSessionTimeoutMs(), c.getHeartbeatIntervalMs(),
                c.getMaxPollIntervalMs() != null ? c.getMaxPollIntervalMs()
                        : HealthSettings.DEFAULT_MAX_POLL_INTERVAL_MS);
        KafkaFetchConsumerHealthCheck check = new KafkaFetchConsumerHealthCheck(getRouteId(), kind, health,
                this::taskSnapshots, this::reachability);
        check.setCamelContext(e.getCamelContext());
        return check;
    }

    private RecordDecoder newDecoder(TaskSettings s) {
        Map<String, Object> config = new HashMap<>();
        s.properties().forEach((k, v) -> config.put(String.valueOf(k), v));
        return new RecordDecoder(instantiate(s.keyDeserializer()), instantiate(s.valueDeserializer()), config,
                s.retries());
    }

    private Deserializer<?> instantiate(Class<?> type) {
        return (Deserializer<?>) getEndpoint().getCamelContext().getInjector().newInstance(type);
    }

    @Override
    protected void doSuspend() throws Exception {
        tasks.forEach(KafkaFetchRecords::requestPause);
    }

    @Override
    protected void doResume() throws Exception {
        tasks.forEach(KafkaFetchRecords::requestResume);
    }

    /**
     * Stops every task (each finishes what runs, bounded by shutdownTimeout, commits and closes), then the pools and
     * the dead-letter producer. The cleanup always completes, even when the stopping thread is interrupted (Camel does
     * that when its shutdown times out): the tasks are then told to stop waiting for their records, still commit what
     * finished and leave the group (so a restart gets the partitions at once), and the interrupt is kept for the
     * caller once everything is closed.
     */
    @Override
    protected void doStop() throws Exception {
        meters.close();
        meters = MeterBinding.NONE;
        if (healthCheckRegistry != null && livenessCheck != null) {
            healthCheckRegistry.unregister(livenessCheck);
        }
        livenessCheck = null;
        healthCheckRegistry = null;
        List<KafkaFetchRecords> stopping = tasks;
        stopping.forEach(KafkaFetchRecords::requestStop);
        ExecutorServiceManager esm = getEndpoint().getCamelContext().getExecutorServiceManager();
        boolean interrupted = false;
        long wait = settings.shutdownTimeoutMs() + settings.commitTimeoutMs() + 5000;
        try {
            for (KafkaFetchRecords task : stopping) {
                if (!task.awaitTermination(wait)) {
                    LOG.warn("Fetch task {} did not terminate within {} ms", task.threadName(), wait);
                }
            }
        } catch (InterruptedException e) {
            interrupted = true;
            LOG.warn("Interrupted while stopping {}: its fetch tasks stop waiting for running records, commit what"
                     + " finished and leave the group",
                    settings.subscription());
            esm.shutdownNow(fetchThreads); // interrupts their waits; each still commits and closes
            fetchThreads = null;
            awaitClosed(stopping);
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
        if (stopOffsetRepository) {
            ServiceHelper.stopService(getEndpoint().getConfiguration().getOffsetRepository());
            stopOffsetRepository = false;
        }
        super.doStop();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** After an interrupt: a short, bounded wait for the tasks' commit and close. */
    private void awaitClosed(List<KafkaFetchRecords> stopping) {
        long deadline = System.currentTimeMillis() + Math.min(settings.commitTimeoutMs(), 5000) + 1000;
        try {
            for (KafkaFetchRecords task : stopping) {
                task.awaitTermination(Math.max(0, deadline - System.currentTimeMillis()));
            }
        } catch (InterruptedException again) {
            LOG.warn("Interrupted again while {} closes; closing the rest now", settings.subscription());
        }
    }
}
