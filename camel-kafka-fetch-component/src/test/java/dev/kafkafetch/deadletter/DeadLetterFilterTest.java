package dev.kafkafetch.deadletter;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeadLetterFilterTest {

    private static DeadLetter letter(String topic, int partition, long offset, String reason, String exceptionClass,
                                     String message, long time) {
        return new DeadLetter("t.dlt", 0, 7, time, "k", 3, topic, partition, offset, time - 10, "g", reason,
                exceptionClass, message, 1, null);
    }

    @Test
    void everySetFieldMustMatch() {
        DeadLetter l = letter("orders", 2, 40, "parked", "dev.kafkafetch.error.ParkedException", "parked by alice",
                1_000);
        assertThat(DeadLetterFilter.ALL.matches(l)).isTrue();
        assertThat(DeadLetterFilter.parse("topic=orders,partition=2,reason=PARKED").matches(l)).isTrue();
        assertThat(DeadLetterFilter.parse("topic=orders&partition=3").matches(l)).isFalse();
        assertThat(DeadLetterFilter.parse("topic=other").matches(l)).isFalse();
        assertThat(DeadLetterFilter.parse("fromOffset=40,toOffset=40").matches(l)).isTrue();
        assertThat(DeadLetterFilter.parse("offset=41").matches(l)).isFalse();
        assertThat(DeadLetterFilter.parse("fromOffset=41").matches(l)).isFalse();
        assertThat(DeadLetterFilter.parse("exception=ALICE").matches(l)).as("the message").isTrue();
        assertThat(DeadLetterFilter.parse("exception=ParkedExc").matches(l)).as("the class").isTrue();
        assertThat(DeadLetterFilter.parse("exception=bob").matches(l)).isFalse();
        assertThat(DeadLetterFilter.parse("since=1000,until=1000").matches(l)).isTrue();
        assertThat(DeadLetterFilter.parse("since=1970-01-01T00:00:01.001Z").matches(l)).isFalse();
        assertThat(DeadLetterFilter.parse("until=999").matches(l)).isFalse();
    }

    @Test
    void aLetterWithoutProvenanceMatchesOnlyFiltersThatDoNotAskForIt() {
        DeadLetter foreign = new DeadLetter("t.dlt", 0, 1, 5, null, 0, null, -1, -1, -1, null, null, null, null, -1,
                null);
        assertThat(DeadLetterFilter.ALL.matches(foreign)).isTrue();
        assertThat(DeadLetterFilter.parse("partition=0").matches(foreign)).isFalse();
        assertThat(DeadLetterFilter.parse("toOffset=10").matches(foreign)).isFalse();
        assertThat(DeadLetterFilter.parse("reason=failed").matches(foreign)).isFalse();
    }

    @Test
    void parsesBackWhatItPrintsAndNamesBadFields() {
        DeadLetterFilter f = DeadLetterFilter.parse(" topic=a , partition=1,reason=failed,limit=5,since=10 ");
        assertThat(f.limit()).isEqualTo(5);
        assertThat(f.since()).isEqualTo(Instant.ofEpochMilli(10));
        assertThat(DeadLetterFilter.parse(f.toString())).isEqualTo(f);
        assertThat(DeadLetterFilter.parse("")).isEqualTo(DeadLetterFilter.ALL);
        assertThat(DeadLetterFilter.ALL).hasToString("all");
        assertThatThrownBy(() -> DeadLetterFilter.parse("colour=red")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("colour").hasMessageContaining("partition");
        assertThatThrownBy(() -> DeadLetterFilter.parse("partition=x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partition: x");
        assertThatThrownBy(() -> DeadLetterFilter.parse("reason")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name=value");
    }
}
