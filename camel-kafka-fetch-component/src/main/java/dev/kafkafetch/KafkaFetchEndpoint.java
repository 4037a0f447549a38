package dev.kafkafetch;

import dev.kafkafetch.task.TaskSettings;
import dev.kafkafetch.tx.KafkaFetchProducer;
import org.apache.camel.Category;
import org.apache.camel.Consumer;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.UriEndpoint;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriPath;

/**
 * Consume Kafka topics with dedicated fetch tasks that commit only finished records and process slow routes in
 * parallel inside a bounded window.
 * <p>
 * The endpoint holds the topic and its {@link KafkaFetchConfiguration} (a copy of the component's, with the URI's
 * options set on it); the options are validated when the route starts ({@link #taskSettings()}). Consumer only;
 * options shared with camel-kafka keep camel-kafka 4.22's names, defaults and meaning.
 */
@UriEndpoint(firstVersion = "0.1.0", scheme = "kafka-fetch", title = "Kafka Fetch", syntax = "kafka-fetch:topic",
             category = { Category.MESSAGING }, headersClass = KafkaFetchConstants.class)
public class KafkaFetchEndpoint extends AbstractKafkaFetchEndpoint {

    @UriPath(label = "common")
    @Metadata(required = true,
              description = "Name of the topic to consume. Multiple topics can be separated by comma; with"
                            + " topicIsPattern=true a regular expression.")
    private String topic;
    @UriParam
    private KafkaFetchConfiguration configuration = new KafkaFetchConfiguration();

    public KafkaFetchEndpoint(String endpointUri, KafkaFetchComponent component) {
        super(endpointUri, component);
    }

    @Override
    public KafkaFetchComponent getComponent() {
        return (KafkaFetchComponent) super.getComponent();
    }

    @Override
    public Consumer createConsumer(Processor processor) throws Exception {
        KafkaFetchConsumer consumer = new KafkaFetchConsumer(this, processor, taskSettings());
        configureConsumer(consumer);
        return consumer;
    }

    /** Sends into the transaction of the transacted kafka-fetch consumer whose record the exchange carries. */
    @Override
    public Producer createProducer() {
        return new KafkaFetchProducer(this, topic);
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

    @Override
    public KafkaFetchConfiguration getConfiguration() {
        return configuration;
    }

    public void setConfiguration(KafkaFetchConfiguration configuration) {
        this.configuration = configuration;
    }
}
