package dev.kafkafetch.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the harness from rotting: every scenario with tiny record counts against an embedded broker, every contender
 * must deliver every record (distinct partition/offset pairs), and the reports must be written. Figures are not
 * checked (speed is never asserted by a test).
 */
class BenchmarkSmokeTest {

    @Test
    @Timeout(240)
    void everyScenarioAndContenderConsumesEveryRecord() throws Exception {
        BenchMain.quietLogs();
        BenchConfig cfg = BenchConfig.smoke();
        cfg.out = Path.of("target", "bench-smoke");

        List<Result> results = BenchMain.run(cfg, null, System.out);

        assertThat(results.stream().map(r -> r.scenario().substring(0, 2)).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8");
        Set<String> kinds = results.stream().map(r -> r.spec().kind()).collect(Collectors.toSet());
        assertThat(kinds).contains(ContenderSpec.KAFKA_FETCH, ContenderSpec.CAMEL_KAFKA, ContenderSpec.PLAIN_LOOP,
                ContenderSpec.PARALLEL_CONSUMER);
        for (Result r : results) {
            assertThat(r.consumed()).as("records seen by %s in %s (%s)", r.contender(), r.scenario(), r.metric())
                    .isGreaterThanOrEqualTo(r.expected());
            if (r.distinct() >= 0) {
                assertThat(r.distinct())
                        .as("distinct records seen by %s in %s (%s)", r.contender(), r.scenario(), r.metric())
                        .isEqualTo(r.expected());
            }
            assertThat(r.values()).as("%s %s %s", r.scenario(), r.contender(), r.metric()).isNotEmpty()
                    .allSatisfy(v -> assertThat(v).isNotNaN());
        }
        assertThat(Files.list(cfg.out).map(p -> p.getFileName().toString()).collect(Collectors.toList()))
                .contains("scenario3.png")
                .anySatisfy(f -> assertThat(f).startsWith("results-").endsWith(".md"))
                .anySatisfy(f -> assertThat(f).startsWith("results-").endsWith(".csv"));
    }
}
