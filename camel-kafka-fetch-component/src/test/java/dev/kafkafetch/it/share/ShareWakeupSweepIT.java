package dev.kafkafetch.it.share;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaClientFactory;
import dev.kafkafetch.share.KafkaFetchShareConstants;
import dev.kafkafetch.share.KafkaFetchShareConsumer;
import dev.kafkafetch.task.TaskState;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The share task's wakeup rule ({@code ShareClient}) on the real broker: a wakeup at any call the task makes on its
 * KafkaShareConsumer leaves no acknowledgement and no lock renewal half-done. One scenario (one member, a 2 s lock,
 * twelve records, the first running 1.5 s so its lock is renewed, one failing on its first delivery and released,
 * then a stop) runs once to count the task's calls per method, then once per chosen call (the first, the second and
 * the middle one of the counting run) and way of injecting (all three ways with {@code -DshareSweep.full=true}; by
 * default each chosen call and each way at least once, paired in turn): STRAY (a real {@code wakeup()} just before the call, which
 * the real consumer throws wherever it would), BEFORE (the call throws {@link WakeupException} instead of running,
 * stricter than Kafka for the calls a real consumer never interrupts) and AFTER (the call runs, then throws: its
 * result is lost; for the calls that send something). Every run must see the injection happen, route every record
 * once successfully (the failing one on its second delivery), keep its task running, stop, and leave the share group
 * with every record acknowledged (the group's share-partition lag is 0).
 */
class ShareWakeupSweepIT extends ShareITSupport {

    private static final int RECORDS = 12;
    private static final Set<String> SENDING = Set.of("commitSync", "close", "subscribe");

    enum Mode {
        STRAY,
        BEFORE,
        AFTER
    }

    @Test
    void aWakeupAtAnyCallOfTheShareTaskLeavesNothingHalfDone() throws Exception {
        Map<String, Integer> calls = new Scenario(null, 0, null).run();
        List<String> failures = new ArrayList<>();
        int runs = 0;
        String only = System.getProperty("shareSweep.method"); // to re-run one method's calls by hand
        boolean full = Boolean.getBoolean("shareSweep.full");
        for (Map.Entry<String, Integer> e : calls.entrySet()) {
            if (e.getKey().equals("wakeup") || only != null && !only.equals(e.getKey())) {
                continue; // the stop's own wakeup
            }
            List<Integer> nths = List.copyOf(
                    new TreeSet<>(List.of(1, Math.min(2, e.getValue()), (e.getValue() + 1) / 2)));
            List<Mode> modes = new ArrayList<>(List.of(Mode.values()));
            if (!SENDING.contains(e.getKey())) {
                modes.remove(Mode.AFTER);
            }
            for (int[] pick : picks(nths.size(), modes.size(), full)) {
                int nth = nths.get(pick[0]);
                Mode mode = modes.get(pick[1]);
                runs++;
                try {
                    new Scenario(e.getKey(), nth, mode).run();
                } catch (AssertionError | Exception failure) {
                    failures.add(mode + " " + e.getKey() + "#" + nth + ": " + failure.getMessage());
                }
            }
        }
        System.out.printf("share wakeup sweep: %d runs over the task's calls %s; failures %s%n", runs, calls,
                failures);
        assertThat(calls).as("the counting run's calls").containsKeys("poll", "acknowledge", "commitSync", "close");
        assertThat(runs).as("runs (calls per method: %s)", calls).isGreaterThan(only == null ? calls.size() : 0);
        assertThat(failures).as("runs with a wakeup injected that left something half-done").isEmpty();
    }

    /**
     * Which (nth call, way) pairs to run, as indexes: all of them when {@code full}, else each nth and each way at
     * least once, paired in turn.
     */
    private static List<int[]> picks(int nths, int modes, boolean full) {
        List<int[]> picks = new ArrayList<>();
        if (full) {
            for (int n = 0; n < nths; n++) {
                for (int m = 0; m < modes; m++) {
                    picks.add(new int[] { n, m });
                }
            }
        } else {
            for (int i = 0; i < Math.max(nths, modes); i++) {
                picks.add(new int[] { i % nths, i % modes });
            }
        }
        return picks;
    }

    /** One run of the scenario, with one call's wakeup injected (or none). */
    private final class Scenario implements KafkaClientFactory {
        private final String method;
        private final int nth;
        private final Mode mode;
        private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        private final AtomicBoolean fired = new AtomicBoolean();

        Scenario(String method, int nth, Mode mode) {
            this.method = method;
            this.nth = nth;
            this.mode = mode;
        }

        Map<String, Integer> run() throws Exception {
            String where = method == null ? "no wakeup" : mode + " wakeup at " + method + "#" + nth;
            String topic = KafkaTestSupport.uniqueName("share-wakeup");
            String group = KafkaTestSupport.uniqueName("sg");
            kafka.createTopic(topic, 1);
            prepareGroup(group, 2000);
            List<String> produced = kafka.produceIds(topic, RECORDS, "w", 1);
            String slow = produced.get(0);
            String failing = produced.get(5);
            Map<String, List<Integer>> successes = new ConcurrentHashMap<>();
            List<Integer> failed = new CopyOnWriteArrayList<>();
            CamelContext context = newContext();
            context.getRegistry().bind("sweep", this);
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from(shareUri(topic, group,
                            "consumersCount=1&consumersPerWindow=1&maxConcurrency=2&maxPollRecords=4&kafkaClientFactory=#sweep"))
                            .process(exchange -> {
                                String id = exchange.getMessage().getBody(String.class);
                                int delivery = exchange.getMessage()
                                        .getHeader(KafkaFetchShareConstants.DELIVERY_COUNT, Integer.class);
                                if (id.equals(failing) && delivery == 1) {
                                    failed.add(delivery);
                                    throw new IllegalStateException("the first delivery of " + id + " fails");
                                }
                                Thread.sleep(id.equals(slow) ? 1500 : 10);
                                successes.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(delivery);
                            });
                }
            });
            context.start();
            KafkaFetchShareConsumer consumer = shareConsumer(context);
            long renewed;
            try {
                await(where + ": every record routed").atMost(Duration.ofSeconds(20))
                        .until(() -> successes.keySet().containsAll(produced) || consumer.taskSnapshots().stream()
                                .anyMatch(t -> t.state().equals(TaskState.TERMINATED.name())));
                renewed = sum(consumer.shareSnapshots(), s -> s.renewed());
                assertThat(consumer.taskSnapshots()).as("%s: the task runs", where)
                        .allSatisfy(t -> assertThat(t.state()).isEqualTo(TaskState.RUNNING.name()));
            } finally {
                context.stop();
            }
            if (method != null) {
                assertThat(fired).as("%s: the wakeup was injected", where).isTrue();
            }
            assertThat(renewed).as("%s: the slow record's lock was renewed", where).isPositive();
            for (String id : produced) {
                assertThat(successes.get(id)).as("%s: successful deliveries of %s", where, id)
                        .containsExactly(id.equals(failing) ? 2 : 1);
            }
            assertThat(failed).as("%s: failed deliveries of %s", where, failing).containsExactly(1);
            // the share partition's lag counts every record not acknowledged for good: one left acquired by a
            // half-done call, or given back by the close, keeps it above zero
            await(where + ": every record acknowledged (share-partition lag 0)")
                    .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                    .until(() -> lag(topic, group) == 0);
            Map<String, Integer> counts = new TreeMap<>();
            calls.forEach((m, n) -> counts.put(m, n.get()));
            return counts;
        }

        /** The group's share-partition lag on the topic's only partition (-1 while it has none). */
        private long lag(String topic, String group) throws Exception {
            Map<TopicPartition, SharePartitionOffsetInfo> offsets = kafka.admin()
                    .listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec()))
                    .partitionsToOffsetInfo(group).get();
            SharePartitionOffsetInfo info = offsets.get(new TopicPartition(topic, 0));
            return info == null ? -1 : info.lag().orElse(-1L);
        }

        @Override
        public Consumer<byte[], byte[]> getConsumer(Properties properties) {
            return KafkaClientFactory.DEFAULT.getConsumer(properties);
        }

        @Override
        public Producer<byte[], byte[]> getProducer(Properties properties) {
            return KafkaClientFactory.DEFAULT.getProducer(properties);
        }

        @Override
        @SuppressWarnings("unchecked")
        public ShareConsumer<byte[], byte[]> getShareConsumer(Properties properties) {
            ShareConsumer<byte[], byte[]> real = new KafkaShareConsumer<>(properties, new ByteArrayDeserializer(),
                    new ByteArrayDeserializer());
            InvocationHandler handler = (proxy, m, args) -> invoke(real, m, args);
            return (ShareConsumer<byte[], byte[]>) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] { ShareConsumer.class }, handler);
        }

        private Object invoke(ShareConsumer<byte[], byte[]> real, Method m, Object[] args) throws Throwable {
            int n = calls.computeIfAbsent(m.getName(), k -> new AtomicInteger()).incrementAndGet();
            boolean inject = m.getName().equals(method) && n == nth && fired.compareAndSet(false, true);
            if (inject && mode == Mode.BEFORE) {
                throw new WakeupException();
            }
            if (inject && mode == Mode.STRAY) {
                real.wakeup();
            }
            Object result;
            try {
                result = m.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (inject && mode == Mode.AFTER) {
                throw new WakeupException();
            }
            return result;
        }
    }
}
