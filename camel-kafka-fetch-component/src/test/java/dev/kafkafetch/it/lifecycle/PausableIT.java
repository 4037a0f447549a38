package dev.kafkafetch.it.lifecycle;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.KafkaFetchConsumerListener;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Camel's Pausable EIP, in the style of camel-kafka's KafkaPausableConsumerIT: while a downstream service is down the
 * consumer pauses (staying in its group) and delivers nothing; once the until-check says it is back, the failed record
 * and everything after it arrive, nothing lost.
 */
class PausableIT extends KafkaFetchITSupport {

    @Test
    void pausesWhileTheServiceIsDownAndResumesWithoutLoss() throws Exception {
        String topic = KafkaTestSupport.uniqueName("pausable");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, 200, "p", 4);
        AtomicBoolean serviceUp = new AtomicBoolean(true);
        AtomicBoolean wentDown = new AtomicBoolean();
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger checks = new AtomicInteger();
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "")).routeId("r")
                        .pausable(new KafkaFetchConsumerListener(), o -> {
                            checks.incrementAndGet();
                            return serviceUp.get();
                        })
                        .process(e -> {
                            String id = e.getMessage().getBody(String.class);
                            if (id.equals("id-p-50") && wentDown.compareAndSet(false, true)) {
                                serviceUp.set(false); // the service goes down at record 50, once
                            }
                            if (!serviceUp.get()) {
                                failures.incrementAndGet();
                                throw new IllegalStateException("service unavailable");
                            }
                        })
                        .process(recorder);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.taskSnapshots().get(0).state().equals("PAUSED"));
        int generation = consumer.taskSnapshots().get(0).generation();
        int failedWhilePaused = failures.get();
        await().atMost(Duration.ofSeconds(10)).until(() -> checks.get() > 5); // still polling, asking the check
        assertThat(recorder.count()).isEqualTo(50);
        assertThat(failures.get()).as("nothing delivered while paused").isEqualTo(failedWhilePaused);

        serviceUp.set(true);
        awaitCount(recorder, produced.size(), Duration.ofSeconds(30));
        Thread.sleep(300);
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        assertThat(consumer.taskSnapshots().get(0).generation()).isEqualTo(generation);
        assertThat(consumer.taskSnapshots().get(0).state()).isEqualTo("RUNNING");
    }
}
