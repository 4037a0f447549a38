package dev.kafkafetch.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BurstTimelineTest {

    @Test
    void theSlotsFillWhenTheirLastOneTakesARecord() throws Exception {
        BurstTimeline timeline = new BurstTimeline(4);
        int first = timeline.started();
        int second = timeline.started();
        Thread.sleep(20);
        int third = timeline.started();
        timeline.ended(first);
        timeline.ended(second);
        timeline.ended(third);

        assertThat(timeline.filledAfterMs(2)).isLessThan(20);
        assertThat(timeline.filledAfterMs(3)).isGreaterThanOrEqualTo(20);
        assertThat(timeline.filledAfterMs(4)).as("fewer records than slots").isNaN();
        assertThat(timeline.summary(2, 10)).startsWith("3 records on 1 threads, the 2-th started after")
                .contains("peak 3 at once").contains("hand-off");
    }

    @Test
    void recordsBeyondTheBurstAreNotRecorded() {
        BurstTimeline timeline = new BurstTimeline(1);
        assertThat(timeline.started()).isZero();
        assertThat(timeline.started()).isEqualTo(-1);
        timeline.ended(-1); // ignored
        assertThat(timeline.filledAfterMs(1)).isZero();
    }
}
