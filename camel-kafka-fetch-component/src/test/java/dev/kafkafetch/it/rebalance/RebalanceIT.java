package dev.kafkafetch.it.rebalance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.HealthCheckRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Rebalances while records flow: two members share 6 partitions, a third joins, one leaves, a producer never stops.
 * Nothing is lost, and the only duplicates are records still running when a revoke stopped waiting for them: at most
 * {@code maxConcurrency} per rebalance a member saw (the revoke commits what finished, the offset map what finished
 * above the first unfinished), counted from the members' own task snapshots. The same with the cooperative sticky
 * assignor and with the KIP-848 consumer group protocol. Health stays UP throughout.
 */
class RebalanceIT extends KafkaFetchITSupport {

    private static final int MAX_POLL_RECORDS = 50;
    private static final int MAX_CONCURRENCY = 4;

    @Test
    void joinAndLeaveWithTheDefaultAssignors() throws Exception {
        joinAndLeave("");
    }

    @Test
    void joinAndLeaveWithTheCooperativeStickyAssignor() throws Exception {
        joinAndLeave("partitionAssignor=org.apache.kafka.clients.consumer.CooperativeStickyAssignor");
    }

    @Test
    void joinAndLeaveWithTheConsumerGroupProtocol() throws Exception {
        joinAndLeave("groupProtocol=consumer");
    }

    private void joinAndLeave(String extra) throws Exception {
        String topic = KafkaTestSupport.uniqueName("rebalance");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 6);
        String options = "maxPollRecords=" + MAX_POLL_RECORDS + "&maxInFlightRecords=200&maxConcurrency="
                         + MAX_CONCURRENCY
                         + "&pollTimeoutMs=500" + (extra.isEmpty() ? "" : "&" + extra);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        Recorder c = new Recorder();
        CamelContext ctxA = member(uri(topic, group, options), "a", a);
        CamelContext ctxB = member(uri(topic, group, options), "b", b);

        List<String> produced = new CopyOnWriteArrayList<>();
        AtomicBoolean producing = new AtomicBoolean(true);
        List<Throwable> producerErrors = new CopyOnWriteArrayList<>();
        long rebalancesOfB;
        CamelContext ctxC;
        Thread producer = new Thread(() -> {
            int batch = 0;
            try {
                while (producing.get()) {
                    produced.addAll(kafka.produceIds(topic, 20, "b" + batch++, 12));
                    Thread.sleep(10);
                }
            } catch (Throwable t) {
                producerErrors.add(t);
            }
        }, "rebalance-producer");
        producer.start();
        // flapping check: readiness and liveness are sampled all along, and must never be DOWN
        List<String> downs = new CopyOnWriteArrayList<>();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                for (CamelContext ctx : List.of(ctxA, ctxB)) {
                    if (ctx.isStarted()) {
                        sample(ctx, downs);
                    }
                }
                sleep(100);
            }
        }, "health-sampler");
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> a.count() > 300 && b.count() > 300);
            sampler.start();

            // a third member joins
            ctxC = member(uri(topic, group, options), "c", c);
            await().atMost(Duration.ofSeconds(60)).until(() -> c.count() > 300);
            await().atMost(Duration.ofSeconds(30)).until(() -> assigned(ctxA) + assigned(ctxB) + assigned(ctxC) == 6
                                                               && assigned(ctxC) > 0);
            int aBefore = a.count();
            int cBefore = c.count();

            // one leaves (commits what it finished, its partitions move on)
            rebalancesOfB = rebalances(ctxB);
            ctxB.stop();
            await().atMost(Duration.ofSeconds(60)).until(() -> assigned(ctxA) + assigned(ctxC) == 6);
            await().atMost(Duration.ofSeconds(60)).until(() -> a.count() > aBefore + 300 && c.count() > cBefore + 300);
            sampling.set(false);
            sampler.join(5000);
            for (CamelContext ctx : List.of(ctxA, ctxC)) {
                sample(ctx, downs);
            }
        } finally {
            sampling.set(false);
            producing.set(false);
            producer.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertThat(producerErrors).isEmpty();

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> seen(a, b, c).containsAll(produced));
        Thread.sleep(1000); // give a late duplicate time to show up
        List<String> all = new ArrayList<>();
        for (Recorder r : List.of(a, b, c)) {
            r.all().forEach(s -> all.add(s.id()));
        }
        Set<String> unique = new HashSet<>();
        List<String> duplicates = new ArrayList<>();
        for (String id : all) {
            if (!unique.add(id)) {
                duplicates.add(id);
            }
        }
        long rebalances = rebalances(ctxA) + rebalancesOfB + rebalances(ctxC);
        long bound = rebalances * MAX_CONCURRENCY;
        Set<String> lost = new HashSet<>(produced);
        lost.removeAll(unique);
        System.out.printf(
                "Rebalance [%s]: produced %d, delivered %d (a %d, b %d, c %d), lost %d, duplicates %d (bound rebalances %d x maxConcurrency %d = %d)%n",
                extra.isEmpty() ? "default" : extra, produced.size(), all.size(), a.count(), b.count(), c.count(),
                lost.size(), duplicates.size(), rebalances, MAX_CONCURRENCY, bound);
        for (String dup : new HashSet<>(duplicates)) {
            for (Recorder r : List.of(a, b, c)) {
                r.all().stream().filter(x -> x.id().equals(dup)).forEach(x -> System.out.printf(
                        "  duplicate %s seen by %s at %d/%d%n", dup, x.thread(), x.partition(), x.offset()));
            }
        }
        assertThat(lost).as("lost").isEmpty();
        assertThat(unique).hasSize(produced.size());
        assertThat(rebalances).as("rebalances the members saw (the join and the leave, at least)")
                .isGreaterThanOrEqualTo(2);
        assertThat((long) duplicates.size()).as("duplicates " + duplicates).isLessThanOrEqualTo(bound);
        assertThat(downs).as("health checks DOWN during a normal rebalance").isEmpty();
    }

    private CamelContext member(String uri, String name, Recorder recorder) throws Exception {
        CamelContext context = newContext();
        HealthCheckRegistry registry = HealthCheckRegistry.get(context);
        registry.register(registry.resolveById("consumers"));
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("member-" + name).process(exchange -> Thread.sleep(1)).process(recorder);
            }
        });
        context.start();
        return context;
    }

    private static int assigned(CamelContext context) {
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoutes().get(0).getConsumer();
        return consumer.taskSnapshots().stream().mapToInt(s -> s.partitions().size()).sum();
    }

    /** Assignments, revocations and losses seen by the member's fetch tasks. */
    private static long rebalances(CamelContext context) {
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoutes().get(0).getConsumer();
        return consumer.taskSnapshots().stream().mapToLong(s -> s.rebalances()).sum();
    }

    private static void sample(CamelContext ctx, List<String> downs) {
        for (HealthCheck.Result r : HealthCheckHelper.invokeReadiness(ctx)) {
            if (r.getCheck().getId().startsWith("consumer:") && r.getState() == HealthCheck.State.DOWN) {
                downs.add("readiness " + ctx.getName() + ": " + r.getMessage().orElse("") + " "
                          + Map.copyOf(r.getDetails()));
            }
        }
        for (HealthCheck.Result r : HealthCheckHelper.invokeLiveness(ctx)) {
            if (r.getCheck().getId().startsWith("consumer:") && r.getState() == HealthCheck.State.DOWN) {
                downs.add("liveness " + ctx.getName() + ": " + r.getMessage().orElse(""));
            }
        }
    }

    private static Set<String> seen(Recorder... recorders) {
        Set<String> ids = new HashSet<>();
        for (Recorder r : recorders) {
            ids.addAll(r.ids());
        }
        return ids;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
