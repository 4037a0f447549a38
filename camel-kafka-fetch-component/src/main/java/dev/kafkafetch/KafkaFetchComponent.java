package dev.kafkafetch;

import java.util.HashMap;
import java.util.Map;

import dev.kafkafetch.error.PollExceptionStrategy;
import org.apache.camel.Endpoint;
import org.apache.camel.PropertyBindingException;
import org.apache.camel.SSLContextParametersAware;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.annotations.Component;
import org.apache.camel.support.HealthCheckComponent;
import org.apache.camel.support.PropertyBindingSupport;
import org.apache.camel.util.PropertiesHelper;

/**
 * The {@code kafka-fetch} component: consumes Kafka topics into Camel routes with dedicated fetch tasks, commits only
 * finished work, and processes records in parallel inside a bounded window.
 * <p>
 * It holds a {@link KafkaFetchConfiguration} whose every option can be set once for an application
 * ({@code camel.component.kafka-fetch.<option>}); each endpoint gets a copy, and the endpoint URI's options override
 * it. {@code additionalProperties} merge: the endpoint's entries are added to the component's.
 */
@Component("kafka-fetch")
public class KafkaFetchComponent extends HealthCheckComponent implements SSLContextParametersAware {

    @Metadata(description = "Options every kafka-fetch endpoint starts from; an endpoint's own options override them.")
    private KafkaFetchConfiguration configuration = new KafkaFetchConfiguration();
    @Metadata(label = "security", defaultValue = "false",
              description = "Enable usage of global SSL context parameters: an endpoint without sslContextParameters"
                            + " uses the CamelContext's.")
    private boolean useGlobalSslContextParameters;
    @Metadata(label = "consumer,advanced", defaultValue = "false",
              description = "camel-kafka's check that the topics exist before subscribing. Not supported: a route"
                            + " with it set to true fails to start; create the topics beforehand (consumers never"
                            + " create topics unless additionalProperties.allow.auto.create.topics=true).")
    private boolean subscribeConsumerTopicMustExists;
    private CamelKafkaCompat compat;
    private boolean compatLookedUp;

    @Metadata(label = "consumer,advanced", defaultValue = "5000",
              description = "The delay in milliseconds to wait before trying again to create the kafka consumer"
                            + " (kafka-client).")
    private long createConsumerBackoffInterval = 5000;
    @Metadata(label = "consumer,advanced",
              description = "Maximum attempts to create the kafka consumer (kafka-client), before eventually giving up"
                            + " and failing. 0 (the default) retries forever.")
    private int createConsumerBackoffMaxAttempts;
    @Metadata(label = "consumer,advanced", defaultValue = "5000",
              description = "The delay in milliseconds to wait before trying again to subscribe to the kafka broker.")
    private long subscribeConsumerBackoffInterval = 5000;
    @Metadata(label = "consumer,advanced",
              description = "Maximum number the kafka consumer will attempt to subscribe to the kafka broker, before"
                            + " eventually giving up and failing. 0 (the default) retries forever.")
    private int subscribeConsumerBackoffMaxAttempts;

    @Metadata(autowired = true, label = "advanced",
              description = "Factory creating the KafkaConsumers (each fetch task's, again after a reconnect) and the"
                            + " dead-letter producers, to wrap or instrument them, as camel-kafka's"
                            + " kafkaClientFactory. Autowired when the registry holds exactly one.")
    private KafkaClientFactory kafkaClientFactory;

    @Metadata(label = "consumer,advanced",
              description = "A custom strategy deciding what a fetch task does when poll() throws; overrides every"
                            + " endpoint's pollOnError.")
    private PollExceptionStrategy pollExceptionStrategy;

    public KafkaClientFactory getKafkaClientFactory() {
        return kafkaClientFactory;
    }

    public void setKafkaClientFactory(KafkaClientFactory kafkaClientFactory) {
        this.kafkaClientFactory = kafkaClientFactory;
    }

    public PollExceptionStrategy getPollExceptionStrategy() {
        return pollExceptionStrategy;
    }

    public void setPollExceptionStrategy(PollExceptionStrategy pollExceptionStrategy) {
        this.pollExceptionStrategy = pollExceptionStrategy;
    }

    @Override
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters) throws Exception {
        if (remaining == null || remaining.isBlank()) {
            throw new IllegalArgumentException(
                    "kafka-fetch: the topic is missing, e.g. kafka-fetch:orders?brokers=...");
        }
        Map<String, Object> endpointAdditional = PropertiesHelper.extractProperties(parameters,
                "additionalProperties.");
        KafkaFetchEndpoint endpoint = new KafkaFetchEndpoint(uri, this);
        endpoint.setConfiguration(getConfiguration().copy());
        endpoint.setTopic(remaining);
        try {
            setProperties(endpoint, parameters);
        } catch (PropertyBindingException e) {
            throw camelKafkaTypeOrSame(e);
        }
        if (endpoint.getConfiguration().getSslContextParameters() == null) {
            endpoint.getConfiguration().setSslContextParameters(retrieveGlobalSslContextParameters());
        }
        if (!endpointAdditional.isEmpty()) {
            Map<String, Object> resolved = new HashMap<>();
            // #bean and #class values are resolved as in any other option
            PropertyBindingSupport.bindProperties(getCamelContext(), resolved, endpointAdditional);
            endpoint.getConfiguration().getAdditionalProperties().putAll(resolved);
        }
        return endpoint;
    }

    /**
     * A camel-kafka type given where kafka-fetch has its own (headerDeserializer, kafkaManualCommitFactory, ...) gets a
     * message naming the type to use; other binding errors are left as Camel reports them.
     */
    private static RuntimeException camelKafkaTypeOrSame(PropertyBindingException e) {
        Object value = e.getValue();
        String message = String.valueOf(e.getMessage());
        if (CamelKafkaCompat.isCamelKafkaType(value) || message.contains("org.apache.camel.component.kafka.")) {
            return new IllegalArgumentException("kafka-fetch option " + e.getPropertyName() + ": " + value
                                                + " is one of camel-kafka's types; kafka-fetch takes its own (see the"
                                                + " option's type: " + message + "). Add camel-kafka-fetch-compat to"
                                                + " adapt camel-kafka's types",
                    e);
        }
        return e;
    }

    /** The camel-kafka-fetch-compat module when it is on the classpath, else null (looked up once). */
    public synchronized CamelKafkaCompat getCamelKafkaCompat() {
        if (!compatLookedUp) {
            compatLookedUp = true;
            compat = getCamelContext().getCamelContextExtension().getFactoryFinder("META-INF/services/dev/kafkafetch/")
                    .newInstance(CamelKafkaCompat.SERVICE, CamelKafkaCompat.class).orElse(null);
        }
        return compat;
    }

    @Override
    public boolean isUseGlobalSslContextParameters() {
        return useGlobalSslContextParameters;
    }

    @Override
    public void setUseGlobalSslContextParameters(boolean useGlobalSslContextParameters) {
        this.useGlobalSslContextParameters = useGlobalSslContextParameters;
    }

    public boolean isSubscribeConsumerTopicMustExists() {
        return subscribeConsumerTopicMustExists;
    }

    public void setSubscribeConsumerTopicMustExists(boolean subscribeConsumerTopicMustExists) {
        this.subscribeConsumerTopicMustExists = subscribeConsumerTopicMustExists;
    }

    public KafkaFetchConfiguration getConfiguration() {
        return configuration;
    }

    public void setConfiguration(KafkaFetchConfiguration configuration) {
        this.configuration = configuration;
    }

    public long getCreateConsumerBackoffInterval() {
        return createConsumerBackoffInterval;
    }

    public void setCreateConsumerBackoffInterval(long createConsumerBackoffInterval) {
        this.createConsumerBackoffInterval = createConsumerBackoffInterval;
    }

    public int getCreateConsumerBackoffMaxAttempts() {
        return createConsumerBackoffMaxAttempts;
    }

    public void setCreateConsumerBackoffMaxAttempts(int createConsumerBackoffMaxAttempts) {
        this.createConsumerBackoffMaxAttempts = createConsumerBackoffMaxAttempts;
    }

    public long getSubscribeConsumerBackoffInterval() {
        return subscribeConsumerBackoffInterval;
    }

    public void setSubscribeConsumerBackoffInterval(long subscribeConsumerBackoffInterval) {
        this.subscribeConsumerBackoffInterval = subscribeConsumerBackoffInterval;
    }

    public int getSubscribeConsumerBackoffMaxAttempts() {
        return subscribeConsumerBackoffMaxAttempts;
    }

    public void setSubscribeConsumerBackoffMaxAttempts(int subscribeConsumerBackoffMaxAttempts) {
        this.subscribeConsumerBackoffMaxAttempts = subscribeConsumerBackoffMaxAttempts;
    }
}
