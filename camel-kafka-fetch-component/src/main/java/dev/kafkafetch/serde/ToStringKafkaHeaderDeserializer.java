package dev.kafkafetch.serde;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Turns every Kafka record header into a String (UTF-8 unless another charset is set), as camel-kafka 4.22's
 * {@code ToStringKafkaHeaderDeserializer} does, so text headers such as {@code traceparent} reach the route as text:
 * {@code headerDeserializer=#class:dev.kafkafetch.serde.ToStringKafkaHeaderDeserializer}. A header without a value
 * stays null.
 */
public class ToStringKafkaHeaderDeserializer implements KafkaHeaderDeserializer {

    private Charset charset;

    public ToStringKafkaHeaderDeserializer() {
        this(StandardCharsets.UTF_8);
    }

    public ToStringKafkaHeaderDeserializer(Charset charset) {
        this.charset = Objects.requireNonNull(charset);
    }

    public Charset getCharset() {
        return charset;
    }

    public void setCharset(Charset charset) {
        this.charset = Objects.requireNonNull(charset);
    }

    @Override
    public Object deserialize(String key, byte[] value) {
        return value == null ? null : new String(value, charset);
    }
}
