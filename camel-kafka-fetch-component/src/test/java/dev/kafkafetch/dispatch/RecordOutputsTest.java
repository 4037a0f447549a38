package dev.kafkafetch.dispatch;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A record's held sends: sealed, nothing more joins; sealed with a dead letter, the letter is its only output, whatever
 * the route sent before or tries to send after.
 */
class RecordOutputsTest {

    private static ProducerRecord<byte[], byte[]> record(String topic) {
        return new ProducerRecord<>(topic, new byte[] { 1 }, new byte[] { 2 });
    }

    @Test
    void sealingHandsOverWhatWasHeldAndRefusesLaterSends() {
        RecordOutputs outputs = new RecordOutputs();
        ProducerRecord<byte[], byte[]> out = record("out");
        outputs.add(out);
        assertThat(outputs.seal()).containsExactly(out);
        assertThat(outputs.holdsLetter()).isFalse();
        assertThatThrownBy(() -> outputs.add(record("out"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("finished already");
        assertThat(outputs.seal()).isEmpty();
    }

    @Test
    void aDeadLetterReplacesTheRoutesSendsAndIsHandedOverOnce() {
        RecordOutputs outputs = new RecordOutputs();
        outputs.add(record("out")); // sent before the record failed: dropped
        ProducerRecord<byte[], byte[]> letter = record("dlt");
        outputs.sealWithLetter(letter);
        assertThat(outputs.holdsLetter()).isTrue();
        // a stalled execution still running cannot add to it
        assertThatThrownBy(() -> outputs.add(record("out"))).isInstanceOf(IllegalStateException.class);
        assertThat(outputs.seal()).containsExactly(letter);
        assertThat(outputs.seal()).as("handed over once").isEmpty();
    }
}
