package dev.kafkafetch.reliability;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 5: a route slower than {@code max.poll.interval.ms} for some records ({@code maxPollIntervalMs=2000},
 * every 50th record takes 3 s). The fetch thread keeps polling while the route works, so the consumer is never kicked
 * out of its group (its generation does not change), nothing is lost and nothing is re-delivered.
 */
class SlowRouteIT extends ReliabilityITSupport {

    private static final int MAX_POLL_INTERVAL_MS = 2000;
    private static final int SLOW_EVERY = 50;
    private static final int SLOW_MS = 3000;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { SERIAL, PARALLEL })
    void routeSlowerThanMaxPollIntervalKeepsItsMembership(String variant) throws Exception {
        boolean serial = maxConcurrency(variant) == 1;
        int records = serial ? Knobs.get("slow.records.serial", 250, 1500) : Knobs.get("slow.records", 1000, 10000);
        String topic = KafkaTestSupport.uniqueName("slow");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 4);
        IdProducer producer = closeLater(new IdProducer(KAFKA.bootstrapServers(), topic, "slow", KEYS));
        Finished finished = new Finished();
        AtomicInteger slow = new AtomicInteger();
        String uri = uri(KAFKA.bootstrapServers(), topic, group, variant,
                "maxPollIntervalMs=" + MAX_POLL_INTERVAL_MS);
        CamelContext context = newContext();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("slow").process(e -> {
                    String id = e.getMessage().getBody(String.class);
                    long n = Long.parseLong(id.substring(id.lastIndexOf('-') + 1));
                    if (n % SLOW_EVERY == SLOW_EVERY - 1) {
                        slow.incrementAndGet();
                        Thread.sleep(SLOW_MS);
                    } else {
                        Thread.sleep(routeSleepMs(variant));
                    }
                }).process(finished);
            }
        });
        context.start();
        // wait for the first assignment, then remember the generation
        assertThat(waitFor(Duration.ofSeconds(60), () -> {
            List<TaskSnapshot> s = snapshots(context, "slow");
            return !s.isEmpty() && s.get(0).generation() > 0 && !s.get(0).partitions().isEmpty();
        })).as("assigned").isTrue();
        TaskSnapshot first = snapshots(context, "slow").get(0);
        int generation = first.generation();
        long rebalances = first.rebalances();

        producer.backlog(records);
        Map<String, IdProducer.Position> produced = producer.acked();
        long drain = (long) records / SLOW_EVERY * SLOW_MS / (serial ? 1000 : 4000) + 60;
        awaitAll(finished, produced.keySet(), Duration.ofSeconds(drain));
        TaskSnapshot last = snapshots(context, "slow").get(0);

        Reliability.of("slow-route", variant, produced, finished.all()).faults(slow.get())
                .dupBound("0(no-rebalance-so-no-re-delivery)", 0)
                .note("maxPollIntervalMs=" + MAX_POLL_INTERVAL_MS + " slowMs=" + SLOW_MS + " generation=" + generation
                      + "->" + last.generation())
                .diagnostics(() -> offsets(kafka, group, topic) + "  tasks " + snapshots(context, "slow") + "\n")
                .verify();
        assertThat(slow.get()).as("records slower than max.poll.interval.ms").isGreaterThanOrEqualTo(5);
        assertThat(last.generation()).as("group generation (not kicked out)").isEqualTo(generation);
        assertThat(last.rebalances()).as("rebalances seen by the task").isEqualTo(rebalances);
        assertThat(last.lastError()).as("last error of the task").isNull();
    }
}
