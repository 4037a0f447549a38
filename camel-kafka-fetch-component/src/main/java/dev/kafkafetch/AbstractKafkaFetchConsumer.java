package dev.kafkafetch;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.IntFunction;

import dev.kafkafetch.dispatch.ProcessingResult;
import dev.kafkafetch.dispatch.WorkerPool;
import dev.kafkafetch.error.ConfiguredPollExceptionStrategy;
import dev.kafkafetch.error.LetterPublisher;
import dev.kafkafetch.error.PollExceptionStrategy;
import dev.kafkafetch.health.HealthSettings;
import dev.kafkafetch.health.KafkaFetchConsumerHealthCheck;
import dev.kafkafetch.metrics.ClientReachability;
import dev.kafkafetch.metrics.ManagedFetchTasks;
import dev.kafkafetch.metrics.MeterBinding;
import dev.kafkafetch.metrics.MeterSource;
import dev.kafkafetch.metrics.OptionalMeters;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.task.FetchTask;
import dev.kafkafetch.tx.TxSnapshot;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.Processor;
import org.apache.camel.Suspendable;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckAware;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.camel.resume.ConsumerListener;
import org.apache.camel.resume.ConsumerListenerAware;
import org.apache.camel.spi.ExecutorServiceManager;
import org.apache.camel.support.DefaultConsumer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The skeleton both schemes' consumers share: {@code consumersCount} fetch tasks, each on a thread of its own, a
 * hand-off worker pool that runs records through the route, a dead-letter producer when the route sends letters,
 * readiness and liveness checks, Micrometer meters (with Micrometer and a MeterRegistry) and the JMX view of
 * {@link ManagedFetchTasks}. Each scheme creates its own tasks ({@link #createTasks}).
 * <p>
 * Guarantees: health checks, meters and JMX read the tasks' published snapshots only, never a client; the task list is
 * replaced whole, so readers on other threads always see a complete one. Stopping asks every task to stop, waits for
 * each within a bound ({@link Frame#stopWaitMs}), then closes the pools and the producer; the cleanup always
 * completes, also when the stopping thread is interrupted (Camel does that when its shutdown times out): the tasks are
 * then told to stop waiting for their records, get a short bounded wait to settle what finished and close, and the
 * interrupt is kept for the caller once everything is closed.
 *
 * @param <T> the scheme's fetch task
 */
public abstract class AbstractKafkaFetchConsumer<T extends FetchTask> extends DefaultConsumer
        implements Suspendable, HealthCheckAware, ManagedFetchTasks,
        ConsumerListenerAware<ConsumerListener<Object, ProcessingResult>> {

    private static final Logger LOG = LoggerFactory.getLogger(AbstractKafkaFetchConsumer.class);

    /**
     * What the skeleton needs of the scheme's settings.
     *
     * @param scheme                the URI scheme, which opens option messages
     * @param threadPrefix          opens the pools' thread names ({@code KafkaFetch}: KafkaFetchConsumer[topic], ...)
     * @param subscription          the topics, for thread names, logs and meters
     * @param maxConcurrency        records one task may run at once: the worker pool has that many per task
     * @param letterProducer        the dead-letter producer's settings, or null when the route sends no letters
     * @param stopWaitMs            how long a stop waits for each task
     * @param closeAfterInterruptMs how long a stop waits for the tasks to close once interrupted
     */
    public record Frame(String scheme, String threadPrefix, String subscription, String groupId,
            int maxConcurrency, Properties letterProducer, long stopWaitMs, long closeAfterInterruptMs) {
    }

    /** What a task is made of besides its settings: the client factory, the pools, the poll error strategy. */
    public record TaskParts(int count, KafkaClientFactory clients, ExecutorService workers, LetterPublisher letters,
            PollExceptionStrategy pollErrors) {
    }

    private final Frame frame;
    private volatile List<T> tasks = List.of();
    private List<ExecutorService> fetchThreads = List.of();
    private ExecutorService workers;
    private ScheduledExecutorService letterSender;
    private LetterPublisher letters;
    private HealthCheck healthCheck;
    private HealthCheck livenessCheck;
    private HealthCheckRegistry healthCheckRegistry;
    private MeterBinding meters = MeterBinding.NONE;
    private volatile ConsumerListener<Object, ProcessingResult> consumerListener;

    protected AbstractKafkaFetchConsumer(Endpoint endpoint, Processor processor, Frame frame) {
        super(endpoint, processor);
        this.frame = frame;
    }

    /** The endpoint's configuration (the options the route was started with). */
    protected abstract KafkaFetchClientConfiguration configuration();

    /** The scheme's component, for its client factory and poll exception strategy. */
    protected abstract AbstractKafkaFetchComponent<?, ?> component();

    /** The endpoint's client factory, else the component's, else the plain Kafka clients. */
    protected abstract KafkaClientFactory clients();

    /** What the health checks need of the endpoint. */
    protected abstract HealthSettings healthSettings();

    /** The scheme's {@code count} fetch tasks, not yet running. */
    protected abstract List<T> createTasks(TaskParts parts);

    /** How many fetch tasks (each on a thread of its own) the route's consumersCount makes. */
    protected int taskCount(int consumersCount) {
        return consumersCount;
    }

    /** Whether to publish per-partition meters too. */
    protected boolean perPartitionMeters() {
        return false;
    }

    /** Runs before the pools are made: what the scheme checks or prepares at start (the default nothing). */
    protected void beforeTasks() throws Exception {
    }

    /** Runs once the pools are closed on stop (the default nothing). */
    protected void afterTasks() {
    }

    /** Adds scheme details to a health check before it is used (the default nothing). */
    protected void customize(KafkaFetchConsumerHealthCheck check) {
    }

    @Override
    public ConsumerListener<Object, ProcessingResult> getConsumerListener() {
        return consumerListener;
    }

    /**
     * Camel's Pausable EIP sets it (use {@link KafkaFetchConsumerListener}); every fetch task consults it, from its
     * next record on. camel-kafka's listener is adapted by camel-kafka-fetch-compat, and refused without it (it would
     * pause a consumer it does not have).
     */
    @Override
    public void setConsumerListener(ConsumerListener<Object, ProcessingResult> listener) {
        ConsumerListener<Object, ProcessingResult> adapted = listener;
        if (CamelKafkaCompat.isCamelKafkaType(listener)) {
            CamelKafkaCompat compat = component().getCamelKafkaCompat();
            if (compat == null) {
                throw new IllegalArgumentException(frame.scheme() + " route " + getRouteId() + ": the Pausable EIP's"
                                                   + " consumer listener " + listener.getClass().getName()
                                                   + " is camel-kafka's; use "
                                                   + KafkaFetchConsumerListener.class.getName()
                                                   + " (or add camel-kafka-fetch-compat, which adapts it)");
            }
            adapted = compat.consumerListener(listener);
        }
        this.consumerListener = adapted;
        ConsumerListener<Object, ProcessingResult> set = adapted;
        tasks.forEach(t -> t.setConsumerListener(set));
    }

    /** The latest snapshot of every fetch task, in task order; never blocks and never touches a client. */
    @Override
    public List<TaskSnapshot> taskSnapshots() {
        List<TaskSnapshot> list = new ArrayList<>(tasks.size());
        for (T task : tasks) {
            list.add(task.snapshot());
        }
        return list;
    }

    public List<T> tasks() {
        return tasks;
    }

    /** The task of that index, or a message naming the route and the tasks it has. */
    protected T managedTask(int index) {
        List<T> current = tasks;
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
        if (component().isHealthCheckConsumerEnabled()) {
            if (healthCheck == null) {
                healthCheck = newHealthCheck(HealthCheck.Kind.READINESS);
            }
            CamelContext context = getEndpoint().getCamelContext();
            // as camel-kafka: resolves and registers the consumers repository when the application has not, so
            // readiness reports this consumer with the context's own registry too
            HealthCheckHelper.getHealthCheckRepository(context, "consumers");
            healthCheckRegistry = HealthCheckRegistry.get(context);
            if (healthCheckRegistry != null) {
                livenessCheck = newHealthCheck(HealthCheck.Kind.LIVENESS);
                healthCheckRegistry.register(livenessCheck);
            }
        }
        KafkaFetchClientConfiguration configuration = configuration();
        if (configuration.isPreValidateHostAndPort()) {
            new OptionChecks(frame.scheme()).validateBrokers(configuration.getBrokers());
        }
        if (configuration.getKerberosConfigLocation() != null) {
            // as camel-kafka: the JVM-wide Kerberos configuration
            System.setProperty("java.security.krb5.conf", configuration.getKerberosConfigLocation());
        }
        beforeTasks();
        KafkaClientFactory clients = clients();
        ExecutorServiceManager esm = getEndpoint().getCamelContext().getExecutorServiceManager();
        int count = taskCount(configuration.getConsumersCount());
        String topic = frame.subscription();
        // one platform thread per task, also when Camel's virtual threads are on (see FetchThreadPool)
        List<ExecutorService> fetchPools = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            fetchPools.add(FetchThreadPool.create(esm, frame.threadPrefix() + "Consumer[" + topic + "]"));
        }
        fetchThreads = List.copyOf(fetchPools);
        workers = WorkerPool.create(esm, this, frame.scheme(), frame.threadPrefix() + "Worker[" + topic + "]");
        if (frame.letterProducer() != null) {
            letterSender = esm.newSingleThreadScheduledExecutor(this, frame.threadPrefix() + "Letters[" + topic + "]");
            letters = new LetterPublisher(frame.letterProducer(), clients::getProducer, letterSender);
        }
        PollExceptionStrategy pollErrors = component().getPollExceptionStrategy() != null
                ? component().getPollExceptionStrategy()
                : new ConfiguredPollExceptionStrategy(configuration.getPollOnError());
        tasks = List.copyOf(createTasks(new TaskParts(count, clients, workers, letters, pollErrors)));
        for (int i = 0; i < tasks.size(); i++) {
            tasks.get(i).setConsumerListener(consumerListener);
            fetchThreads.get(i).submit(tasks.get(i));
        }
        meters = OptionalMeters.bind(getEndpoint().getCamelContext(), this,
                new MeterSource(getEndpoint().getCamelContext().getName(), getRouteId(), topic, frame.groupId(),
                        count, this::taskSnapshot, perPartitionMeters(), transactionsForMeters()));
    }

    /** The transactions of fetch task {@code i} for the meters (null entries while unknown), or null: none. */
    protected IntFunction<TxSnapshot> transactionsForMeters() {
        return null;
    }

    /** A new instance of a deserializer class, through Camel's injector. */
    protected Deserializer<?> instantiate(Class<?> type) {
        return (Deserializer<?>) getEndpoint().getCamelContext().getInjector().newInstance(type);
    }

    /** The latest snapshot of fetch task {@code index}, or null when the consumer has no such task (stopped). */
    private TaskSnapshot taskSnapshot(int index) {
        List<T> current = tasks;
        return index < current.size() ? current.get(index).snapshot() : null;
    }

    /** The live reachability of the task with this thread name (null when it has no client). */
    private ClientReachability reachability(String taskName) {
        for (T task : tasks) {
            if (task.threadName().equals(taskName)) {
                return task.reachability();
            }
        }
        return null;
    }

    private HealthCheck newHealthCheck(HealthCheck.Kind kind) {
        KafkaFetchConsumerHealthCheck check = new KafkaFetchConsumerHealthCheck(getRouteId(), kind, healthSettings(),
                this::taskSnapshots, this::reachability);
        customize(check);
        check.setCamelContext(getEndpoint().getCamelContext());
        return check;
    }

    /** Stops every task (bounded, see the class's guarantees), then the pools and the dead-letter producer. */
    @Override
    protected void doStop() throws Exception {
        meters.close();
        meters = MeterBinding.NONE;
        if (healthCheckRegistry != null && livenessCheck != null) {
            healthCheckRegistry.unregister(livenessCheck);
        }
        livenessCheck = null;
        healthCheckRegistry = null;
        List<T> stopping = tasks;
        stopping.forEach(FetchTask::requestStop);
        ExecutorServiceManager esm = getEndpoint().getCamelContext().getExecutorServiceManager();
        boolean interrupted = false;
        long wait = frame.stopWaitMs();
        try {
            for (T task : stopping) {
                if (!task.awaitTermination(wait)) {
                    LOG.warn("Fetch task {} did not terminate within {} ms", task.threadName(), wait);
                }
            }
        } catch (InterruptedException e) {
            interrupted = true;
            LOG.warn("Interrupted while stopping {}: its fetch tasks stop waiting for running records, settle what"
                     + " finished and close",
                    frame.subscription());
            fetchThreads.forEach(esm::shutdownNow); // interrupts their waits; each still settles and closes
            fetchThreads = List.of();
            awaitClosed(stopping);
        }
        tasks = List.of();
        fetchThreads.forEach(esm::shutdownNow);
        fetchThreads = List.of();
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
        afterTasks();
        super.doStop();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** After an interrupt: a short, bounded wait for the tasks to settle and close. */
    private void awaitClosed(List<T> stopping) {
        long deadline = System.currentTimeMillis() + frame.closeAfterInterruptMs();
        try {
            for (T task : stopping) {
                task.awaitTermination(Math.max(0, deadline - System.currentTimeMillis()));
            }
        } catch (InterruptedException again) {
            LOG.warn("Interrupted again while {} closes; closing the rest now", frame.subscription());
        }
    }

    /**
     * Suspending the route pauses every task: a classic task stays in its group and keeps polling with its partitions
     * paused; a share task leaves its group (it gives back what has not started) until the route is resumed.
     */
    @Override
    protected void doSuspend() throws Exception {
        tasks.forEach(FetchTask::requestPause);
    }

    @Override
    protected void doResume() throws Exception {
        tasks.forEach(FetchTask::requestResume);
    }
}
