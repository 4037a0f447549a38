package dev.kafkafetch.share;

import dev.kafkafetch.AbstractKafkaFetchEndpoint;
import org.apache.camel.Category;
import org.apache.camel.Consumer;
import org.apache.camel.Processor;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.UriEndpoint;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriPath;

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
public class KafkaFetchShareEndpoint extends AbstractKafkaFetchEndpoint {

    @UriPath(label = "common")
    @Metadata(required = true, description = "Name of the topic to consume. Multiple topics can be separated by comma.")
    private String topic;
    @UriParam
    private KafkaFetchShareConfiguration configuration = new KafkaFetchShareConfiguration();

    public KafkaFetchShareEndpoint(String endpointUri, KafkaFetchShareComponent component) {
        super(endpointUri, component);
    }

    @Override
    public KafkaFetchShareComponent getComponent() {
        return (KafkaFetchShareComponent) super.getComponent();
    }

    @Override
    public Consumer createConsumer(Processor processor) throws Exception {
        KafkaFetchShareConsumer consumer = new KafkaFetchShareConsumer(this, processor, shareSettings());
        configureConsumer(consumer);
        return consumer;
    }

    /** Validates the options and fixes them for the fetch tasks; the message names the faulty option. */
    public ShareSettings shareSettings() {
        return new ShareSettingsFactory(this).build();
    }

    public String getTopic() {
        return topic;
    }

    public void setTopic(String topic) {
        this.topic = topic;
    }

    @Override
    public KafkaFetchShareConfiguration getConfiguration() {
        return configuration;
    }

    public void setConfiguration(KafkaFetchShareConfiguration configuration) {
        this.configuration = configuration;
    }
}
