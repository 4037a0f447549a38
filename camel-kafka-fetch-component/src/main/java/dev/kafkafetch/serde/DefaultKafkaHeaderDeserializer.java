package dev.kafkafetch.serde;

/** Keeps header values as the raw bytes, as camel-kafka does by default. */
public final class DefaultKafkaHeaderDeserializer implements KafkaHeaderDeserializer {

    @Override
    public Object deserialize(String key, byte[] value) {
        return value;
    }
}
