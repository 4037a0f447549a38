package dev.kafkafetch.examples;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.testinfra.KafkaBrokerExtension;
import org.apache.camel.util.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The operator actions over HTTP on the example's own routes (billing: 2 fetch tasks, KEY ordering) and the shared
 * broker, with {@code --operator-actions true} and one order whose payment call hangs (a stuck record): a GET never
 * changes anything, a POST from the page's origin with its token pauses, resumes and parks, and a POST that another
 * origin could have sent is refused with the reason; the parked record's letter is listed (a GET) and replayed once,
 * and the route runs it again.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorActionsHttpIT {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.shared();

    static final Duration TIMEOUT = Duration.ofSeconds(60);
    static final long STUCK_ORDER = 150;
    static final String ROUTE = ExampleRoutes.BILLING_ROUTE;

    private static OrdersApplication app;
    private static ExampleHttp http;

    @BeforeAll
    static void start() throws Exception {
        app = OrdersApplication.start(ExampleOptions.defaults().withBrokers(KAFKA.bootstrapServers()).withHttpPort(0)
                .withRate(100).withOperatorActions(true).withStuckOrder(STUCK_ORDER));
        http = new ExampleHttp(app.httpPort());
        await().atMost(TIMEOUT).until(() -> app.finished(ROUTE) >= 100);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    @Order(1)
    void aGetNeverChangesAnything() throws Exception {
        ExampleHttp.Partition stuck = awaitStuckRecord();
        Map<String, Object> park = parkParams(stuck);
        String query = "?" + ExampleHttp.form(park);
        for (String action : List.of("pause", "resume", "park")) {
            var response = http.get("/kafka-fetch/actions/" + action + query);
            assertThat(response.statusCode()).as("GET %s", action).isEqualTo(405);
            assertThat(response.headers().firstValue("Allow")).hasValue("POST");
            assertThat(response.body()).contains("takes POST only");
        }
        // the console, the page and the action list ignore action-like parameters
        assertThat(http.get("/q/dev/kafka-fetch?format=json&action=pause&" + ExampleHttp.form(park)).statusCode())
                .isEqualTo(200);
        assertThat(http.get("/kafka-fetch" + query + "&action=park").statusCode()).isEqualTo(200);
        assertThat(http.get("/kafka-fetch/actions" + query).statusCode()).isEqualTo(200);

        assertThat(consumer().getPausedPartitions()).as("nothing paused").isEmpty();
        ExampleHttp.Partition after = partition(stuck.topic(), stuck.partition());
        assertThat(after.paused()).isFalse();
        assertThat(after.oldestUnfinished()).as("the stuck record is still there, not parked").isNotNull();
        assertThat(after.oldestUnfinished().getLong("offset")).isEqualTo(stuck.oldestUnfinished().getLong("offset"));
        assertThat(app.parkedLettersSeen()).isZero();
    }

    @Test
    @Order(2)
    void aPostFromAnotherOriginIsRefused() throws Exception {
        Map<String, Object> pause = Map.of("route", ROUTE, "topic", "orders", "partition", 0);
        String token = http.token();
        Map<String, Map<String, String>> forged = Map.of(
                "cross-origin request refused: Origin http://evil.example",
                Map.of("Origin", "http://evil.example", ActionRequestGuard.TOKEN_HEADER, token),
                "Sec-Fetch-Site is cross-site",
                Map.of("Sec-Fetch-Site", "cross-site", ActionRequestGuard.TOKEN_HEADER, token),
                "it names no origin",
                Map.of(ActionRequestGuard.TOKEN_HEADER, token),
                "header is missing",
                Map.of("Origin", http.base()),
                "does not match this server's token",
                Map.of("Origin", http.base(), ActionRequestGuard.TOKEN_HEADER, "guessed"));
        for (Map.Entry<String, Map<String, String>> attempt : forged.entrySet()) {
            var response = http.post("pause", pause, attempt.getValue());
            assertThat(response.statusCode()).as("headers %s", attempt.getValue()).isEqualTo(403);
            assertThat(ExampleHttp.json(response.body()).getString("message")).contains(attempt.getKey());
        }
        // a page of another site whose name resolves to 127.0.0.1 (DNS rebinding) sends its own Host and Origin
        String body = ExampleHttp.form(pause);
        String rebound = http.raw("POST /kafka-fetch/actions/pause HTTP/1.1\r\nHost: evil.example:" + app.httpPort()
                                  + "\r\nOrigin: http://evil.example:" + app.httpPort() + "\r\n"
                                  + ActionRequestGuard.TOKEN_HEADER + ": " + token + "\r\n"
                                  + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                                  + body.length() + "\r\nConnection: close\r\n\r\n" + body);
        assertThat(rebound).startsWith("HTTP/1.1 403").contains("is not this server on localhost");

        assertThat(consumer().getPausedPartitions()).as("no forged request got through").isEmpty();
        assertThat(partition("orders", 0).paused()).isFalse();
    }

    @Test
    @Order(3)
    void aPostPausesAndResumesOnePartition() throws Exception {
        // a partition of orders (the route also reads its retry topics, nearly empty) that is not stuck
        ExampleHttp.Partition target = http.partitions(ROUTE).stream()
                .filter(p -> p.topic().equals("orders") && p.oldestUnfinished() == null).findFirst()
                .orElseGet(() -> partition("orders", 0));
        Map<String, Object> params = Map.of("route", ROUTE, "topic", target.topic(), "partition", target.partition());

        var paused = http.post("pause", params);
        assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
        JsonObject answer = ExampleHttp.json(paused.body());
        assertThat(answer.getString("status")).isEqualTo("done");
        assertThat(answer.getString("message")).contains("pausing " + target.topic() + "-" + target.partition());
        assertThat(consumer().getPausedPartitions()).contains(target.topic() + "-" + target.partition())
                .contains("HTTP /127.0.0.1:");
        await().atMost(TIMEOUT).until(() -> {
            ExampleHttp.Partition p = partition(target.topic(), target.partition());
            return p.paused() && "operator".equals(p.pausedReason());
        });
        // once a poll that was under way has returned, nothing more of it is fetched while the others go on
        awaitOthersAdvance(target, 100);
        long held = partition(target.topic(), target.partition()).position();
        awaitOthersAdvance(target, 100);
        assertThat(partition(target.topic(), target.partition()).position()).as("paused partition's position")
                .isEqualTo(held);

        var resumed = http.post("resume", params);
        assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
        assertThat(ExampleHttp.json(resumed.body()).getString("message")).contains("resuming");
        assertThat(consumer().getPausedPartitions()).isEmpty();
        await().atMost(TIMEOUT).until(() -> partition(target.topic(), target.partition()).position() > held);
    }

    @Test
    @Order(4)
    void aForwardSeekWithoutConfirmationIsRefusedAndChangesNothing() throws Exception {
        ExampleHttp.Partition stuck = awaitStuckRecord();
        long offset = stuck.oldestUnfinished().getLong("offset");
        // one past the stuck record, its partition's first unfinished one: seeking there would skip it
        var seek = http.post("seek", Map.of("route", ROUTE, "topic", stuck.topic(), "partition", stuck.partition(),
                "offset", offset + 1));
        assertThat(seek.statusCode()).as(seek.body()).isEqualTo(409);
        assertThat(ExampleHttp.json(seek.body()).getString("message")).contains("confirmSkip=true");
        var bad = http.post("seek", Map.of("route", ROUTE, "topic", stuck.topic(), "partition", stuck.partition(),
                "offset", offset + 1, "confirmSkip", "perhaps"));
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(ExampleHttp.json(bad.body()).getString("message")).contains("confirmSkip");
        ExampleHttp.Partition after = partition(stuck.topic(), stuck.partition());
        assertThat(after.oldestUnfinished()).as("the stuck record is still there").isNotNull();
        assertThat(after.oldestUnfinished().getLong("offset")).isEqualTo(offset);
    }

    @Test
    @Order(5)
    void aPostParksTheStuckRecord() throws Exception {
        var missing = http.post("park", Map.of("route", ROUTE, "topic", "orders", "partition", 0, "offset",
                Long.MAX_VALUE - 1));
        assertThat(missing.statusCode()).as(missing.body()).isIn(400, 409);
        assertThat(ExampleHttp.json(missing.body()).getString("message")).contains("Cannot park");
        var noRoute = http.post("park", Map.of("route", "no-such-route", "topic", "orders", "partition", 0, "offset",
                1));
        assertThat(noRoute.statusCode()).isEqualTo(404);
        var badOffset = http.post("park", Map.of("route", ROUTE, "topic", "orders", "partition", 0, "offset", "x"));
        assertThat(badOffset.statusCode()).isEqualTo(400);
        assertThat(ExampleHttp.json(badOffset.body()).getString("message")).contains("offset");

        ExampleHttp.Partition stuck = awaitStuckRecord();
        long offset = stuck.oldestUnfinished().getLong("offset");
        var parked = http.post("park", parkParams(stuck));
        assertThat(parked.statusCode()).as(parked.body()).isEqualTo(200);
        assertThat(ExampleHttp.json(parked.body()).getString("message"))
                .startsWith("parked " + stuck.topic() + "-" + stuck.partition() + "@" + offset);
        // its letter reaches the dead-letter topic with reason parked, and its partition commits past it
        await().atMost(TIMEOUT).until(() -> app.parkedLettersSeen() >= 1);
        await().atMost(TIMEOUT).until(() -> partition(stuck.topic(), stuck.partition()).committed() > offset);
    }

    @Test
    @Order(6)
    void theParkedLetterIsListedAndAReplayPutsItBackOnce() throws Exception {
        await().atMost(TIMEOUT).until(() -> app.parkedLettersSeen() >= 1); // the premise: step 5 parked a record
        String parked = "/kafka-fetch/dead-letters?route=" + ROUTE + "&filter=reason%3Dparked";
        JsonObject listed = ExampleHttp.json(okBody(http.get(parked)));
        assertThat(listed.getInteger("count")).as(listed.toJson()).isEqualTo(1);
        JsonObject letter = (JsonObject) listed.getCollection("letters").iterator().next();
        assertThat(letter.getString("reason")).isEqualTo("parked");
        assertThat(letter.getString("originalTopic")).isEqualTo("orders");
        assertThat(letter.getString("exceptionMessage")).contains("parked by HTTP /127.0.0.1:");
        int partition = letter.getInteger("originalPartition");
        long offset = letter.getLong("originalOffset");
        // listing is a GET: it refuses other methods and bad filters, and replays nothing
        assertThat(http.send(HttpRequest.newBuilder(URI.create(http.base() + parked))
                .POST(HttpRequest.BodyPublishers.noBody())).statusCode()).isEqualTo(405);
        var badFilter = http.get("/kafka-fetch/dead-letters?route=" + ROUTE + "&filter=colour%3Dred");
        assertThat(badFilter.statusCode()).isEqualTo(400);
        assertThat(ExampleHttp.json(badFilter.body()).getString("message")).contains("colour");
        assertThat(http.get("/kafka-fetch/dead-letters?route=no-such-route").statusCode()).isEqualTo(404);
        var forged = http.post("replay", Map.of("route", ROUTE, "filter", "reason=parked"),
                Map.of("Origin", "http://evil.example", ActionRequestGuard.TOKEN_HEADER, http.token()));
        assertThat(forged.statusCode()).isEqualTo(403);

        var replayed = http.post("replay", Map.of("route", ROUTE, "filter", "reason=parked"));
        assertThat(replayed.statusCode()).as(replayed.body()).isEqualTo(200);
        assertThat(ExampleHttp.json(replayed.body()).getString("message"))
                .as("the forged request replayed nothing, so this one replays the letter")
                .contains("1 letter(s) matched; replayed 1 to their original topics");
        // the route runs the order again: on its first delivery attempt it hangs again, now at a later offset
        await().atMost(TIMEOUT).until(() -> stuckRecord(http).filter(p -> p.topic().equals("orders")
                                                                          && p.partition() == partition
                                                                          && p.oldestUnfinished().getLong("offset")
                                                                             > offset)
                .isPresent());

        var again = http.post("replay", Map.of("route", ROUTE, "filter", "reason=parked"));
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        assertThat(ExampleHttp.json(again.body()).getString("message")).contains("nothing replayed")
                .contains("1 replayed before, not again");
    }

    private static String okBody(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    static Map<String, Object> parkParams(ExampleHttp.Partition stuck) {
        return Map.of("route", ROUTE, "topic", stuck.topic(), "partition", stuck.partition(), "offset",
                stuck.oldestUnfinished().getLong("offset"));
    }

    /**
     * The partition whose oldest unfinished record has been running for seconds (the stuck order), or waits behind an
     * execution of it that has: when a rebalance came while it hung, the order is polled again and waits in its key
     * lane behind that execution, which still runs.
     */
    private static ExampleHttp.Partition awaitStuckRecord() {
        return await().atMost(TIMEOUT).until(() -> stuckRecord(http), Optional::isPresent).get();
    }

    static Optional<ExampleHttp.Partition> stuckRecord(ExampleHttp http) throws Exception {
        return http.partitions(ROUTE).stream()
                .filter(p -> p.oldestUnfinished() != null
                             && (hungFor(p.oldestUnfinished()) || hungFor(p.oldestUnfinished().getMap("waitsBehind"))))
                .findFirst();
    }

    private static boolean hungFor(Map<?, ?> record) {
        return record != null && record.get("thread") != null
               && ((Number) record.get("runningMs")).longValue() > 3_000;
    }

    private static void awaitOthersAdvance(ExampleHttp.Partition except, long records) throws Exception {
        long start = othersPosition(except);
        await().atMost(TIMEOUT).until(() -> othersPosition(except) >= start + records);
    }

    private static long othersPosition(ExampleHttp.Partition except) throws Exception {
        return http.partitions(ROUTE).stream()
                .filter(p -> !(p.topic().equals(except.topic()) && p.partition() == except.partition()))
                .mapToLong(ExampleHttp.Partition::position).sum();
    }

    private static ExampleHttp.Partition partition(String topic, int partition) {
        try {
            return http.partitions(ROUTE).stream().filter(p -> p.topic().equals(topic) && p.partition() == partition)
                    .findFirst().orElseThrow(() -> new AssertionError(topic + "-" + partition + " not assigned"));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static KafkaFetchConsumer consumer() {
        return (KafkaFetchConsumer) app.camelContext().getRoute(ROUTE).getConsumer();
    }
}
