package dev.kafkafetch.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A scenario that fails costs its own figures, not the whole run's: the run goes on and the results name it. */
class HarnessFailureTest {

    @Test
    void aFailingScenarioIsNamedInTheResultsAndTheNextOneStillRuns() throws Exception {
        BenchConfig cfg = BenchConfig.smoke();
        cfg.scenarios = new TreeSet<>(List.of(0, 8)); // there is no scenario 0; 8 (Camel alone) needs no broker
        cfg.arguments = "--smoke --scenarios 0,8";
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (KafkaSetup nowhere = new KafkaSetup("localhost:1")) {
            Harness harness = new Harness(cfg, nowhere, new PrintStream(log, true, StandardCharsets.UTF_8));

            List<Result> results = harness.run();

            assertThat(harness.failures()).containsExactly(
                    "S0: java.lang.IllegalArgumentException: No scenario 0");
            assertThat(results).isNotEmpty().allMatch(r -> r.scenario().equals(Harness.S8));
            assertThat(log.toString(StandardCharsets.UTF_8)).contains("scenario 0 FAILED");
            assertThat(new Report(results, cfg, "none", "0", harness.failures()).markdown("plot.png"))
                    .contains("* **Failed, no figures:** S0: java.lang.IllegalArgumentException: No scenario 0")
                    .contains("* Command: `benchmarks/run.sh --smoke --scenarios 0,8`");
        }
    }
}
