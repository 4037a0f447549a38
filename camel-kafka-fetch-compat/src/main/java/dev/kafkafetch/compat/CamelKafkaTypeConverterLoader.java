package dev.kafkafetch.compat;

import dev.kafkafetch.commit.KafkaManualCommitFactory;
import dev.kafkafetch.serde.KafkaHeaderDeserializer;
import org.apache.camel.TypeConverterLoaderException;
import org.apache.camel.spi.TypeConverterLoader;
import org.apache.camel.spi.TypeConverterRegistry;
import org.apache.camel.support.SimpleTypeConverter;

/**
 * Lets camel-kafka's types be given where a kafka-fetch option takes kafka-fetch's own: a camel-kafka
 * {@code KafkaHeaderDeserializer} (such as a subclass of its {@code DefaultKafkaHeaderDeserializer}) as
 * {@code headerDeserializer}, a camel-kafka {@code KafkaManualCommitFactory} as {@code kafkaManualCommitFactory}. Camel
 * finds it at {@code META-INF/services/org/apache/camel/TypeConverterLoader} and uses it when it binds the options.
 */
public class CamelKafkaTypeConverterLoader implements TypeConverterLoader {

    @Override
    public void load(TypeConverterRegistry registry) throws TypeConverterLoaderException {
        registry.addTypeConverter(KafkaHeaderDeserializer.class,
                org.apache.camel.component.kafka.serde.KafkaHeaderDeserializer.class,
                new SimpleTypeConverter(false, (type, exchange, value) -> {
                    org.apache.camel.component.kafka.serde.KafkaHeaderDeserializer theirs = (org.apache.camel.component.kafka.serde.KafkaHeaderDeserializer) value;
                    return (KafkaHeaderDeserializer) theirs::deserialize;
                }));
        registry.addTypeConverter(KafkaManualCommitFactory.class,
                org.apache.camel.component.kafka.consumer.KafkaManualCommitFactory.class,
                new SimpleTypeConverter(false, (type, exchange, value) -> new CamelKafkaManualCommitFactoryAdapter(
                        (org.apache.camel.component.kafka.consumer.KafkaManualCommitFactory) value)));
    }
}
