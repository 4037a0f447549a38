package dev.kafkafetch.examples;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Runs the example application in this JVM, on free ports (never the defaults 9092/8080, which may be busy), and
 * checks what a user would: records are consumed, the console, health and Prometheus metrics URLs answer over HTTP,
 * and a stop commits what was finished.
 */
class OrdersApplicationTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void embeddedBrokerConsumesAndServesConsoleHealthAndMetrics() throws Exception {
        int kafkaPort = freePort();
        ExampleOptions options = ExampleOptions.defaults().withKafkaPort(kafkaPort).withHttpPort(0).withRate(200);
        OrdersApplication app = OrdersApplication.start(options);
        try {
            assertThat(app.brokers()).isEqualTo("localhost:" + kafkaPort);
            String base = "http://localhost:" + app.httpPort();

            await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                    .until(() -> app.finished(ExampleRoutes.BILLING_ROUTE) >= 300 && app.deadLettersSeen() >= 1);

            HttpResponse<String> text = get(base + "/q/dev/kafka-fetch");
            assertThat(text.statusCode()).isEqualTo(200);
            assertThat(text.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
            assertThat(text.body()).contains("billing", "orders", "dead-letters", "orders.DLT");

            HttpResponse<String> json = get(base + "/q/dev/kafka-fetch?format=json");
            assertThat(json.statusCode()).isEqualTo(200);
            assertThat(json.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
            Object parsed = Jsoner.deserialize(json.body());
            assertThat(parsed).isInstanceOf(JsonObject.class);
            assertThat(json.body()).contains("\"billing\"", "RUNNING");

            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                    .until(() -> get(base + "/q/health").statusCode() == 200);
            HttpResponse<String> health = get(base + "/q/health");
            JsonObject healthJson = (JsonObject) Jsoner.deserialize(health.body());
            assertThat(healthJson.getString("status")).isEqualTo("UP");
            assertThat((java.util.Collection<?>) healthJson.getCollection("checks")).isNotEmpty();
            assertThat(health.body()).contains("route:billing", "consumer:billing");
            assertThat(get(base + "/q/health/ready").statusCode()).isEqualTo(200);
            assertThat(get(base + "/q/health/live").statusCode()).isEqualTo(200);

            // the Prometheus scrape URL: the fetch tasks' meters, read from their snapshots
            HttpResponse<String> metrics = get(base + "/q/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("text/plain; version=0.0.4"));
            assertThat(metrics.body()).contains("kafka_fetch_lag_records{", "kafka_fetch_in_flight_records{",
                    "kafka_fetch_commit_latency_seconds_count{", "kafka_fetch_partition_lag_records{",
                    "routeId=\"billing\"", "routeId=\"dead-letters\"", "groupId=\"billing\"", "topic=\"orders\"");
            assertThat(sampleSum(metrics.body(), "kafka_fetch_records_total", "routeId=\"billing\"",
                    "outcome=\"finished\"")).isGreaterThanOrEqualTo(300);
            assertThat(sampleSum(metrics.body(), "kafka_fetch_records_total", "routeId=\"billing\"",
                    "outcome=\"dead_lettered\"")).isGreaterThanOrEqualTo(1);
            assertThat(sampleSum(metrics.body(), "kafka_fetch_partition_lag_records", "routeId=\"billing\""))
                    .as("per-partition meters (metricsPerPartition in the YAML route)").isNotNaN();
            assertThat(get(base + "/").body()).contains("/q/metrics");

            assertThat(get(base + "/q/dev").body()).contains("/q/dev/kafka-fetch");
            assertThat(get(base + "/q/dev/no-such-console").statusCode()).isEqualTo(404);
        } finally {
            app.close();
        }

        OrdersApplication.StopSummary summary = app.stopSummary();
        assertThat(summary).as("summary after stop").isNotNull();
        // everything finished on orders before the stop is committed by the stop, and nothing beyond what exists (a
        // record sent to a retry topic finished on orders, and counts again when it is routed from there)
        assertThat(summary.committed()).isGreaterThanOrEqualTo(summary.finishedAtStop() - summary.retriedAtStop())
                .isGreaterThan(0);
        assertThat(summary.committed()).isLessThanOrEqualTo(summary.endOffsets());
        assertThat(summary.endOffsets()).isEqualTo(summary.produced());
        assertThat(portIsFree(kafkaPort)).as("embedded broker closed").isTrue();
    }

    @Test
    void existingClusterStartsNoBroker() throws Exception {
        int unusedKafkaPort = freePort();
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().start()) {
            ExampleOptions options = ExampleOptions.parse(new String[] {
                "--brokers", cluster.bootstrapServers(), "--kafka-port", String.valueOf(unusedKafkaPort),
                "--http-port", "0", "--rate", "100", "--partitions", "2" }, new Properties());
            OrdersApplication app = OrdersApplication.start(options);
            try {
                assertThat(app.brokers()).isEqualTo(cluster.bootstrapServers());
                await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                        .until(() -> app.finished(ExampleRoutes.BILLING_ROUTE) >= 50);
                assertThat(portIsFree(unusedKafkaPort)).as("no embedded broker on --kafka-port").isTrue();
                assertThat(get("http://localhost:" + app.httpPort() + "/q/dev/kafka-fetch").body())
                        .contains(cluster.bootstrapServers().split(",")[0].split(":")[1]);
            } finally {
                app.close();
            }
            // as above: a record routed again from a retry topic counts in finishedAtStop once more
            OrdersApplication.StopSummary summary = app.stopSummary();
            assertThat(summary.committed()).isGreaterThanOrEqualTo(summary.finishedAtStop() - summary.retriedAtStop())
                    .isGreaterThan(0);
        }
    }

    @Test
    void optionsFromArgumentsAndSystemProperties() {
        Properties system = new Properties();
        system.setProperty("example.http.port", "18080");
        system.setProperty("example.rate", "7");
        ExampleOptions o = ExampleOptions.parse(new String[] { "--kafka-port=19092", "--duration", "20" }, system);
        assertThat(o.embeddedBroker()).isTrue();
        assertThat(o.kafkaPort()).isEqualTo(19092);
        assertThat(o.httpPort()).isEqualTo(18080);
        assertThat(o.rate()).isEqualTo(7);
        assertThat(o.durationSeconds()).isEqualTo(20);
        assertThat(o.partitions()).isEqualTo(ExampleOptions.DEFAULT_PARTITIONS);

        ExampleOptions d = ExampleOptions.parse(new String[0], new Properties());
        assertThat(List.of(d.kafkaPort(), d.httpPort())).containsExactly(9092, 8080);
        assertThat(d.brokers()).isNull();
        assertThat(ExampleOptions.parse(new String[] { "--brokers", "k1:9092,k2:9092" }, new Properties())
                .embeddedBroker())
                .isFalse();

        assertThatThrownBy(() -> ExampleOptions.parse(new String[] { "--kafka-port", "0" }, new Properties()))
                .hasMessageContaining("--kafka-port");
        assertThatThrownBy(() -> ExampleOptions.parse(new String[] { "--rate", "many" }, new Properties()))
                .hasMessageContaining("--rate");
        assertThat(d.operatorActions()).isFalse();
        assertThat(d.stuckOrder()).isZero();
        ExampleOptions ops = ExampleOptions.parse(new String[] { "--operator-actions", "true", "--stuck-order=500" },
                new Properties());
        assertThat(ops.operatorActions()).isTrue();
        assertThat(ops.stuckOrder()).isEqualTo(500);
        system.setProperty("example.operatorActions", "true");
        assertThat(ExampleOptions.parse(new String[0], system).operatorActions()).isTrue();
        assertThatThrownBy(() -> ExampleOptions.parse(new String[] { "--operator-actions", "yes" }, new Properties()))
                .hasMessageContaining("--operator-actions must be true or false");
        assertThatThrownBy(() -> ExampleOptions.parse(new String[] { "--bogus", "1" }, new Properties()))
                .hasMessageContaining("Unknown option --bogus");
        assertThatThrownBy(() -> ExampleOptions.parse(new String[] { "--duration" }, new Properties()))
                .hasMessageContaining("Missing value for --duration");
    }

    /** The sum of the samples of a metric whose labels contain every given {@code name="value"}; NaN when none. */
    private static double sampleSum(String scrape, String metric, String... labels) {
        double sum = Double.NaN;
        for (String line : scrape.split("\n")) {
            if (!line.startsWith(metric + "{")) {
                continue;
            }
            String labelSet = line.substring(metric.length(), line.lastIndexOf('}') + 1);
            if (List.of(labels).stream().allMatch(labelSet::contains)) {
                double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                sum = Double.isNaN(sum) ? value : sum + value;
            }
        }
        return sum;
    }

    private HttpResponse<String> get(String url) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static boolean portIsFree(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
