package org.apache.camel.component.kafka.integration.common;

import dev.kafkafetch.KafkaFetchComponent;
import org.apache.camel.CamelContext;
import org.apache.camel.component.kafka.KafkaComponent;

/**
 * The migration step for component-level settings (camel.component.kafka.* to camel.component.kafka-fetch.*): the
 * tests set the brokers (and the health tests preValidateHostAndPort) on their camel-kafka component, this sets the
 * same on a kafka-fetch component.
 */
public final class KafkaFetchCarryOver {

    private KafkaFetchCarryOver() {
    }

    public static void carryOver(CamelContext context, KafkaComponent kafka) {
        KafkaFetchComponent fetch = new KafkaFetchComponent();
        fetch.setCamelContext(context);
        fetch.getConfiguration().setBrokers(kafka.getConfiguration().getBrokers());
        fetch.getConfiguration().setPreValidateHostAndPort(kafka.getConfiguration().isPreValidateHostAndPort());
        context.addComponent("kafka-fetch", fetch);
    }
}
