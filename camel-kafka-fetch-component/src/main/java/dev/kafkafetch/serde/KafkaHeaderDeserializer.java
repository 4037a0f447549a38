package dev.kafkafetch.serde;

/** Turns a Kafka record header's bytes into the value of the Camel message header of the same name. */
@FunctionalInterface
public interface KafkaHeaderDeserializer {

    Object deserialize(String key, byte[] value);
}
