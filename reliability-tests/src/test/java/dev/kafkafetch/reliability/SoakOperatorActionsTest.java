package dev.kafkafetch.reliability;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the checker reads an operator's actions from a run's history: a drawn action whose line says it found nothing
 * fails the run (unless the member's own assignment shows it held nothing to pause or park then), and a seek's range reaches past the position the harness read when records of it had started since.
 */
class SoakOperatorActionsTest {

    private static final SoakSchedule ALL_THREE = new SoakSchedule(0, 0, 0,
            List.of(new SoakFault(SoakFault.Kind.PAUSE_PARTITION, 1000, 0, 500),
                    new SoakFault(SoakFault.Kind.OPERATOR_SEEK, 3000, 0, 0),
                    new SoakFault(SoakFault.Kind.OPERATOR_PARK, 5000, 0, 0)),
            new SoakRecordPlan(Map.of()));

    @TempDir
    Path dir;

    @Test
    void aDrawnActionThatFoundNothingIsReportedMissed() throws Exception {
        SoakHistory h = history("""
                L m0.0 100 start in
                L m0.0 200 operator-pause p3
                L m0.0 300 operator-resume p3
                L m0.0 400 operator-seek none
                L m0.0 500 operator-park p1 7
                """, "");

        assertThat(SoakChecker.missedOperatorActions(ALL_THREE, h)).containsExactly("operator-seek 0/1");
    }

    @Test
    void everyDrawnActionCarriedOutMissesNothing() throws Exception {
        SoakHistory h = history("""
                L m0.0 100 start in
                L m0.0 200 operator-pause p3
                L m0.0 400 operator-seek p3 40 50
                L m0.0 500 operator-park p1 7
                """, "");

        assertThat(SoakChecker.missedOperatorActions(ALL_THREE, h)).isEmpty();
    }

    @Test
    void aPauseOrParkOnAMemberItsOwnAssignmentShowsHoldingNothingIsNotMissed() throws Exception {
        // seed 4485142469719003384: one partition, two members; the in-process one held nothing when the pause came
        SoakHistory h = history("""
                L m0.0 100 start in
                L m0.0 400 operator-seek p3 40 50
                L m0.0 900 operator-pause none
                L m0.0 950 operator-park none
                """, """
                G m0.0 150 t#0 1 0
                G m0.0 160 t#1 1 1
                G m0.0 600 t#0 2 -
                G m0.0 610 t#1 2 -
                """);

        assertThat(SoakChecker.missedOperatorActions(ALL_THREE, h)).isEmpty();
    }

    @Test
    void aPauseFindingNothingWhileOneOfTheMembersTasksHeldAPartitionIsMissed() throws Exception {
        SoakHistory h = history("""
                L m0.0 100 start in
                L m0.0 400 operator-seek p3 40 50
                L m0.0 900 operator-pause none
                L m0.0 950 operator-park p1 7
                """, """
                G m0.0 150 t#0 1 0
                G m0.0 160 t#1 1 1
                G m0.0 600 t#0 2 -
                G m0.0 610 t#1 2 1
                G m0.0 920 t#1 3 -
                """);

        assertThat(SoakChecker.missedOperatorActions(ALL_THREE, h)).containsExactly("operator-pause 0/1");
    }

    @Test
    void aSeeksRangeReachesPastRecordsThatStartedBeforeIt() throws Exception {
        SoakHistory h = history("""
                L m0.0 100 start in
                L m0.0 400 operator-seek p3 40 50
                """, """
                S m0.0#1 m0.0 1 350 worker 3 55 55 k1 1 1 0 -
                S m0.0#2 m0.0 2 360 worker 2 90 90 k2 1 1 0 -
                S m0.0#3 m0.0 3 450 worker 3 70 70 k3 1 1 0 -
                """);

        List<SoakHistory.OperatorSeek> seeks = h.operatorSeeks();

        assertThat(seeks).hasSize(1);
        SoakHistory.OperatorSeek seek = seeks.get(0);
        assertThat(seek.partition()).isEqualTo(3);
        assertThat(seek.offset()).isEqualTo(40);
        assertThat(seek.position()).as("offset 55 of p3 started before the seek; 90 is p2's, 70 started after")
                .isEqualTo(56);
        assertThat(seek.span()).isEqualTo(16);
    }

    private SoakHistory history(String harness, String member) throws Exception {
        Files.writeString(dir.resolve("harness.history"), harness, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("m0.0.history"), member, StandardCharsets.UTF_8);
        return new SoakHistory(dir).refresh();
    }
}
