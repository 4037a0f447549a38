package dev.kafkafetch.it.commit;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.commit.DefaultKafkaManualAsyncCommitFactory;
import dev.kafkafetch.commit.KafkaManualCommit;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.AggregationStrategies;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.service.ServiceSupport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Asynchronous manual commits asked for after the exchange completed (an aggregator in another route takes each
 * record; the aggregated split commits them), as camel-kafka's async manual commit test does: the consumer's route is
 * stopped as soon as it has routed the records, and the commits arrive while it stops. They are made by the stop, so
 * a restart resumes after them.
 */
class AsyncCommitAfterCompletionIT extends KafkaFetchITSupport {

    @Test
    void commitsAskedForWhileTheRouteStopsAreMade() throws Exception {
        String topic = KafkaTestSupport.uniqueName("async-agg");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        Recorder routed = new Recorder();
        Queue<Boolean> committedWhileStopping = new ConcurrentLinkedQueue<>();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "autoCommitEnable=false&allowManualCommit=true&kafkaManualCommitFactory=#class:"
                                       + DefaultKafkaManualAsyncCommitFactory.class.getName()))
                        .routeId("foo").process(routed).to("direct:aggregate");
                from("direct:aggregate").routeId("aggregate")
                        .aggregate(constant(true), AggregationStrategies.groupedExchange()).completionTimeout(1)
                        .split(body()).process(e -> {
                            // commit once the test is stopping the consumer's route
                            ServiceSupport consumer = (ServiceSupport) e.getContext().getRoute("foo").getConsumer();
                            await().atMost(Duration.ofSeconds(10)).until(
                                    () -> consumer.isStopping() || consumer.isStopped());
                            committedWhileStopping.add(consumer.isStopping()); // false: it had stopped already
                            e.getMessage().getBody(Exchange.class).getMessage()
                                    .getHeader(KafkaFetchConstants.MANUAL_COMMIT, KafkaManualCommit.class).commit();
                        });
            }
        });
        List<String> first = kafka.produceIds(topic, 5, "a", 1);
        awaitCount(routed, first.size(), Duration.ofSeconds(30));
        context.getRouteController().stopRoute("foo");
        // the premise: each commit was asked for after its exchange completed, once the route's stop had begun
        await().atMost(Duration.ofSeconds(10)).until(() -> committedWhileStopping.size() == first.size());

        List<String> second = kafka.produceIds(topic, 3, "b", 1);
        routed.clear();
        context.getRouteController().startRoute("foo");
        awaitCount(routed, second.size(), Duration.ofSeconds(30));
        assertThat(routed.ids()).as("routed after the restart").containsExactlyInAnyOrderElementsOf(second);
    }
}
