package dev.kafkafetch;

import java.util.HashMap;
import java.util.Map;

import dev.kafkafetch.error.PollExceptionStrategy;
import org.apache.camel.Endpoint;
import org.apache.camel.PropertyBindingException;
import org.apache.camel.SSLContextParametersAware;
import org.apache.camel.spi.Metadata;
import org.apache.camel.support.HealthCheckComponent;
import org.apache.camel.support.PropertyBindingSupport;
import org.apache.camel.util.PropertiesHelper;

/**
 * What both components share, as camel-amqp's component extends camel-jms's: the client factory, the poll exception
 * strategy, global SSL and the create/subscribe backoffs, and the way an endpoint is made. Guarantees of
 * {@link #createEndpoint}, whichever the scheme: the endpoint gets its own copy of the component's configuration with
 * the URI's options set on it; a missing topic, an option the scheme refuses, and a camel-kafka type where the
 * component takes its own fail with a message that names the scheme and the option; {@code additionalProperties.*}
 * entries of the URI are resolved ({@code #bean}, {@code #class}) and added to the component's; an endpoint without
 * sslContextParameters gets the CamelContext's when useGlobalSslContextParameters is set.
 *
 * @param <C> the scheme's configuration
 * @param <E> the scheme's endpoint
 */
public abstract class AbstractKafkaFetchComponent<C extends KafkaFetchClientConfiguration, E extends AbstractKafkaFetchEndpoint>
        extends HealthCheckComponent implements SSLContextParametersAware {

    private final String scheme;
    @Metadata(label = "security", defaultValue = "false",
              description = "Enable usage of global SSL context parameters: an endpoint without sslContextParameters"
                            + " uses the CamelContext's.")
    private boolean useGlobalSslContextParameters;
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
              description = "Factory creating the Kafka consumers (each fetch task's, again after a reconnect) and the"
                            + " dead-letter producers, to wrap or instrument them, as camel-kafka's"
                            + " kafkaClientFactory. Autowired when the registry holds exactly one.")
    private KafkaClientFactory kafkaClientFactory;
    @Metadata(label = "consumer,advanced",
              description = "A custom strategy deciding what a fetch task does when poll() throws; overrides every"
                            + " endpoint's pollOnError.")
    private PollExceptionStrategy pollExceptionStrategy;
    private CamelKafkaCompat compat;
    private boolean compatLookedUp;

    /** @param scheme the URI scheme, which opens every message */
    protected AbstractKafkaFetchComponent(String scheme) {
        this.scheme = scheme;
    }

    /** The URI scheme. */
    public String scheme() {
        return scheme;
    }

    /** The options every endpoint of this component starts from. */
    public abstract C getConfiguration();

    /** A new endpoint on {@code topic}, holding {@code configuration} (a copy of the component's). */
    protected abstract E newEndpoint(String uri, String topic, C configuration);

    /** An example URI for the message of a missing topic. */
    protected abstract String exampleUri();

    /** Refuses, naming it, an option of the URI the scheme cannot have; the default refuses none. */
    protected void refuseOptions(Map<String, Object> parameters) {
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters) throws Exception {
        if (remaining == null || remaining.isBlank()) {
            throw new IllegalArgumentException(scheme + ": the topic is missing, e.g. " + exampleUri());
        }
        refuseOptions(parameters);
        Map<String, Object> endpointAdditional = PropertiesHelper.extractProperties(parameters,
                "additionalProperties.");
        E endpoint = newEndpoint(uri, remaining, (C) getConfiguration().copy());
        try {
            setProperties(endpoint, parameters);
        } catch (PropertyBindingException e) {
            throw camelKafkaTypeOrSame(e);
        }
        KafkaFetchClientConfiguration configuration = endpoint.getConfiguration();
        if (configuration.getSslContextParameters() == null) {
            configuration.setSslContextParameters(retrieveGlobalSslContextParameters());
        }
        if (!endpointAdditional.isEmpty()) {
            Map<String, Object> resolved = new HashMap<>();
            // #bean and #class values are resolved as in any other option
            PropertyBindingSupport.bindProperties(getCamelContext(), resolved, endpointAdditional);
            configuration.getAdditionalProperties().putAll(resolved);
        }
        return endpoint;
    }

    /**
     * A camel-kafka type given where kafka-fetch has its own (headerDeserializer, kafkaManualCommitFactory, ...) gets a
     * message naming the type to use; other binding errors are left as Camel reports them.
     */
    private RuntimeException camelKafkaTypeOrSame(PropertyBindingException e) {
        Object value = e.getValue();
        String message = String.valueOf(e.getMessage());
        if (CamelKafkaCompat.isCamelKafkaType(value) || message.contains("org.apache.camel.component.kafka.")) {
            return new IllegalArgumentException(scheme + " option " + e.getPropertyName() + ": " + value
                                                + " is one of camel-kafka's types; " + scheme + " takes its own (see"
                                                + " the option's type: " + message + "). Add"
                                                + " camel-kafka-fetch-compat to adapt camel-kafka's types",
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
    public boolean isUseGlobalSslContextParameters() {
        return useGlobalSslContextParameters;
    }

    @Override
    public void setUseGlobalSslContextParameters(boolean useGlobalSslContextParameters) {
        this.useGlobalSslContextParameters = useGlobalSslContextParameters;
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
