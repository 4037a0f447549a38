package dev.kafkafetch;

import org.apache.camel.Producer;
import org.apache.camel.spi.HeaderFilterStrategy;
import org.apache.camel.spi.HeaderFilterStrategyAware;
import org.apache.camel.spi.UriParam;
import org.apache.camel.support.DefaultEndpoint;

/**
 * What both schemes' endpoints share: a producer is refused, pointing to camel-kafka (kafka-fetch overrides that with
 * its transactional producer), the client
 * factory of the endpoint with its fallback to the component's, and the header filter strategy, which is the
 * configuration's. Each scheme's endpoint holds its topic and its configuration.
 */
public abstract class AbstractKafkaFetchEndpoint extends DefaultEndpoint implements HeaderFilterStrategyAware {

    @UriParam(label = "advanced",
              description = "Factory creating this endpoint's Kafka consumers and dead-letter producer (instead of the"
                            + " component's kafkaClientFactory).")
    private KafkaClientFactory kafkaClientFactory;

    protected AbstractKafkaFetchEndpoint(String endpointUri, AbstractKafkaFetchComponent<?, ?> component) {
        super(endpointUri, component);
    }

    /** The endpoint's options: a copy of the component's, with the URI's set on it. */
    public abstract KafkaFetchClientConfiguration getConfiguration();

    @Override
    public AbstractKafkaFetchComponent<?, ?> getComponent() {
        return (AbstractKafkaFetchComponent<?, ?>) super.getComponent();
    }

    @Override
    public Producer createProducer() {
        throw new UnsupportedOperationException(
                getComponent().scheme() + " is a consumer only: to send records to Kafka"
                                                + " use camel-kafka's kafka: endpoint");
    }

    public KafkaClientFactory getKafkaClientFactory() {
        return kafkaClientFactory;
    }

    public void setKafkaClientFactory(KafkaClientFactory kafkaClientFactory) {
        this.kafkaClientFactory = kafkaClientFactory;
    }

    /** The factory the consumer uses: the endpoint's, else the component's, else the plain Kafka clients. */
    public KafkaClientFactory kafkaClientFactory() {
        if (kafkaClientFactory != null) {
            return kafkaClientFactory;
        }
        KafkaClientFactory fromComponent = getComponent().getKafkaClientFactory();
        return fromComponent != null ? fromComponent : KafkaClientFactory.DEFAULT;
    }

    @Override
    public HeaderFilterStrategy getHeaderFilterStrategy() {
        return getConfiguration().getHeaderFilterStrategy();
    }

    @Override
    public void setHeaderFilterStrategy(HeaderFilterStrategy headerFilterStrategy) {
        getConfiguration().setHeaderFilterStrategy(headerFilterStrategy);
    }
}
