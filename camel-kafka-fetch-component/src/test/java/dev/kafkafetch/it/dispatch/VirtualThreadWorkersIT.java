package dev.kafkafetch.it.dispatch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.Java21Runtime;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * With Camel's virtual threads switched on ({@code -Dcamel.threads.virtual.enabled=true}) on a Java 21+ runtime, the
 * workers are virtual threads and the fetch threads stay platform threads, and nothing is lost when a second consumer
 * joins and the first is then killed. The build runs on Java 17, so the consumers are child JVMs on the runtime that
 * {@link Java21Runtime} finds; without one the test is skipped.
 */
class VirtualThreadWorkersIT extends KafkaFetchITSupport {

    private static final int RECORDS = 3000;
    private static final int TASKS = 2;
    private static final int CONCURRENCY = 10;
    private static final int WINDOW = 200;

    @Test
    void workersAreVirtualAndARebalanceAndAKillLoseNothing() throws Exception {
        Optional<Path> java = Java21Runtime.java();
        assumeTrue(java.isPresent(),
                "no Java 21+ runtime: set -D" + Java21Runtime.PROPERTY + " or " + Java21Runtime.ENV);
        String topic = KafkaTestSupport.uniqueName("vt");
        kafka.createTopic(topic, 4);
        List<String> produced = kafka.produceIds(topic, RECORDS, "v", 200);
        String uri = uri(topic, KafkaTestSupport.uniqueName("g"), "consumersCount=" + TASKS
                                                                  + "&maxConcurrency=" + CONCURRENCY
                                                                  + "&ordering=UNORDERED&maxPollRecords=100&maxInFlightRecords="
                                                                  + WINDOW);
        // kept after the run (under target/) so a failure can be read
        Path dir = Files.createDirectories(Path.of("target", "virtual-workers", topic));
        Path outA = dir.resolve("a.out");
        Path outB = dir.resolve("b.out");
        Process a = start(java.get(), uri, topic, outA, dir.resolve("a.log"));
        Process b = null;
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> records(outA).size() >= 300);
            b = start(java.get(), uri, topic, outB, dir.resolve("b.log"));
            await().atMost(Duration.ofSeconds(30)).until(() -> records(outB).size() >= 100);
            // premise: the second consumer took partitions over while the first still had work
            assertThat(seen(outA, outB)).as("records left when B took over").hasSizeLessThan(RECORDS);
            a.destroyForcibly();
            assertThat(a.waitFor(30, TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(40)).until(() -> seen(outA, outB).containsAll(produced));
        } finally {
            stop(a);
            stop(b);
        }
        List<String> all = new ArrayList<>(records(outA));
        all.addAll(records(outB));
        System.out.printf("virtual workers: %d records by A, %d by B, %d duplicates%n", records(outA).size(),
                records(outB).size(), all.size() - new HashSet<>(all).size());
        assertThat(fetchThreads(outA)).as("A's fetch threads that are platform threads").isEqualTo(TASKS);
        assertThat(fetchThreads(outB)).as("B's fetch threads that are platform threads").isEqualTo(TASKS);
        assertThat(all).as("records whose worker was not virtual").allMatch(line -> line.endsWith(" true"));
        Set<String> lost = new HashSet<>(produced);
        lost.removeAll(seen(outA, outB));
        assertThat(lost).isEmpty();
        // re-delivered: at most what A's tasks held uncommitted at the rebalance and again at the kill (each task's
        // window), plus what A finished within one 200 ms commit interval (a 100 ms route: 2 per slot)
        int bound = 2 * TASKS * WINDOW + 2 * TASKS * CONCURRENCY;
        assertThat(all.size() - new HashSet<>(all).size()).as("duplicates").isLessThanOrEqualTo(bound);
    }

    private static Process start(Path java, String uri, String topic, Path out, Path log) throws IOException {
        List<String> cmd = List.of(java.toString(), "-Dcamel.threads.virtual.enabled=true", "-Xmx256m",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                VirtualWorkersChild.class.getName(), uri, topic, out.toString());
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static void stop(Process p) throws InterruptedException {
        if (p != null) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static List<String> lines(Path out) throws IOException {
        return Files.exists(out) ? Files.readAllLines(out) : List.of();
    }

    /** The number of platform fetch threads the child reported, or -1. */
    private static int fetchThreads(Path out) throws IOException {
        for (String line : lines(out)) {
            if (line.startsWith("#fetch-platform ")) {
                return Integer.parseInt(line.substring("#fetch-platform ".length()).trim());
            }
        }
        return -1;
    }

    /** The record lines ({@code id virtual}) of one child. */
    private static List<String> records(Path out) throws IOException {
        List<String> records = new ArrayList<>();
        for (String line : lines(out)) {
            if (!line.startsWith("#") && line.indexOf(' ') > 0) {
                records.add(line);
            }
        }
        return records;
    }

    private static Set<String> seen(Path... outs) throws IOException {
        Set<String> ids = new HashSet<>();
        for (Path out : outs) {
            for (String line : records(out)) {
                ids.add(line.substring(0, line.indexOf(' ')));
            }
        }
        return ids;
    }
}
