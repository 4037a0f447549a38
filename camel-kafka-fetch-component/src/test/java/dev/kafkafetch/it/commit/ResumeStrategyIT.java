package dev.kafkafetch.it.commit;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.processor.resume.TransientResumeStrategy;
import org.apache.camel.resume.Cacheable;
import org.apache.camel.resume.Offset;
import org.apache.camel.resume.OffsetKey;
import org.apache.camel.resume.Resumable;
import org.apache.camel.resume.ResumeAdapter;
import org.apache.camel.resume.ResumeStrategy;
import org.apache.camel.resume.ResumeStrategyConfiguration;
import org.apache.camel.resume.cache.ResumeCache;
import org.apache.camel.support.resume.OffsetKeys;
import org.apache.camel.support.resume.Offsets;
import org.apache.camel.support.resume.Resumables;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Camel's resume API on kafka-fetch routes ({@code from("kafka-fetch:...").resumable().resumeStrategy(...)}): each newly
 * assigned partition starts at the offset the strategy holds, on the first assignment and again after a restart, with
 * the route itself keeping the strategy up to date through {@link Exchange#OFFSET}; nothing is lost across the restart.
 */
class ResumeStrategyIT extends KafkaFetchITSupport {

    @Test
    void partitionsStartWhereTheStrategySaysOnTheFirstAssignment() throws Exception {
        String topic = KafkaTestSupport.uniqueName("resume");
        kafka.createTopic(topic, 2);
        for (int i = 0; i < 20; i++) {
            kafka.produce(topic, 0, null, "p0-" + i, null);
            kafka.produce(topic, 1, null, "p1-" + i, null);
        }
        MapResumeStrategy strategy = new MapResumeStrategy();
        strategy.offsets.put(new TopicPartition(topic, 0), 12L);
        strategy.offsets.put(new TopicPartition(topic, 1), 5L);
        Recorder recorder = new Recorder();
        startContext(route(uri(topic, KafkaTestSupport.uniqueName("g"), ""), strategy, recorder, topic));

        await().atMost(Duration.ofSeconds(30)).until(() -> recorder.count() >= 8 + 15);
        Map<Integer, List<Long>> offsets = recorder.offsetsByPartition();
        assertThat(offsets.get(0)).first().isEqualTo(12L);
        assertThat(offsets.get(0)).hasSize(8);
        assertThat(offsets.get(1)).first().isEqualTo(5L);
        assertThat(offsets.get(1)).hasSize(15);
    }

    @Test
    void aRestartedRouteResumesWhereTheRouteLeftTheStrategyAndLosesNothing() throws Exception {
        String topic = KafkaTestSupport.uniqueName("resume");
        kafka.createTopic(topic, 2);
        List<String> produced = kafka.produceIds(topic, 300, "r", 30);
        MapResumeStrategy strategy = new MapResumeStrategy();

        Recorder first = new Recorder();
        CamelContext one = startContext(route(uri(topic, KafkaTestSupport.uniqueName("g"), "maxConcurrency=4"),
                strategy, first, topic));
        await().atMost(Duration.ofSeconds(60)).until(() -> first.count() >= 100);
        one.stop();
        Map<TopicPartition, Long> held = Map.copyOf(strategy.offsets);
        assertThat(held).isNotEmpty();

        // a new group starting at the end: only the strategy can bring it back to where the first route stopped
        Recorder second = new Recorder();
        startContext(route(uri(topic, KafkaTestSupport.uniqueName("g"), "autoOffsetReset=latest"), strategy, second,
                topic));
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Set<String> all = new HashSet<>(first.ids());
            all.addAll(second.ids());
            return all.containsAll(produced);
        });
        held.forEach((tp, next) -> assertThat(second.offsetsByPartition().getOrDefault(tp.partition(), List.of()))
                .as("%s resumes at %d", tp, next).allMatch(o -> o >= next));
    }

    private static RouteBuilder route(String uri, ResumeStrategy strategy, Recorder recorder, String topic) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).resumable().resumeStrategy(strategy).process(recorder).process(e -> {
                    int partition = e.getMessage().getHeader(KafkaFetchConstants.PARTITION, Integer.class);
                    long offset = e.getMessage().getHeader(KafkaFetchConstants.OFFSET, Long.class);
                    e.getMessage().setHeader(Exchange.OFFSET,
                            Resumables.of(new TopicPartition(topic, partition), offset + 1));
                });
            }
        };
    }

    /** A resume strategy of the test's own: next offsets per partition in a map, fed to the adapter at start. */
    static final class MapResumeStrategy implements ResumeStrategy {
        final Map<TopicPartition, Long> offsets = new ConcurrentHashMap<>();
        private final ResumeCache<Object> cache = TransientResumeStrategy.createSimpleCache();
        private ResumeAdapter adapter;

        @Override
        public void setAdapter(ResumeAdapter adapter) {
            this.adapter = adapter;
        }

        @Override
        public ResumeAdapter getAdapter() {
            return adapter;
        }

        @Override
        public void loadCache() {
            offsets.forEach((tp, o) -> ((Cacheable) adapter).add(OffsetKeys.of(tp), Offsets.of(o)));
        }

        @Override
        public <T extends Resumable> void updateLastOffset(T offset) {
            updateLastOffset(offset.getOffsetKey(), offset.getLastOffset());
        }

        @Override
        public <T extends Resumable> void updateLastOffset(T offset, UpdateCallBack callback) {
            updateLastOffset(offset);
        }

        @Override
        public void updateLastOffset(OffsetKey<?> key, Offset<?> offset) {
            offsets.merge((TopicPartition) key.getValue(), (Long) offset.getValue(), Math::max);
        }

        @Override
        public void updateLastOffset(OffsetKey<?> key, Offset<?> offset, UpdateCallBack callback) {
            updateLastOffset(key, offset);
        }

        @Override
        public void setResumeStrategyConfiguration(ResumeStrategyConfiguration configuration) {
            // the cache is the strategy's own
        }

        @Override
        public ResumeStrategyConfiguration getResumeStrategyConfiguration() {
            return TransientResumeStrategy.configurationBuilder().withResumeCache(cache).build();
        }

        @Override
        public void start() {
            loadCache();
        }

        @Override
        public void stop() {
            // nothing held open
        }
    }
}
