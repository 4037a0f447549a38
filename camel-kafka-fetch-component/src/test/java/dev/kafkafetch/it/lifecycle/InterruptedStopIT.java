package dev.kafkafetch.it.lifecycle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A stop whose thread is interrupted while it waits for in-flight records still releases everything: the route's
 * fetch threads, worker threads and dead-letter producer are gone within a bound, and a restart of the route
 * consumes newly produced records promptly.
 */
class InterruptedStopIT extends KafkaFetchITSupport {

    @Test
    void interruptedStopReleasesThreadsAndProducerAndTheRouteRestarts() throws Exception {
        String topic = KafkaTestSupport.uniqueName("stop-interrupt");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        kafka.produce(topic, 0, "k", "block", null); // also creates the test's own producer before the snapshot below
        List<Thread> producersBefore = liveThreads("kafka-producer-network-thread");
        AtomicBoolean first = new AtomicBoolean(true);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "deadLetterTopic=" + dlt)).routeId("r")
                        .process(e -> {
                            String body = e.getMessage().getBody(String.class);
                            if ("block".equals(body) && first.compareAndSet(true, false)) {
                                entered.countDown();
                                release.await(); // in flight until the test ends (or the thread is interrupted)
                            }
                        })
                        .process(recorder);
            }
        });
        try {
            assertThat(entered.await(30, TimeUnit.SECONDS)).as("the blocking record reached the route").isTrue();
            List<Thread> deadLetterProducer = liveThreads("kafka-producer-network-thread");
            deadLetterProducer.removeAll(producersBefore);
            assertThat(deadLetterProducer).as("the dead-letter producer's network thread").isNotEmpty();

            // stop the consumer on a thread that is interrupted while it waits for the in-flight record
            KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
            AtomicReference<Throwable> stopError = new AtomicReference<>();
            Thread stopper = new Thread(() -> {
                try {
                    consumer.stop();
                } catch (Throwable t) {
                    stopError.set(t);
                }
            }, "interrupted-stopper");
            stopper.start();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> (stopper.getState() == Thread.State.TIMED_WAITING
                                  || stopper.getState() == Thread.State.WAITING)
                                 && inDoStop(stopper));
            stopper.interrupt();
            stopper.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(stopper.isAlive()).as("the interrupted stop returned").isFalse();

            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
                List<String> left = new ArrayList<>();
                liveThreads("KafkaFetchConsumer[" + topic + "]").forEach(t -> left.add(t.getName()));
                liveThreads("KafkaFetchWorker[" + topic + "]").forEach(t -> left.add(t.getName()));
                deadLetterProducer.stream().filter(Thread::isAlive).forEach(t -> left.add(t.getName()));
                assertThat(left).as("threads left after the interrupted stop (stop threw %s)", stopError.get())
                        .isEmpty();
            });

            // a restart consumes new records promptly
            long restart = System.nanoTime();
            context.getRouteController().stopRoute("r");
            context.getRouteController().startRoute("r");
            List<String> after = kafka.produceIds(topic, 10, "after", 1);
            await().atMost(Duration.ofSeconds(20)).until(() -> recorder.ids().containsAll(after));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restart);
            assertThat(tookMs).as("restart to consumed records, ms").isLessThanOrEqualTo(20_000);
        } finally {
            release.countDown();
        }
    }

    /** Whether the thread is inside a consumer's doStop (Camel's stop contract). */
    private static boolean inDoStop(Thread thread) {
        for (StackTraceElement frame : thread.getStackTrace()) {
            if (frame.getMethodName().equals("doStop")) {
                return true;
            }
        }
        return false;
    }

    private static List<Thread> liveThreads(String nameContains) {
        List<Thread> list = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getName().contains(nameContains)) {
                list.add(t);
            }
        }
        return list;
    }
}
