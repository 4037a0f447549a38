package dev.kafkafetch.serde;

import org.apache.camel.support.DefaultHeaderFilterStrategy;

/** The default header filter: Camel's own headers neither leave nor enter through Kafka record headers. */
public class KafkaFetchHeaderFilterStrategy extends DefaultHeaderFilterStrategy {

    public KafkaFetchHeaderFilterStrategy() {
        setOutFilterStartsWith(CAMEL_FILTER_STARTS_WITH);
        setInFilterStartsWith(CAMEL_FILTER_STARTS_WITH);
    }
}
