package dev.kafkafetch;

import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.annotations.Component;

/**
 * The {@code kafka-fetch} component: consumes Kafka topics into Camel routes with dedicated fetch tasks, commits only
 * finished work, and processes records in parallel inside a bounded window.
 * <p>
 * It holds a {@link KafkaFetchConfiguration} whose every option can be set once for an application
 * ({@code camel.component.kafka-fetch.<option>}); each endpoint gets a copy, and the endpoint URI's options override
 * it. {@code additionalProperties} merge: the endpoint's entries are added to the component's. What it shares with
 * the share groups' component is {@link AbstractKafkaFetchComponent}'s.
 */
@Component("kafka-fetch")
public class KafkaFetchComponent extends AbstractKafkaFetchComponent<KafkaFetchConfiguration, KafkaFetchEndpoint> {

    @Metadata(description = "Options every kafka-fetch endpoint starts from; an endpoint's own options override them.")
    private KafkaFetchConfiguration configuration = new KafkaFetchConfiguration();
    @Metadata(label = "consumer,advanced", defaultValue = "false",
              description = "camel-kafka's check that the topics exist before subscribing. Not supported: a route"
                            + " with it set to true fails to start; create the topics beforehand (consumers never"
                            + " create topics unless additionalProperties.allow.auto.create.topics=true).")
    private boolean subscribeConsumerTopicMustExists;

    public KafkaFetchComponent() {
        super("kafka-fetch");
    }

    @Override
    protected KafkaFetchEndpoint newEndpoint(String uri, String topic, KafkaFetchConfiguration configuration) {
        KafkaFetchEndpoint endpoint = new KafkaFetchEndpoint(uri, this);
        endpoint.setConfiguration(configuration);
        endpoint.setTopic(topic);
        return endpoint;
    }

    @Override
    protected String exampleUri() {
        return "kafka-fetch:orders?brokers=...";
    }

    public boolean isSubscribeConsumerTopicMustExists() {
        return subscribeConsumerTopicMustExists;
    }

    public void setSubscribeConsumerTopicMustExists(boolean subscribeConsumerTopicMustExists) {
        this.subscribeConsumerTopicMustExists = subscribeConsumerTopicMustExists;
    }

    @Override
    public KafkaFetchConfiguration getConfiguration() {
        return configuration;
    }

    public void setConfiguration(KafkaFetchConfiguration configuration) {
        this.configuration = configuration;
    }
}
