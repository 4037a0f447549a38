package dev.kafkafetch.examples;

import java.util.List;

import dev.kafkafetch.testinfra.KafkaBrokerExtension;
import org.htmlunit.BrowserVersion;
import org.htmlunit.WebClient;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlElement;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The page at {@code /kafka-fetch} in a browser (HtmlUnit, a Java browser with a JavaScript engine, so it runs on any
 * build machine): it loads, shows the example's routes, fetch tasks and partitions with the stuck record, and its
 * buttons pause and resume a partition and park the stuck record, through the same POSTs and checks as any browser.
 */
class KafkaFetchPageHtmlUnitIT {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.shared();

    @Test
    void pageShowsTasksAndPartitionsAndItsButtonsAct() throws Exception {
        try (OrdersApplication app = OrdersApplication.start(ExampleOptions.defaults()
                .withBrokers(KAFKA.bootstrapServers()).withHttpPort(0).withRate(100).withOperatorActions(true)
                .withStuckOrder(OperatorActionsHttpIT.STUCK_ORDER));
             WebClient browser = new WebClient(BrowserVersion.CHROME)) {
            ExampleHttp http = new ExampleHttp(app.httpPort());
            browser.getOptions().setThrowExceptionOnScriptError(true);
            browser.getOptions().setCssEnabled(false);
            List<String> confirmations = new java.util.concurrent.CopyOnWriteArrayList<>();
            browser.setConfirmHandler((page, message) -> confirmations.add(message));

            HtmlPage page = browser.getPage(http.base() + "/kafka-fetch");
            assertThat(page.getTitleText()).isEqualTo("kafka-fetch");
            await().atMost(OperatorActionsHttpIT.TIMEOUT)
                    .until(() -> page.getElementById("status").asNormalizedText().startsWith("updated")
                                 && page.querySelectorAll("section.route[data-route='billing'] tr.partition")
                                         .size()
                                    >= 6);
            String billing = page.querySelector("section.route[data-route='billing']").asNormalizedText();
            assertThat(billing).contains("Route billing (Started)", "kafka-fetch[orders]#0", "kafka-fetch[orders]#1",
                    "held ", "in flight ", "rate ", "lag ");
            assertThat(page.querySelectorAll("section.route[data-route='dead-letters']")).as(page.asNormalizedText())
                    .hasSize(1);
            assertThat(page.querySelectorAll("section.route[data-route='billing'] svg.chart")).isNotEmpty();
            assertThat(page.getElementById("actions-state").asNormalizedText()).contains("operator actions on");
            assertThat(page.getElementById("dead-letters").hasAttribute("hidden"))
                    .as("no replay action served yet").isTrue();

            // pause and resume one partition with the buttons
            String pause = "section.route[data-route='billing'] button[data-action='pause'][data-topic='orders']"
                           + "[data-partition='1']";
            clickWhenThere(page, pause);
            await().atMost(OperatorActionsHttpIT.TIMEOUT)
                    .until(() -> messages(page).contains("pause billing orders-1: pausing orders-1"));
            String resume = "section.route[data-route='billing'] button[data-action='resume'][data-partition='1']";
            clickWhenThere(page, resume);
            await().atMost(OperatorActionsHttpIT.TIMEOUT)
                    .until(() -> messages(page).contains("resume billing orders-1: resuming orders-1"));

            // park the stuck record with its button
            ExampleHttp.Partition stuck = await().atMost(OperatorActionsHttpIT.TIMEOUT)
                    .until(() -> OperatorActionsHttpIT.stuckRecord(http), o -> o.isPresent()).get();
            long offset = stuck.oldestUnfinished().getLong("offset");
            String park = "section.route[data-route='billing'] button[data-action='park'][data-topic='" + stuck.topic()
                          + "'][data-partition='" + stuck.partition() + "'][data-offset='" + offset + "']";
            await().atMost(OperatorActionsHttpIT.TIMEOUT)
                    .until(() -> page.querySelector("section.route[data-route='billing']").asNormalizedText()
                            .contains("offset " + offset + " "));
            clickWhenThere(page, park);
            String where = stuck.topic() + "-" + stuck.partition() + "@" + offset;
            await().atMost(OperatorActionsHttpIT.TIMEOUT)
                    .until(() -> messages(page).contains("park billing " + where + ": parked " + where));
            assertThat(confirmations).anySatisfy(c -> assertThat(c).startsWith("Park " + where));
            await().atMost(OperatorActionsHttpIT.TIMEOUT).until(() -> app.parkedLettersSeen() >= 1);
        }
    }

    /** Clicks the element once the page shows it (the page re-renders every 2 s: look it up right before). */
    private static void clickWhenThere(HtmlPage page, String selector) {
        await().atMost(OperatorActionsHttpIT.TIMEOUT).ignoreExceptions().until(() -> {
            DomNode node = page.querySelector(selector);
            if (node instanceof HtmlElement button && !button.hasAttribute("disabled")) {
                button.click();
                return true;
            }
            return false;
        });
    }

    private static String messages(HtmlPage page) {
        return page.getElementById("messages").asNormalizedText();
    }
}
