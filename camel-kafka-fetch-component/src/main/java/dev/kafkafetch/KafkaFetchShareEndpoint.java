package dev.kafkafetch;

import dev.kafkafetch.share.ShareSettings;
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
 * Consume Kafka topics through a share group (KIP-932, queues for Kafka): several members read one partition at
 * once, each record is acknowledged on its own when the route finished it, failed records are redelivered by the
 * broker and dead-lettered after their last delivery, and slow records keep their acquisition lock.
 * <p>
 * The endpoint holds the topics and its {@link KafkaFetchShareConfiguration} (a copy of the component's, with the
 * URI's options set on it); the options are validated when the route starts ({@link #shareSettings()}). Consumer
 * only; options shared with {@code kafka-fetch} keep its names.
 */
@UriEndpoint(firstVersion = "0.1.0", scheme = "kafka-fetch-share", title = "Kafka Fetch Share",
             syntax = "kafka-fetch-share:topic", consumerOnly = true, category = { Category.MESSAGING },
             headersClass = KafkaFetchShareConstants.class)
public class KafkaFetchShareEndpoint extends DefaultEndpoint implements HeaderFilterStrategyAware {

    @UriPath(label = "common")
    @Metadata(required = true, description = "Name of the topic to consume. Multiple topics can be separated by comma.")
    private String topic;
    @UriParam
    private KafkaFetchShareConfiguration configuration = new KafkaFetchShareConfiguration();
    @UriParam(label = "advanced",
              description = "Factory creating this endpoint's KafkaShareConsumers and dead-letter producer (instead of"
                            + " the component's kafkaClientFactory).")
    private KafkaClientFactory kafkaClientFactory;

    public KafkaFetchShareEndpoint(String endpointUri, KafkaFetchShareComponent component) {
        super(endpointUri, component);
    }

    @Override
    public KafkaFetchShareComponent getComponent() {
        return (KafkaFetchShareComponent) super.getComponent();
    }

    @Override
    public Producer createProducer() {
        throw new UnsupportedOperationException(
                "kafka-fetch-share is a consumer only: to send records to Kafka use camel-kafka's kafka: endpoint");
    }

    @Override
    public Consumer createConsumer(Processor processor) throws Exception {
        KafkaFetchShareConsumer consumer = new KafkaFetchShareConsumer(this, processor, shareSettings());
        configureConsumer(consumer);
        return consumer;
    }

    /** Validates the options and fixes them for the fetch tasks; the message names the faulty option. */
    public ShareSettings shareSettings() {
        return new ShareEndpointSettings(this).build();
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

    public KafkaFetchShareConfiguration getConfiguration() {
        return configuration;
    }

    public void setConfiguration(KafkaFetchShareConfiguration configuration) {
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
