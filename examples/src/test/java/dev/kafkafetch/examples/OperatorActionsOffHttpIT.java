package dev.kafkafetch.examples;

import java.util.Map;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.testinfra.KafkaBrokerExtension;
import org.apache.camel.util.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The example as it starts by default, operator actions off: every action the server offers, sent over HTTP exactly
 * as the page sends it (a replay of dead letters among them), is refused with 409 and the component's message naming the
 * option, and changes nothing; reading the dead letters stays open.
 */
class OperatorActionsOffHttpIT {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.shared();

    @Test
    void everyActionIsRefusedNamingTheOption() throws Exception {
        try (OrdersApplication app = OrdersApplication.start(ExampleOptions.defaults()
                .withBrokers(KAFKA.bootstrapServers()).withHttpPort(0).withRate(100)
                .withStuckOrder(OperatorActionsHttpIT.STUCK_ORDER))) {
            ExampleHttp http = new ExampleHttp(app.httpPort());
            ExampleHttp.Partition stuck = await().atMost(OperatorActionsHttpIT.TIMEOUT)
                    .until(() -> OperatorActionsHttpIT.stuckRecord(http), o -> o.isPresent()).get();

            JsonObject listing = ExampleHttp.json(http.get("/kafka-fetch/actions").body());
            JsonObject billingRoute = listing.getCollection("routes").stream().map(JsonObject.class::cast)
                    .filter(r -> "billing".equals(r.getString("routeId"))).findFirst().orElseThrow();
            assertThat(billingRoute.getBoolean("operatorActions")).isFalse();
            assertThat(billingRoute.getString("deadLetterTopic")).isEqualTo("orders.DLT");
            // reading the dead letters is open while actions are off; replaying them is an action, refused below
            var letters = http.get("/kafka-fetch/dead-letters?route=billing");
            assertThat(letters.statusCode()).as(letters.body()).isEqualTo(200);
            assertThat(ExampleHttp.json(letters.body()).getString("deadLetterTopic")).isEqualTo("orders.DLT");

            Map<String, Object> params = OperatorActionsHttpIT.parkParams(stuck);
            for (OperatorActionsHttp.Action action : OperatorActionsHttp.ACTIONS) {
                var response = http.post(action.name(), params);
                assertThat(response.statusCode()).as("%s: %s", action.name(), response.body()).isEqualTo(409);
                JsonObject answer = ExampleHttp.json(response.body());
                assertThat(answer.getString("status")).isEqualTo("refused");
                assertThat(answer.getString("message")).as(action.name())
                        .contains("refused: operator actions are off for this route")
                        .contains("operatorActions=true")
                        .contains("camel.component.kafka-fetch.operatorActions=true");
            }
            KafkaFetchConsumer billing = (KafkaFetchConsumer) app.camelContext().getRoute(ExampleRoutes.BILLING_ROUTE)
                    .getConsumer();
            assertThat(billing.getPausedPartitions()).isEmpty();
            ExampleHttp.Partition after = http.partitions(ExampleRoutes.BILLING_ROUTE).stream()
                    .filter(p -> p.topic().equals(stuck.topic()) && p.partition() == stuck.partition()).findFirst()
                    .orElseThrow();
            assertThat(after.oldestUnfinished()).as("still stuck: not parked").isNotNull();
            assertThat(after.oldestUnfinished().getLong("offset"))
                    .isEqualTo(stuck.oldestUnfinished().getLong("offset"));
            assertThat(app.parkedLettersSeen()).isZero();
        }
    }
}
