package dev.kafkafetch.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the pipeline scenario honest: with tiny counts every contender of both routes must hand every input record to
 * its producer, its output topic must hold every id for a {@code read_committed} reader, and the transacted ones
 * (kafka-fetch transacted, Kafka's transactional loop) each id exactly once; the report must be written. Figures are
 * not checked.
 */
class PipelineScenarioSmokeTest {

    @Test
    @Timeout(240)
    void everyContenderWritesEveryIdAndTheTransactedOnesEachOnce() throws Exception {
        BenchMain.quietLogs();
        Path out = Path.of("target", "bench-smoke-pipeline");
        long records = 200;
        PipelineScenario scenario = new PipelineScenario(Map.of("records", Long.toString(records), "partitions", "2",
                "rounds", "1", "warmups", "0", "verify", "true", "out", out.toString(), "seed", "7"),
                new PrintStream(System.out, true));

        List<Result> results = scenario.run(null);

        assertThat(results).extracting(Result::scenario).contains(PipelineScenario.TRIVIAL, PipelineScenario.SLOW);
        for (Result r : results) {
            assertThat(r.distinct()).as("distinct records routed by %s in %s", r.contender(), r.scenario())
                    .isEqualTo(records);
        }
        assertThat(scenario.outputs()).hasSize(5);
        scenario.outputs().forEach((label, counts) -> {
            assertThat(counts[1]).as("distinct ids in the output of %s", label).isEqualTo(records);
            if (label.startsWith(PipelineScenario.TX) || label.startsWith(PipelineScenario.TX_LOOP)) {
                assertThat(counts[0]).as("outputs of %s (read_committed)", label).isEqualTo(records);
            }
        });
        assertThat(Files.list(out).map(p -> p.getFileName().toString()))
                .anySatisfy(f -> assertThat(f).startsWith("pipeline-").endsWith(".md"));
    }
}
