package dev.kafkafetch;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import dev.kafkafetch.commit.KafkaManualCommitFactory;
import dev.kafkafetch.commit.OffsetStore;
import dev.kafkafetch.deadletter.DeadLetterTopic;
import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.error.RetryTopics;
import dev.kafkafetch.health.HealthSettings;
import dev.kafkafetch.health.KafkaFetchConsumerHealthCheck;
import dev.kafkafetch.health.TransactionDetails;
import dev.kafkafetch.metrics.ManagedFetchTasks;
import dev.kafkafetch.metrics.OptionalMeters;
import dev.kafkafetch.processor.ExchangeBuilder;
import dev.kafkafetch.processor.RouteItemProcessor;
import dev.kafkafetch.resume.KafkaFetchResumeAdapter;
import dev.kafkafetch.resume.OffsetStores;
import dev.kafkafetch.resume.StateRepositoryOffsetStore;
import dev.kafkafetch.serde.RecordDecoder;
import dev.kafkafetch.task.FirstAssignment;
import dev.kafkafetch.task.KafkaFetchRecords;
import dev.kafkafetch.task.OffsetLookup;
import dev.kafkafetch.task.OperatorActionRefusedException;
import dev.kafkafetch.task.OperatorActions;
import dev.kafkafetch.task.PartitionPauses;
import dev.kafkafetch.task.TaskSettings;
import dev.kafkafetch.tx.TxSnapshot;
import org.apache.camel.Processor;
import org.apache.camel.api.management.ManagedResource;
import org.apache.camel.resume.ResumeAdapter;
import org.apache.camel.resume.ResumeAware;
import org.apache.camel.resume.ResumeStrategy;
import org.apache.camel.spi.StateRepository;
import org.apache.camel.support.service.ServiceHelper;
import org.apache.camel.support.service.ServiceSupport;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer of one {@code kafka-fetch} route: starts {@code consumersCount} fetch tasks, each on its own thread with
 * its own KafkaConsumer, and a worker pool that runs records through the route (the skeleton both schemes share is
 * {@link AbstractKafkaFetchConsumer}). Suspending the route pauses every task (it stays in its group); stopping it
 * lets records already in the route finish (bounded by shutdownTimeout), commits what finished, and closes.
 * <p>
 * With camel-management, Camel registers it as {@code org.apache.camel:context=<name>,type=consumers,
 * name=KafkaFetchConsumer(0x<hash>)}: besides Camel's consumer attributes, the attributes and operations of
 * {@link ManagedFetchTasks}. With Micrometer and a MeterRegistry in the
 * Camel registry it registers the tasks' meters while it runs ({@link OptionalMeters}). Both read the tasks' published
 * snapshots only.
 */
@ManagedResource(description = "Managed kafka-fetch consumer: its fetch tasks")
public class KafkaFetchConsumer extends AbstractKafkaFetchConsumer<KafkaFetchRecords>
        implements ResumeAware<ResumeStrategy>, ManagedOperatorActions {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaFetchConsumer.class);
    /** The registry name camel-kafka looks its custom {@code SubscribeAdapter} up by. */
    private static final String SUBSCRIBE_ADAPTER = "subscribeAdapter";

    private final TaskSettings settings;
    private boolean stopOffsetRepository;
    private OffsetStore offsetStore;
    private ResumeStrategy resumeStrategy;
    private final PartitionPauses partitionPauses = new PartitionPauses();
    private volatile OperatorActions operatorActions;

    public KafkaFetchConsumer(KafkaFetchEndpoint endpoint, Processor processor, TaskSettings settings) {
        super(endpoint, processor, new Frame("kafka-fetch", "KafkaFetch", settings.subscription(), settings.groupId(),
                settings.maxConcurrency(),
                // transacted: dead letters go out in the fetch tasks' transactions, not through a letter producer
                settings.failureRules().sendsLetters() && !settings.transacted() ? settings.producerProperties()
                        : null,
                settings.shutdownTimeoutMs() + settings.commitTimeoutMs() + 5000,
                Math.min(settings.commitTimeoutMs(), 5000) + 1000));
        this.settings = settings;
    }

    @Override
    public KafkaFetchEndpoint getEndpoint() {
        return (KafkaFetchEndpoint) super.getEndpoint();
    }

    public TaskSettings getSettings() {
        return settings;
    }

    /**
     * transacted: the transactions of every fetch task, in task order, as last published; empty unless transacted.
     * Never blocks.
     */
    public List<TxSnapshot> transactionSnapshots() {
        if (!settings.transacted()) {
            return List.of();
        }
        List<TxSnapshot> list = new ArrayList<>();
        for (KafkaFetchRecords task : tasks()) {
            list.add(task.transactions());
        }
        return list;
    }

    @Override
    protected IntFunction<TxSnapshot> transactionsForMeters() {
        if (!settings.transacted()) {
            return null;
        }
        return i -> {
            List<KafkaFetchRecords> current = tasks();
            return i < current.size() ? current.get(i).transactions() : null;
        };
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

    // ---- operator actions (operatorActions=true): Java API ----

    /**
     * Pauses one partition for an operator: its fetch task stops fetching it and starts none of its queued records
     * (records in the route finish); other partitions go on. The pause belongs to this consumer: it survives a
     * rebalance that gives the partition back to any of its tasks, and does not follow the partition to another
     * member of the group. Carried out by the fetch thread at its next turn.
     *
     * @param requestedBy who asks, for the log
     * @throws OperatorActionRefusedException unless the route has operatorActions=true
     */
    public String pausePartition(String topic, int partition, String requestedBy) {
        return operatorActions().pausePartition(topic, partition, requestedBy);
    }

    /** Resumes a partition paused by {@link #pausePartition}: its queued records start, no seek. */
    public String resumePartition(String topic, int partition, String requestedBy) {
        return operatorActions().resumePartition(topic, partition, requestedBy);
    }

    /**
     * Parks the unfinished record at that offset, running or waiting: it is taken out of the route and dead-lettered
     * now with reason {@code parked} (provenance headers as for any dead letter), and counts finished once the broker
     * acknowledged the letter, so its partition commits past it. A running record's thread is not interrupted; its
     * late result is ignored. Returns once the fetch thread carried it out.
     *
     * @throws OperatorActionRefusedException unless the route has operatorActions=true and a deadLetterTopic
     */
    public String parkRecord(String topic, int partition, long offset, String requestedBy) {
        return operatorActions().parkRecord(topic, partition, offset, requestedBy);
    }

    /**
     * Seeks one partition to {@code offset}, carried out by the fetch thread of the task that holds it: seeking back
     * delivers the records from there on again; seeking forward skips the offsets between unprocessed, and is refused
     * unless {@code confirmSkip} (what it skipped is counted, logged and shown in the console). Either way the
     * partition's window restarts at the target and its next commit is the target; records of the old window still
     * running finish into nothing. The target must lie in the partition's log (read with a short-lived admin client).
     *
     * @throws OperatorActionRefusedException unless the route has operatorActions=true; a forward seek without
     *                                        confirmSkip; with transacted=true
     * @throws IllegalArgumentException       the offset is outside the log, or no task of this consumer holds the
     *                                        partition now
     */
    public String seekPartition(String topic, int partition, long offset, boolean confirmSkip, String requestedBy) {
        return operatorActions().seekPartition(topic, partition, offset, confirmSkip, requestedBy);
    }

    /**
     * Seeks one partition to the first record at or after {@code time} (its log end when there is none), as
     * {@link #seekPartition(String, int, long, boolean, String)}.
     */
    public String seekPartitionToTime(String topic, int partition, Instant time, boolean confirmSkip,
                                      String requestedBy) {
        return operatorActions().seekPartitionToTime(topic, partition, time, confirmSkip, requestedBy);
    }

    /** The partitions paused by an operator, shared by the tasks. */
    public PartitionPauses partitionPauses() {
        return partitionPauses;
    }

    /**
     * The operator's actions on this consumer as plain Java methods (pause, resume, seek, park, list and replay dead
     * letters), for tools such as an HTTP page; each refuses as its JMX operation does.
     */
    @Override
    public OperatorActions operatorActions() {
        OperatorActions actions = operatorActions;
        if (actions == null) {
            KafkaFetchConfiguration c = configuration();
            Duration timeout = Duration.ofMillis(settings.commitTimeoutMs());
            DeadLetterTopic letters = settings.deadLetterTopic() == null ? null
                    : new DeadLetterTopic(settings.deadLetterTopic(),
                            DeadLetterTopic.defaultReplayLog(settings.deadLetterTopic()), settings.producerProperties(),
                            clients()::getAdmin, clients()::getConsumer, clients()::getProducer,
                            settings.masker()::mask, timeout);
            actions = new OperatorActions(getRouteId(), c.isOperatorActions(), settings.deadLetterTopic(),
                    settings.batching(), partitionPauses, this::tasks,
                    OffsetLookup.withAdmin(clients()::getAdmin, settings.producerProperties(), timeout), letters);
            operatorActions = actions;
        }
        return actions;
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
    protected KafkaFetchConfiguration configuration() {
        return getEndpoint().getConfiguration();
    }

    @Override
    protected KafkaFetchComponent component() {
        return getEndpoint().getComponent();
    }

    @Override
    protected KafkaClientFactory clients() {
        return getEndpoint().kafkaClientFactory();
    }

    @Override
    protected boolean perPartitionMeters() {
        return configuration().isMetricsPerPartition();
    }

    /** The offset stores, the subscribe adapter warning and the retry topics, before any task runs. */
    @Override
    protected void beforeTasks() {
        offsetStore = offsetStore(configuration());
        if (getEndpoint().getCamelContext().getRegistry().lookupByName(SUBSCRIBE_ADAPTER) != null) {
            LOG.warn("Route {}: kafka-fetch subscribes to {} itself; the registry's '{}' bean (camel-kafka's"
                     + " SubscribeAdapter) is not used",
                    getRouteId(), settings.subscription(), SUBSCRIBE_ADAPTER);
        }
        if (settings.retries() != null) {
            RetryTopics.ensure(settings.retries(), settings.producerProperties(),
                    configuration().isCreateRetryTopics());
            if (settings.ordering() != Ordering.UNORDERED) {
                LOG.info("Route {}: a record sent to a retry topic leaves its {} order; the records behind it go on"
                         + " (use breakOnFirstError for strict order)",
                        getRouteId(), settings.ordering());
            }
        }
    }

    @Override
    protected List<KafkaFetchRecords> createTasks(TaskParts parts) {
        KafkaFetchConfiguration configuration = configuration();
        KafkaManualCommitFactory manualCommits = configuration.getKafkaManualCommitFactory();
        CamelKafkaCompat compat = getEndpoint().getComponent().getCamelKafkaCompat();
        if (compat != null && settings.allowManualCommit()) {
            manualCommits = compat.manualCommitFactory(manualCommits); // the header is camel-kafka's type too
        }
        ExchangeBuilder builder = new ExchangeBuilder(configuration.getHeaderFilterStrategy(),
                configuration.getHeaderDeserializer(), settings.groupId(),
                !settings.autoCommitEnable() || settings.allowManualCommit(),
                settings.allowManualCommit() ? manualCommits : null, settings.retries());
        boolean failuresHandledElsewhere = settings.failureRules().sendsLetters() || settings.breakOnFirstError();
        String topic = settings.subscription();
        List<KafkaFetchRecords> created = new ArrayList<>(parts.count());
        // this run's first assignment, decided once for the route: what seekTo applies to
        FirstAssignment firstAssignment = new FirstAssignment(parts.count(), settings.retries(),
                configuration().getSessionTimeoutMs());
        for (int i = 0; i < parts.count(); i++) {
            TaskSettings taskSettings = settings.forTask(i, parts.count());
            String name = "kafka-fetch[" + topic + "]#" + i;
            KafkaFetchRecords task = new KafkaFetchRecords(taskSettings, name, parts.clients()::getConsumer,
                    () -> newDecoder(taskSettings),
                    commitQueue -> new RouteItemProcessor(this, builder, failuresHandledElsewhere, commitQueue,
                            settings.transacted()),
                    parts.workers(), getExceptionHandler(), parts.pollErrors(), parts.letters());
            if (settings.transacted()) {
                task.setTransactions(settings.transactions().producerProperties(i), parts.clients()::getProducer);
            }
            task.setOffsetStore(offsetStore);
            task.setFirstAssignment(firstAssignment);
            task.setPartitionPauses(partitionPauses);
            created.add(task);
        }
        LOG.info("Started {} fetch task(s) on {} (group {}, maxConcurrency {}, ordering {}, maxInFlightRecords {})",
                parts.count(), topic, settings.groupId(), settings.maxConcurrency(), settings.ordering(),
                settings.maxInFlightRecords());
        return created;
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

    @Override
    protected HealthSettings healthSettings() {
        KafkaFetchConfiguration c = configuration();
        return new HealthSettings(getEndpoint().getTopic(), settings.groupId(), c.getBrokers(),
                settings.pollTimeoutMs(), c.getSessionTimeoutMs(), c.getHeartbeatIntervalMs(),
                c.getMaxPollIntervalMs() != null ? c.getMaxPollIntervalMs()
                        : HealthSettings.DEFAULT_MAX_POLL_INTERVAL_MS);
    }

    /** transacted: each task's transactions in the health details ({@link TransactionDetails}). */
    @Override
    protected void customize(KafkaFetchConsumerHealthCheck check) {
        if (settings.transacted()) {
            check.setTaskDetails(this::transactionDetails);
        }
    }

    private Map<String, Object> transactionDetails(String taskName) {
        for (KafkaFetchRecords task : tasks()) {
            TxSnapshot tx = task.transactions();
            if (tx != null && task.threadName().equals(taskName)) {
                return TransactionDetails.of(tx, System.currentTimeMillis());
            }
        }
        return Map.of();
    }

    private RecordDecoder newDecoder(TaskSettings s) {
        Map<String, Object> config = new HashMap<>();
        s.properties().forEach((k, v) -> config.put(String.valueOf(k), v));
        return new RecordDecoder(instantiate(s.keyDeserializer()), instantiate(s.valueDeserializer()), config,
                s.retries());
    }

    /** Stops the offsetRepository this consumer started, once every task committed and closed. */
    @Override
    protected void afterTasks() {
        if (stopOffsetRepository) {
            ServiceHelper.stopService(configuration().getOffsetRepository());
            stopOffsetRepository = false;
        }
    }
}
