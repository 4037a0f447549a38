package dev.kafkafetch.it;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.StringDeserializer;

/** A String deserializer that fails on the value {@value #MARKER}, as a deserializer does on a corrupt record. */
public class PoisonMarkerDeserializer extends StringDeserializer {

    public static final String MARKER = "POISON-MARKER";

    @Override
    public String deserialize(String topic, byte[] data) {
        String value = super.deserialize(topic, data);
        if (MARKER.equals(value)) {
            throw new SerializationException("cannot deserialize " + MARKER);
        }
        return value;
    }
}
