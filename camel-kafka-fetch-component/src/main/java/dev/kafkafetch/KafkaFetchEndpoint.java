package dev.kafkafetch;

import dev.kafkafetch.task.TaskSettings;
import org.apache.camel.Category;
import org.apache.camel.Consumer;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.spi.HeaderFilterStrategy;
import org.apache.camel.spi.HeaderFilterStrategyAware;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.UriEndpoint;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriPath;
import org.apache.camel.support.DefaultEndpoint;

/**
 * Consume Kafka topics with dedicated fetch tasks that commit only finished records and process slow routes in
 * parallel inside a bounded window.
 * <p>
 * The endpoint holds the topic and its {@link KafkaFetchConfiguration} (a copy of the component's, with the URI's
 * options set on it); the options are validated when the route starts ({@link #taskSettings()}). Consumer only;
 * options shared with camel-kafka keep camel-kafka 4.22's names, defaults and meaning.
 */
@UriEndpoint(firstVersion = "0.1.0", scheme = "kafka-fetch", title = "Kafka Fetch", syntax = "kafka-fetch:topic",
             consumerOnly = true, category = { Category.MESSAGING }, headersClass = KafkaFetchConstants.class)
public class KafkaFetchEndpoint extends DefaultEndpoint implements HeaderFilterStrategyAware {

    @UriPath(label = "common")
    @Metadata(required = true,
              description = "Name of the topic to consume. Multiple topics can be separated by comma; with"
                            + " topicIsPattern=true a regular expression.")
    private String topic;
    @UriParam
    private KafkaFetchConfiguration configuration = new KafkaFetchConfiguration();
    @UriParam(label = "advanced",
              description = "Factory creating this endpoint's KafkaConsumers and dead-letter producer (instead of the"
                            + " component's kafkaClientFactory).")
    private KafkaClientFactory kafkaClientFactory;

    public KafkaFetchEndpoint(String endpointUri, KafkaFetchComponent component) {
        super(endpointUri, component);
    }

    @Override
    public KafkaFetchComponent getComponent() {
        return (KafkaFetchComponent) super.getComponent();
    }

    @Override
    public Producer createProducer() {
        throw new UnsupportedOperationException(
                "kafka-fetch is a consumer only: to send records to Kafka use camel-kafka's kafka: endpoint");
    }

    @Override
    public Consumer createConsumer(Processor processor) throws Exception {
        KafkaFetchConsumer consumer = new KafkaFetchConsumer(this, processor, taskSettings());
        configureConsumer(consumer);
        return consumer;
    }

    /** Validates the options and fixes them for the fetch tasks; the message names the faulty option. */
    public TaskSettings taskSettings() {
        return new EndpointSettings(this).build();
    }

    public String getTopic() {
        return topic;
    }

    public void setTopic(String topic) {
        this.topic = topic;
    }

    public KafkaClientFactory getKafkaClientFactory() {
        return kafkaClientFactory;
    }

    public void setKafkaClientFactory(KafkaClientFactory kafkaClientFactory) {
        this.kafkaClientFactory = kafkaClientFactory;
    }

    /** The factory the consumer uses: the endpoint's, else the component's, else the plain Kafka clients. */
    KafkaClientFactory kafkaClientFactory() {
        if (kafkaClientFactory != null) {
            return kafkaClientFactory;
        }
        KafkaClientFactory fromComponent = getComponent().getKafkaClientFactory();
        return fromComponent != null ? fromComponent : KafkaClientFactory.DEFAULT;
    }

    public KafkaFetchConfiguration getConfiguration() {
        return configuration;
    }

    public void setConfiguration(KafkaFetchConfiguration configuration) {
        this.configuration = configuration;
    }

    @Override
    public HeaderFilterStrategy getHeaderFilterStrategy() {
        return configuration.getHeaderFilterStrategy();
    }

    @Override
    public void setHeaderFilterStrategy(HeaderFilterStrategy headerFilterStrategy) {
        configuration.setHeaderFilterStrategy(headerFilterStrategy);
    }
}
