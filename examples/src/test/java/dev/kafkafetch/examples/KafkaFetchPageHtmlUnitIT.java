package dev.kafkafetch.examples;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.kafkafetch.testinfra.KafkaBrokerExtension;
import org.htmlunit.BrowserVersion;
import org.htmlunit.WebClient;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlElement;
import org.htmlunit.html.HtmlInput;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The page at {@code /kafka-fetch} in a browser (HtmlUnit, a Java browser with a JavaScript engine, so it runs on any
 * build machine): it loads, shows the example's routes, fetch tasks and partitions with the stuck record, and its
 * buttons pause and resume a partition, refuse a forward seek the operator does not confirm, park the stuck record,
 * show its dead letter and replay it, and seek a partition back, through the same POSTs and checks as any browser.
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
            List<String> confirmations = new CopyOnWriteArrayList<>();
            // the operator confirms everything but a seek that skips records
            browser.setConfirmHandler((page, message) -> confirmations.add(message)
                                                         && !message.contains("skips offsets"));

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
                    .as("the billing route's dead letters")
                    .isFalse();
            assertThat(page.querySelectorAll("#dead-letters .dead-letter-route[data-route='billing']")).hasSize(1);

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
            // a seek past the stuck record would skip it: the page asks, the operator says no, nothing changes
            String skipTo = stuck.topic() + "-" + stuck.partition() + "@" + (offset + 1);
            seek(page, stuck.topic(), stuck.partition(), offset + 1);
            await().atMost(OperatorActionsHttpIT.TIMEOUT)
                    .until(() -> messages(page)
                            .contains("seek billing " + skipTo + ": not confirmed, nothing changed"));
            assertThat(confirmations).anySatisfy(c -> assertThat(c).startsWith("Seek billing " + skipTo)
                    .contains("confirmSkip=true"));
            assertThat(OperatorActionsHttpIT.stuckRecord(http).orElseThrow().oldestUnfinished().getLong("offset"))
                    .as("still stuck at the same offset").isEqualTo(offset);
            String park = "section.route[data-route='billing'] button[data-action='park'][data-topic='" + stuck.topic()
                          + "'][data-partition='" + stuck.partition() + "'][data-offset='" + offset + "']";
            // the page re-renders every 2 s: between two renders the section may be missing for a moment
            await().atMost(OperatorActionsHttpIT.TIMEOUT).ignoreExceptions()
                    .until(() -> page.querySelector("section.route[data-route='billing']").asNormalizedText()
                            .contains("offset " + offset + " "));
            clickWhenThere(page, park);
            String where = stuck.topic() + "-" + stuck.partition() + "@" + offset;
            await().atMost(OperatorActionsHttpIT.TIMEOUT)
                    .until(() -> messages(page).contains("park billing " + where + ": parked " + where));
            assertThat(confirmations).anySatisfy(c -> assertThat(c).startsWith("Park " + where));
            await().atMost(OperatorActionsHttpIT.TIMEOUT).until(() -> app.parkedLettersSeen() >= 1);

            // its dead letter, shown with a filter, and replayed with the button
            String box = "#dead-letters .dead-letter-route[data-route='billing'] ";
            await().atMost(OperatorActionsHttpIT.TIMEOUT).ignoreExceptions().until(() -> {
                HtmlInput filter = page.querySelector(box + "input.dead-letter-filter");
                filter.setValue("reason=parked");
                ((HtmlElement) page.querySelector(box + "button.show-dead-letters")).click();
                return page.querySelectorAll(box + "tr.dead-letter").size() == 1
                       && page.querySelector(box + ".dead-letter-count").asNormalizedText()
                               .contains("matching reason=parked");
            });
            assertThat(page.querySelector(box + "tr.dead-letter").asNormalizedText()).contains("parked", "orders",
                    Long.toString(offset));
            ((HtmlElement) page.querySelector(box + "button[data-action='replay']")).click();
            await().atMost(OperatorActionsHttpIT.TIMEOUT)
                    .until(() -> messages(page).contains("replay billing: 1 letter(s) matched; replayed 1"));
            assertThat(confirmations).anySatisfy(c -> assertThat(c).contains("reason=parked"));

            // a seek back on a partition that is not stuck: its records are delivered again from there
            ExampleHttp.Partition other = await().atMost(OperatorActionsHttpIT.TIMEOUT).until(
                    () -> http.partitions(OperatorActionsHttpIT.ROUTE).stream()
                            .filter(p -> p.topic().equals("orders") && p.partition() != stuck.partition()
                                         && p.committed() >= 10)
                            .findFirst(),
                    o -> o.isPresent()).get();
            long back = other.committed() - 5;
            seek(page, other.topic(), other.partition(), back);
            String backTo = other.topic() + "-" + other.partition();
            await().atMost(OperatorActionsHttpIT.TIMEOUT)
                    .until(() -> messages(page).contains("seek billing " + backTo + "@" + back + ": " + backTo
                                                         + " sought back from "));
        }
    }

    /** Types the offset into the partition's seek box and clicks its Seek button (retried while the page renders). */
    private static void seek(HtmlPage page, String topic, int partition, long offset) {
        String billing = "section.route[data-route='billing'] ";
        String of = "[data-topic='" + topic + "'][data-partition='" + partition + "']";
        await().atMost(OperatorActionsHttpIT.TIMEOUT).ignoreExceptions().until(() -> {
            HtmlInput input = page.querySelector(billing + "input.seek-offset" + of);
            HtmlElement button = page.querySelector(billing + "button[data-action='seek']" + of);
            if (input == null || button == null || button.hasAttribute("disabled")) {
                return false;
            }
            input.setValue("");
            input.type(Long.toString(offset));
            button.click();
            return true;
        });
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
