package dev.kafkafetch.examples;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;
import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.deadletter.DeadLetter;
import dev.kafkafetch.deadletter.DeadLetterFilter;
import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.apache.camel.util.json.JsonArray;
import org.apache.camel.util.json.JsonObject;

/**
 * {@code GET /kafka-fetch/dead-letters?route=<id>&filter=<name=value,...>}: the letters of the route's dead-letter
 * topic that match the filter (the component's {@code DeadLetterFilter}), each with its provenance, its key as text and
 * its value's size, never the value; exception messages come masked from the component. Replaying them is an action
 * ({@code POST /kafka-fetch/actions/replay}, {@link OperatorActionsHttp}).
 * <p>
 * Guarantees: it only reads (any method but GET answers 405), also while the route's operator actions are off; like
 * every page of this server it answers only requests addressed to this server on localhost (403 otherwise, against DNS
 * rebinding); an unknown route answers 404, a bad filter or a route that is not a kafka-fetch consumer 400, a route
 * without a dead-letter topic 409.
 */
final class DeadLettersHttp {

    static final String PATH = "/kafka-fetch/dead-letters";

    private final CamelContext context;
    private final ActionRequestGuard guard;
    private final int port;

    DeadLettersHttp(CamelContext context, ActionRequestGuard guard, int port) {
        this.context = context;
        this.guard = guard;
        this.port = port;
    }

    void handle(HttpExchange http) throws IOException {
        if (!http.getRequestMethod().equals("GET") && !http.getRequestMethod().equals("HEAD")) {
            http.getResponseHeaders().set("Allow", "GET");
            HttpResponses.sendJson(http, 405, HttpResponses.refused("GET lists dead letters; replay them with POST "
                                                                    + OperatorActionsHttp.PATH + "/replay"));
            return;
        }
        String refusal = guard.hostRefusal(http.getRequestHeaders(), port);
        if (refusal != null) {
            HttpResponses.sendJson(http, 403, HttpResponses.refused(refusal));
            return;
        }
        Map<String, String> query = HttpResponses.query(http.getRequestURI().getRawQuery());
        String routeId = query.get("route");
        Route route = routeId == null ? null : context.getRoute(routeId);
        if (route == null) {
            HttpResponses.sendJson(http, 404, HttpResponses.refused("No route " + routeId));
            return;
        }
        if (!(route.getConsumer() instanceof KafkaFetchConsumer consumer)) {
            HttpResponses.sendJson(http, 400,
                    HttpResponses.refused("Route " + routeId + " is not a kafka-fetch consumer"));
            return;
        }
        List<DeadLetter> letters;
        try {
            letters = consumer.operatorActions().listDeadLetters(DeadLetterFilter.parse(query.get("filter")));
        } catch (IllegalArgumentException e) { // a bad filter names the field
            HttpResponses.sendJson(http, 400, HttpResponses.refused(e.getMessage()));
            return;
        } catch (IllegalStateException e) { // no dead-letter topic, or the topic could not be read
            HttpResponses.sendJson(http, 409, HttpResponses.refused(e.getMessage()));
            return;
        }
        JsonObject answer = new JsonObject();
        answer.put("route", routeId);
        answer.put("deadLetterTopic", consumer.getSettings().deadLetterTopic());
        answer.put("count", letters.size());
        JsonArray list = new JsonArray();
        letters.forEach(l -> list.add(new JsonObject(l.toMap())));
        answer.put("letters", list);
        HttpResponses.sendJson(http, 200, answer);
    }
}
