package dev.kafkafetch.examples;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.kafkafetch.testinfra.KafkaBrokerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * The page at {@code /kafka-fetch} in headless Chromium, when the machine has the distribution's package
 * ({@code apt-get install chromium}); skipped otherwise (CI needs no browser: {@link KafkaFetchPageHtmlUnitIT} always
 * runs). It loads, shows the example's tasks and partitions and the stuck record, and its park button parks it. A
 * screenshot is left in {@code target/kafka-fetch-page.png}.
 */
class KafkaFetchPageChromiumIT {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.shared();

    private static final String BILLING = "section.route[data-route=\"billing\"]";

    @Test
    void pageShowsTasksAndPartitionsAndParksInChromium() throws Exception {
        assumeThat(HeadlessChromium.available()).as(HeadlessChromium.BINARY + " (apt-get install chromium)").isTrue();
        try (OrdersApplication app = OrdersApplication.start(ExampleOptions.defaults()
                .withBrokers(KAFKA.bootstrapServers()).withHttpPort(0).withRate(100).withOperatorActions(true)
                .withStuckOrder(OperatorActionsHttpIT.STUCK_ORDER));
             HeadlessChromium chromium = HeadlessChromium.open("http://localhost:" + app.httpPort() + "/kafka-fetch")) {
            ExampleHttp http = new ExampleHttp(app.httpPort());
            await().atMost(OperatorActionsHttpIT.TIMEOUT).ignoreExceptions().until(() -> Boolean.TRUE.equals(
                    chromium.eval("document.getElementById('status').textContent.indexOf('updated') === 0"
                                  + " && document.querySelectorAll('" + BILLING + " tr.partition').length >= 6")));
            String billing = (String) chromium.eval("document.querySelector('" + BILLING + "').innerText");
            assertThat(billing).contains("Route billing (Started)", "kafka-fetch[orders]#0", "kafka-fetch[orders]#1",
                    "orders-0", "held ", "in flight ");

            ExampleHttp.Partition stuck = await().atMost(OperatorActionsHttpIT.TIMEOUT)
                    .until(() -> OperatorActionsHttpIT.stuckRecord(http), o -> o.isPresent()).get();
            long offset = stuck.oldestUnfinished().getLong("offset");
            String park = BILLING + " button[data-action=\"park\"][data-topic=\"" + stuck.topic()
                          + "\"][data-partition=\"" + stuck.partition() + "\"][data-offset=\"" + offset + "\"]";
            await().atMost(OperatorActionsHttpIT.TIMEOUT).until(() -> Boolean.TRUE.equals(
                    chromium.eval("document.querySelector('" + park + "') !== null")));
            Path shot = Path.of("target", "kafka-fetch-page.png");
            Files.write(shot, chromium.screenshot());
            assertThat(Files.size(shot)).isGreaterThan(10_000);

            chromium.eval("window.confirm = function () { return true; }");
            await().atMost(OperatorActionsHttpIT.TIMEOUT).until(() -> Boolean.TRUE.equals(chromium.eval(
                    "(function () { var b = document.querySelector('" + park + "');"
                                                                                                        + " if (!b || b.disabled) { return false; } b.click(); return true; }())")));
            String where = stuck.topic() + "-" + stuck.partition() + "@" + offset;
            await().atMost(OperatorActionsHttpIT.TIMEOUT).until(() -> String.valueOf(
                    chromium.eval("document.getElementById('messages').innerText"))
                    .contains("park billing " + where + ": parked " + where));
            await().atMost(OperatorActionsHttpIT.TIMEOUT).until(() -> app.parkedLettersSeen() >= 1);
        }
    }
}
