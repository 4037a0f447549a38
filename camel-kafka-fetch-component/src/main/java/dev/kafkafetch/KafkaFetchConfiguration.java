package dev.kafkafetch;

import dev.kafkafetch.commit.DefaultKafkaManualCommitFactory;
import dev.kafkafetch.commit.KafkaManualCommitFactory;
import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.task.SeekPolicy;
import org.apache.camel.spi.StateRepository;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriParams;

/**
 * Every option of a {@code kafka-fetch} endpoint, as camel-kafka's {@code KafkaConfiguration} holds them (those both
 * schemes share in {@link KafkaFetchClientConfiguration}, the consumer-group ones here): the component
 * keeps one instance (set once per application with {@code camel.component.kafka-fetch.<option>}) and each endpoint
 * gets a {@link #copy()} of it, on which the endpoint URI's options are set, so an endpoint value overrides the
 * component's. Nothing is validated here: {@link EndpointSettings} checks every option when the route starts.
 */
@UriParams
public class KafkaFetchConfiguration extends KafkaFetchClientConfiguration {

    @UriParam(label = "consumer",
              description = "A unique identifier of the consumer instance (static membership). With consumersCount above 1, each fetch task appends a dash and its index.")
    private String groupInstanceId;
    @UriParam(label = "consumer", defaultValue = "latest", enums = "latest,earliest,none",
              description = "What to do when there is no committed offset: earliest, latest, or none (fail).")
    private String autoOffsetReset = "latest";
    @UriParam(label = "consumer", defaultValue = "true",
              description = "Whether the component commits finished offsets by itself (every autoCommitIntervalMs, on revoke and on shutdown). Kafka's own enable.auto.commit is never used: it would commit records that are not processed yet.")
    private boolean autoCommitEnable = true;
    @UriParam(label = "consumer", defaultValue = "5000",
              description = "How often, in ms, finished offsets are committed.")
    private Integer autoCommitIntervalMs = 5000;
    @UriParam(label = "consumer", defaultValue = "500",
              description = "How soon, in ms, finished records are committed: a fetch task commits a partition whose committable offset advanced at most this often, besides every autoCommitIntervalMs, so that a crash re-delivers little more than the records in flight. 0 commits only every autoCommitIntervalMs, as camel-kafka does.")
    private Integer finishedCommitIntervalMs = 500;
    @UriParam(label = "consumer", defaultValue = "500",
              description = "The maximum number of records returned in a single call to poll().")
    private Integer maxPollRecords = 500;
    @UriParam(label = "consumer", defaultValue = "45000",
              description = "The timeout used to detect failures when using Kafka's group management facilities.")
    private Integer sessionTimeoutMs = 45000;
    @UriParam(label = "consumer", defaultValue = "3000",
              description = "The expected time between heartbeats to the consumer coordinator.")
    private Integer heartbeatIntervalMs = 3000;
    @UriParam(label = "consumer", defaultValue = "classic", enums = "classic,consumer",
              description = "The consumer group protocol: classic, or consumer (KIP-848).")
    private String groupProtocol = "classic";
    @UriParam(label = "consumer,advanced",
              description = "The server-side assignor to use when groupProtocol is consumer.")
    private String groupRemoteAssignor;
    @UriParam(label = "consumer", defaultValue = "org.apache.kafka.clients.consumer.RangeAssignor",
              description = "The class name of the partition assignment strategy (classic protocol).")
    private String partitionAssignor = "org.apache.kafka.clients.consumer.RangeAssignor";
    @UriParam(label = "consumer",
              description = "Start from the BEGINNING or the END of each partition on the route's first assignment (each partition the first time any of the route's fetch tasks gets it while the route starts; not on later rebalances, never on retry topics), whatever was committed.")
    private SeekPolicy seekTo;
    @UriParam(label = "consumer", defaultValue = "false",
              description = "Whether the topic is a regular expression to subscribe to.")
    private boolean topicIsPattern = false;
    @UriParam(label = "consumer,advanced", defaultValue = "read_uncommitted", enums = "read_uncommitted,read_committed",
              description = "How to read transactionally written records.")
    private String isolationLevel = "read_uncommitted";
    @UriParam(label = "consumer", defaultValue = "PARTITION",
              description = "Which records may run at the same time: PARTITION (one at a time per partition), KEY (one at a time per key within a partition; null keys are all different) or UNORDERED.")
    private Ordering ordering = Ordering.PARTITION;
    @UriParam(label = "consumer", defaultValue = "5000",
              description = "The most records one fetch task holds since its committable offsets: unfinished ones, and finished ones waiting behind an unfinished one. Before one more poll could pass it, the task pauses its partitions (and keeps polling) instead of buffering; this also bounds what a crash re-delivers. Must be at least maxPollRecords.")
    private int maxInFlightRecords = 5000;
    @UriParam(label = "consumer,advanced", defaultValue = "10000",
              description = "On a rebalance, how long to wait for the revoked partitions' records already in the route before committing what finished; the rest is re-delivered to the new owner.")
    private long revokeTimeoutMs = 10000;
    @UriParam(label = "consumer", defaultValue = "0",
              description = "A record still in the route after this many ms is reported as stalled (WARN with the thread's stack, metric); with a deadLetterTopic it is dead-lettered so its partition moves on. 0 = off.")
    private long stallTimeoutMs = 0;
    @UriParam(label = "consumer",
              description = "Topic receiving the records that are still failed after Camel's error handler (and stalled ones), with provenance headers. A record counts as finished once the broker acknowledged its dead letter. With transacted=true the letter is sent in the fetch task's transaction that commits the record's offset, so an aborted transaction takes it back (read it read_committed).")
    private String deadLetterTopic;
    @UriParam(label = "consumer",
              description = "Non-blocking retries: a comma list of increasing durations (e.g. 1s,30s,5m). A record still failed after Camel's error handler goes to retry topic 1, 2, ... in turn and is routed again from there once its delay passed (its retry topic's partition is paused meanwhile; nothing sleeps); after the last one it goes to the deadLetterTopic, or is logged and skipped. The route consumes its own retry topics. A retried record leaves its partition's and key's order. Not with breakOnFirstError.")
    private String retryDelays;
    @UriParam(label = "consumer,advanced", defaultValue = "{topic}.retry-{n}",
              description = "The names of the retry topics: {topic} is the source topic, {n} the retry number (1, 2, ...).")
    private String retryTopicPattern = "{topic}.retry-{n}";
    @UriParam(label = "consumer,advanced", defaultValue = "true",
              description = "Whether missing retry topics are created at route start (with their source topic's partition count); when false a missing one fails the route's start.")
    private boolean createRetryTopics = true;
    @UriParam(label = "consumer", defaultValue = "true",
              description = "Whether each commit also names, in its metadata, the records finished above the committed offset (they finish out of order with maxConcurrency above 1), so that a new owner of the partition or a restarted route does not route them again. Applies to the component's own commits (autoCommitEnable=true). A map that does not fit the broker's offset.metadata.max.bytes is left out; metadata that is not such a map is ignored.")
    private boolean offsetMap = true;
    @UriParam(label = "consumer", defaultValue = "false",
              description = "Exactly once from Kafka to Kafka: the route's sends to kafka-fetch producer endpoints (to(\"kafka-fetch:out\")) are held with their input record until it is finished, then sent in the fetch task's Kafka transaction together with the offsets (and offset map) that count it finished, on each commit (autoCommitIntervalMs, finishedCommitIntervalMs, revoke, stop). A read_committed reader sees each output once; an aborted transaction reads its records again. Each fetch task has one transactional producer (see transactionalIdPrefix). Needs autoCommitEnable=true; refused with allowManualCommit, batching, breakOnFirstError and retryDelays. Side effects outside Kafka are not covered. The producers take camel-kafka's producer options that apply to them (lingerMs, producerBatchSize, compressionCodec, maxRequestSize, bufferMemorySize, sendBufferBytes, receiveBufferBytes, maxInFlightRequest, retries, requestTimeoutMs, deliveryTimeoutMs, maxBlockMs); acks stays all and idempotence on.")
    private boolean transacted = false;
    @UriParam(label = "consumer,advanced",
              description = "With transacted=true, the prefix of the fetch tasks' transactional.id (task i appends -i). It must be unique per route member in the cluster and the same after the member restarts, so that the restarted member fences its predecessor and aborts what it left open. Default: kafka-fetch-<groupId>-<groupInstanceId or clientId>; transacted=true without any of the three is refused.")
    private String transactionalIdPrefix;
    @UriParam(label = "consumer,advanced", defaultValue = "60000", javaType = "java.time.Duration",
              description = "With transacted=true, Kafka's transaction.timeout.ms of the fetch tasks' producers: how long a transaction left open by a member that died may block read_committed readers when no restart of the member fences it.")
    private Long transactionTimeoutMs = 60000L;
    @UriParam(label = "consumer,advanced", defaultValue = "5",
              description = "With transacted=true (the fetch tasks' transactional producers, as camel-kafka's producer option): Kafka's linger.ms: how long the producer waits for more records of a partition before it sends a batch; a transaction's commit sends what waits at once.")
    private Integer lingerMs = 5;
    @UriParam(label = "consumer,advanced", defaultValue = "16384",
              description = "With transacted=true (the fetch tasks' transactional producers, as camel-kafka's producer option): Kafka's batch.size: the bytes of one partition's batch (0 disables batching).")
    private Integer producerBatchSize = 16384;
    @UriParam(label = "consumer,advanced", defaultValue = "none", enums = "none,gzip,snappy,lz4,zstd",
              description = "With transacted=true (the fetch tasks' transactional producers, as camel-kafka's producer option): Kafka's compression.type for the output records: none, gzip, snappy, lz4 or zstd.")
    private String compressionCodec = "none";
    @UriParam(label = "consumer,advanced", defaultValue = "1048576",
              description = "With transacted=true (the fetch tasks' transactional producers, as camel-kafka's producer option): Kafka's max.request.size: the largest request, and so the largest output record; a larger one fails its send and aborts its transaction (its records are read again).")
    private Integer maxRequestSize = 1048576;
    @UriParam(label = "consumer,advanced", defaultValue = "33554432",
              description = "With transacted=true (the fetch tasks' transactional producers, as camel-kafka's producer option): Kafka's buffer.memory: the bytes the producer may buffer for records not yet sent.")
    private Integer bufferMemorySize = 33554432;
    @UriParam(label = "consumer,advanced", defaultValue = "131072",
              description = "With transacted=true (the fetch tasks' transactional producers, as camel-kafka's producer option): Kafka's send.buffer.bytes: the TCP send buffer (SO_SNDBUF; -1 the operating system's default).")
    private Integer sendBufferBytes = 131072;
    @UriParam(label = "consumer,advanced", defaultValue = "65536",
              description = "With transacted=true (the fetch tasks' transactional producers, as camel-kafka's producer option): Kafka's receive.buffer.bytes: the TCP receive buffer (SO_RCVBUF; -1 the operating system's default).")
    private Integer receiveBufferBytes = 65536;
    @UriParam(label = "consumer,advanced", defaultValue = "5",
              description = "With transacted=true (the fetch tasks' transactional producers, as camel-kafka's producer option): Kafka's max.in.flight.requests.per.connection: 1 to 5 (an idempotent producer keeps order up to 5; more is refused).")
    private Integer maxInFlightRequest = 5;
    @UriParam(label = "consumer,advanced",
              description = "With transacted=true (the fetch tasks' transactional producers, as camel-kafka's producer option): Kafka's retries: at least 1 (an idempotent producer must retry; 0 is refused). Unset: Kafka's default, bounded by deliveryTimeoutMs.")
    private Integer retries;
    @UriParam(label = "consumer,advanced",
              description = "With transacted=true (the fetch tasks' transactional producers, as camel-kafka's producer option): Kafka's request.timeout.ms: how long the producer waits for a broker's response. Default: commitTimeoutMs (at least 1000), not camel-kafka's 30000, so that a commit does not wait on one request longer than it may block.")
    private Integer requestTimeoutMs;
    @UriParam(label = "consumer,advanced",
              description = "With transacted=true (the fetch tasks' transactional producers, as camel-kafka's producer option): Kafka's delivery.timeout.ms: how long a send may take, retries included; at least lingerMs + requestTimeoutMs. Default: commitTimeoutMs + 1000 (at least 2000, and at least lingerMs + requestTimeoutMs), not camel-kafka's 120000.")
    private Integer deliveryTimeoutMs;
    @UriParam(label = "consumer,advanced",
              description = "With transacted=true (the fetch tasks' transactional producers, as camel-kafka's producer option): Kafka's max.block.ms: how long a transaction's begin, sends, offsets and commit may block the fetch thread; at most commitTimeoutMs. Default: commitTimeoutMs, not camel-kafka's 60000.")
    private Integer maxBlockMs;
    @UriParam(label = "consumer,advanced", defaultValue = "all", enums = "all,-1,0,1",
              description = "With transacted=true (the fetch tasks' transactional producers, as camel-kafka's producer option): Kafka's acks: only all (or -1) is accepted, since a transactional producer is idempotent; any other value is refused. Accepted so that a camel-kafka producer's options can be carried over.")
    private String requestRequiredAcks = "all";
    @UriParam(label = "consumer,advanced", defaultValue = "true",
              description = "With transacted=true (the fetch tasks' transactional producers, as camel-kafka's producer option): Kafka's enable.idempotence: only true is accepted (a transactional producer is idempotent); false is refused. Accepted so that a camel-kafka producer's options can be carried over.")
    private boolean enableIdempotence = true;
    @UriParam(label = "consumer,advanced", defaultValue = "false",
              description = "Whether to publish per-partition Micrometer meters (kafka.fetch.partition.lag, kafka.fetch.partition.in.flight, kafka.fetch.partition.held, tagged with topic and partition) besides the per fetch task ones. Off by default to keep the number of series small. Meters are registered only when Micrometer is on the classpath and a MeterRegistry is in the Camel registry.")
    private boolean metricsPerPartition = false;
    @UriParam(label = "consumer,advanced", defaultValue = "false",
              description = "Whether operators may act on this route's consumer while it runs: pause and resume one partition, and park a record (take it out of the route and dead-letter it with reason parked, so its partition commits past it), through the consumer's Java API (KafkaFetchConsumer.pausePartition, resumePartition, parkRecord) and its JMX operations. Off by default: every action is then refused with an error naming this option. Reading (console, JMX attributes, health) is open either way. Each action is logged with who asked (the JMX principal when JMX authentication is on).")
    private boolean operatorActions = false;

    @UriParam(label = "consumer", defaultValue = "false",
              description = "When a record's exchange is still failed after Camel's error handler: start nothing more of its partition, drop that partition's records polled after it, seek back to it and poll again, without leaving the group. Other partitions go on. With batching, every partition of the failed batch is sought back and the batch is delivered again whole. See breakOnFirstErrorMaxAttempts.")
    private boolean breakOnFirstError = false;
    @UriParam(label = "consumer", defaultValue = "0",
              description = "With breakOnFirstError, how many times a record (or batch) is delivered before it is handled as without breakOnFirstError (dead-lettered, or logged and skipped). 0 = no limit: a record that always fails stops its partition, as camel-kafka does for single records (camel-kafka moves past a failed batch; kafka-fetch retries it too). Every retry is logged at WARN with its topic, partition and offset.")
    private int breakOnFirstErrorMaxAttempts = 0;
    @UriParam(label = "consumer", defaultValue = "false",
              description = "Whether to put a KafkaManualCommit in header CamelKafkaManualCommit. Its commit() may be called from any thread; the fetch thread commits, never past an unfinished record of the partition.")
    private boolean allowManualCommit = false;
    @UriParam(label = "consumer,advanced",
              description = "Factory of the KafkaManualCommit instances: synchronous (default, waits for the broker) or DefaultKafkaManualAsyncCommitFactory.")
    private KafkaManualCommitFactory kafkaManualCommitFactory = new DefaultKafkaManualCommitFactory();
    @UriParam(label = "consumer", defaultValue = "false",
              description = "Whether to process records in batches: one exchange per poll (or per batchingIntervalMs), whose body is the List of per-record exchanges. A batch finishes, fails and commits as a whole.")
    private boolean batching = false;
    @UriParam(label = "consumer",
              description = "In batching mode, collect records over polls and complete the batch after this many ms (counted from its first record) or when maxPollRecords records are collected, whichever comes first. Without it, one batch per poll.")
    private Integer batchingIntervalMs;

    @UriParam(label = "common,monitoring",
              description = "Sets interceptors for the Kafka consumer (comma-separated ConsumerInterceptor class names). They see every record as polled, with byte[] key and value (kafka-fetch deserializes per record later), and every offset kafka-fetch commits, which is never past an unfinished record.")
    private String interceptorClasses;
    @UriParam(label = "consumer",
              description = "The offset repository to use to locally store the offset of each partition of the topic (key topic/partition, value the last finished offset, as camel-kafka writes it). kafka-fetch writes it at each commit with the committable offset, never past an unfinished record, and on each assignment starts a partition it holds a value for right after that value. Commits to Kafka go on as configured; with autoCommitEnable=false only manual commits reach the repository.")
    private StateRepository<String, String> offsetRepository;

    @Override
    public KafkaFetchConfiguration copy() {
        return (KafkaFetchConfiguration) super.copy();
    }

    public String getGroupInstanceId() {
        return groupInstanceId;
    }

    public void setGroupInstanceId(String groupInstanceId) {
        this.groupInstanceId = groupInstanceId;
    }

    public String getAutoOffsetReset() {
        return autoOffsetReset;
    }

    public void setAutoOffsetReset(String autoOffsetReset) {
        this.autoOffsetReset = autoOffsetReset;
    }

    public boolean isAutoCommitEnable() {
        return autoCommitEnable;
    }

    public void setAutoCommitEnable(boolean autoCommitEnable) {
        this.autoCommitEnable = autoCommitEnable;
    }

    public Integer getAutoCommitIntervalMs() {
        return autoCommitIntervalMs;
    }

    public void setAutoCommitIntervalMs(Integer autoCommitIntervalMs) {
        this.autoCommitIntervalMs = autoCommitIntervalMs;
    }

    public Integer getFinishedCommitIntervalMs() {
        return finishedCommitIntervalMs;
    }

    public void setFinishedCommitIntervalMs(Integer finishedCommitIntervalMs) {
        this.finishedCommitIntervalMs = finishedCommitIntervalMs;
    }

    public Integer getMaxPollRecords() {
        return maxPollRecords;
    }

    public void setMaxPollRecords(Integer maxPollRecords) {
        this.maxPollRecords = maxPollRecords;
    }

    public Integer getSessionTimeoutMs() {
        return sessionTimeoutMs;
    }

    public void setSessionTimeoutMs(Integer sessionTimeoutMs) {
        this.sessionTimeoutMs = sessionTimeoutMs;
    }

    public Integer getHeartbeatIntervalMs() {
        return heartbeatIntervalMs;
    }

    public void setHeartbeatIntervalMs(Integer heartbeatIntervalMs) {
        this.heartbeatIntervalMs = heartbeatIntervalMs;
    }

    public String getGroupProtocol() {
        return groupProtocol;
    }

    public void setGroupProtocol(String groupProtocol) {
        this.groupProtocol = groupProtocol;
    }

    public String getGroupRemoteAssignor() {
        return groupRemoteAssignor;
    }

    public void setGroupRemoteAssignor(String groupRemoteAssignor) {
        this.groupRemoteAssignor = groupRemoteAssignor;
    }

    public String getPartitionAssignor() {
        return partitionAssignor;
    }

    public void setPartitionAssignor(String partitionAssignor) {
        this.partitionAssignor = partitionAssignor;
    }

    public SeekPolicy getSeekTo() {
        return seekTo;
    }

    public void setSeekTo(SeekPolicy seekTo) {
        this.seekTo = seekTo;
    }

    public boolean isTopicIsPattern() {
        return topicIsPattern;
    }

    public void setTopicIsPattern(boolean topicIsPattern) {
        this.topicIsPattern = topicIsPattern;
    }

    public String getIsolationLevel() {
        return isolationLevel;
    }

    public void setIsolationLevel(String isolationLevel) {
        this.isolationLevel = isolationLevel;
    }

    public Ordering getOrdering() {
        return ordering;
    }

    public void setOrdering(Ordering ordering) {
        this.ordering = ordering;
    }

    public int getMaxInFlightRecords() {
        return maxInFlightRecords;
    }

    public void setMaxInFlightRecords(int maxInFlightRecords) {
        this.maxInFlightRecords = maxInFlightRecords;
    }

    public long getRevokeTimeoutMs() {
        return revokeTimeoutMs;
    }

    public void setRevokeTimeoutMs(long revokeTimeoutMs) {
        this.revokeTimeoutMs = revokeTimeoutMs;
    }

    public long getStallTimeoutMs() {
        return stallTimeoutMs;
    }

    public void setStallTimeoutMs(long stallTimeoutMs) {
        this.stallTimeoutMs = stallTimeoutMs;
    }

    public String getRetryDelays() {
        return retryDelays;
    }

    public void setRetryDelays(String retryDelays) {
        this.retryDelays = retryDelays;
    }

    public String getRetryTopicPattern() {
        return retryTopicPattern;
    }

    public void setRetryTopicPattern(String retryTopicPattern) {
        this.retryTopicPattern = retryTopicPattern;
    }

    public boolean isCreateRetryTopics() {
        return createRetryTopics;
    }

    public void setCreateRetryTopics(boolean createRetryTopics) {
        this.createRetryTopics = createRetryTopics;
    }

    public boolean isOffsetMap() {
        return offsetMap;
    }

    public void setOffsetMap(boolean offsetMap) {
        this.offsetMap = offsetMap;
    }

    public boolean isTransacted() {
        return transacted;
    }

    public void setTransacted(boolean transacted) {
        this.transacted = transacted;
    }

    public String getTransactionalIdPrefix() {
        return transactionalIdPrefix;
    }

    public void setTransactionalIdPrefix(String transactionalIdPrefix) {
        this.transactionalIdPrefix = transactionalIdPrefix;
    }

    public Long getTransactionTimeoutMs() {
        return transactionTimeoutMs;
    }

    public void setTransactionTimeoutMs(Long transactionTimeoutMs) {
        this.transactionTimeoutMs = transactionTimeoutMs;
    }

    public Integer getLingerMs() {
        return lingerMs;
    }

    public void setLingerMs(Integer lingerMs) {
        this.lingerMs = lingerMs;
    }

    public Integer getProducerBatchSize() {
        return producerBatchSize;
    }

    public void setProducerBatchSize(Integer producerBatchSize) {
        this.producerBatchSize = producerBatchSize;
    }

    public String getCompressionCodec() {
        return compressionCodec;
    }

    public void setCompressionCodec(String compressionCodec) {
        this.compressionCodec = compressionCodec;
    }

    public Integer getMaxRequestSize() {
        return maxRequestSize;
    }

    public void setMaxRequestSize(Integer maxRequestSize) {
        this.maxRequestSize = maxRequestSize;
    }

    public Integer getBufferMemorySize() {
        return bufferMemorySize;
    }

    public void setBufferMemorySize(Integer bufferMemorySize) {
        this.bufferMemorySize = bufferMemorySize;
    }

    public Integer getSendBufferBytes() {
        return sendBufferBytes;
    }

    public void setSendBufferBytes(Integer sendBufferBytes) {
        this.sendBufferBytes = sendBufferBytes;
    }

    public Integer getReceiveBufferBytes() {
        return receiveBufferBytes;
    }

    public void setReceiveBufferBytes(Integer receiveBufferBytes) {
        this.receiveBufferBytes = receiveBufferBytes;
    }

    public Integer getMaxInFlightRequest() {
        return maxInFlightRequest;
    }

    public void setMaxInFlightRequest(Integer maxInFlightRequest) {
        this.maxInFlightRequest = maxInFlightRequest;
    }

    public Integer getRetries() {
        return retries;
    }

    public void setRetries(Integer retries) {
        this.retries = retries;
    }

    public Integer getRequestTimeoutMs() {
        return requestTimeoutMs;
    }

    public void setRequestTimeoutMs(Integer requestTimeoutMs) {
        this.requestTimeoutMs = requestTimeoutMs;
    }

    public Integer getDeliveryTimeoutMs() {
        return deliveryTimeoutMs;
    }

    public void setDeliveryTimeoutMs(Integer deliveryTimeoutMs) {
        this.deliveryTimeoutMs = deliveryTimeoutMs;
    }

    public Integer getMaxBlockMs() {
        return maxBlockMs;
    }

    public void setMaxBlockMs(Integer maxBlockMs) {
        this.maxBlockMs = maxBlockMs;
    }

    public String getRequestRequiredAcks() {
        return requestRequiredAcks;
    }

    public void setRequestRequiredAcks(String requestRequiredAcks) {
        this.requestRequiredAcks = requestRequiredAcks;
    }

    public boolean isEnableIdempotence() {
        return enableIdempotence;
    }

    public void setEnableIdempotence(boolean enableIdempotence) {
        this.enableIdempotence = enableIdempotence;
    }

    public boolean isMetricsPerPartition() {
        return metricsPerPartition;
    }

    public void setMetricsPerPartition(boolean metricsPerPartition) {
        this.metricsPerPartition = metricsPerPartition;
    }

    public boolean isOperatorActions() {
        return operatorActions;
    }

    public void setOperatorActions(boolean operatorActions) {
        this.operatorActions = operatorActions;
    }

    public String getDeadLetterTopic() {
        return deadLetterTopic;
    }

    public void setDeadLetterTopic(String deadLetterTopic) {
        this.deadLetterTopic = deadLetterTopic;
    }

    public boolean isBreakOnFirstError() {
        return breakOnFirstError;
    }

    public void setBreakOnFirstError(boolean breakOnFirstError) {
        this.breakOnFirstError = breakOnFirstError;
    }

    public int getBreakOnFirstErrorMaxAttempts() {
        return breakOnFirstErrorMaxAttempts;
    }

    public void setBreakOnFirstErrorMaxAttempts(int breakOnFirstErrorMaxAttempts) {
        this.breakOnFirstErrorMaxAttempts = breakOnFirstErrorMaxAttempts;
    }

    public boolean isAllowManualCommit() {
        return allowManualCommit;
    }

    public void setAllowManualCommit(boolean allowManualCommit) {
        this.allowManualCommit = allowManualCommit;
    }

    public KafkaManualCommitFactory getKafkaManualCommitFactory() {
        return kafkaManualCommitFactory;
    }

    public void setKafkaManualCommitFactory(KafkaManualCommitFactory kafkaManualCommitFactory) {
        this.kafkaManualCommitFactory = kafkaManualCommitFactory;
    }

    public boolean isBatching() {
        return batching;
    }

    public void setBatching(boolean batching) {
        this.batching = batching;
    }

    public Integer getBatchingIntervalMs() {
        return batchingIntervalMs;
    }

    public void setBatchingIntervalMs(Integer batchingIntervalMs) {
        this.batchingIntervalMs = batchingIntervalMs;
    }

    public String getInterceptorClasses() {
        return interceptorClasses;
    }

    public void setInterceptorClasses(String interceptorClasses) {
        this.interceptorClasses = interceptorClasses;
    }

    public StateRepository<String, String> getOffsetRepository() {
        return offsetRepository;
    }

    public void setOffsetRepository(StateRepository<String, String> offsetRepository) {
        this.offsetRepository = offsetRepository;
    }

}
