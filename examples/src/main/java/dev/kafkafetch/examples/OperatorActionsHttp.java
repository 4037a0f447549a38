package dev.kafkafetch.examples;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.sun.net.httpserver.HttpExchange;
import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.deadletter.DeadLetterFilter;
import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.apache.camel.util.json.JsonArray;
import org.apache.camel.util.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator actions over HTTP: {@code POST /kafka-fetch/actions/<name>} with form parameters ({@code route} and the
 * action's own), carried out by the route's kafka-fetch consumer ({@link KafkaFetchConsumer#pausePartition} and the
 * like), which refuses unless the route has {@code operatorActions=true}. {@code GET /kafka-fetch/actions} lists the
 * actions, which routes take them (and their dead-letter topics) and the token a page sends back.
 * <p>
 * Guarantees: a GET never changes anything (a GET, or any method but POST, on an action answers 405); a POST is
 * carried out only when {@link ActionRequestGuard} finds it came from this server's own page (else 403 with the
 * reason); a refusal by the component ({@code OperatorActionRefusedException}, or an action that cannot be
 * carried out now) answers 409 with its message (which names the option), a bad parameter 400,
 * an unknown route or action 404; every request, carried out or refused, is logged with the HTTP peer.
 * <p>
 * A new action is one entry in {@link #ACTIONS}: its name, the parameters it needs, and the call.
 */
final class OperatorActionsHttp {

    private static final Logger LOG = LoggerFactory.getLogger(OperatorActionsHttp.class);

    static final String PATH = "/kafka-fetch/actions";
    private static final int MAX_BODY = 8 * 1024;

    /** What an action does on the route's consumer; returns the component's account of what it did. */
    @FunctionalInterface
    interface Call {
        String run(KafkaFetchConsumer consumer, ActionParams params, String requestedBy);
    }

    /** One action: its name (the last path segment), the parameters it needs besides {@code route}, the call. */
    record Action(String name, List<String> params, Call call) {
    }

    /** The actions served; the page shows a button for each one it knows that is listed here. */
    static final List<Action> ACTIONS = List.of(
            new Action("pause", List.of("topic", "partition"),
                    (c, p, who) -> c.pausePartition(p.text("topic"), p.partition(), who)),
            new Action("resume", List.of("topic", "partition"),
                    (c, p, who) -> c.resumePartition(p.text("topic"), p.partition(), who)),
            new Action("park", List.of("topic", "partition", "offset"),
                    (c, p, who) -> c.parkRecord(p.text("topic"), p.partition(), p.offset(), who)),
            // forward, records are skipped on purpose: refused by the component unless confirmSkip=true
            new Action("seek", List.of("topic", "partition", "offset"),
                    (c, p, who) -> c.seekPartition(p.text("topic"), p.partition(), p.offset(), p.flag("confirmSkip"),
                            who)),
            // the letters matching filter (all when absent) back to their original topics, or to targetTopic; a
            // letter replayed before is not replayed again (the component's replay log)
            new Action("replay", List.of(),
                    (c, p, who) -> c.operatorActions().replayDeadLetters(DeadLetterFilter.parse(p.optional("filter")),
                            p.optional("targetTopic"), who).summary()));

    private final CamelContext context;
    private final ActionRequestGuard guard;
    private final int port;

    OperatorActionsHttp(CamelContext context, ActionRequestGuard guard, int port) {
        this.context = context;
        this.guard = guard;
        this.port = port;
    }

    void handle(HttpExchange http) throws IOException {
        String path = http.getRequestURI().getPath();
        String method = http.getRequestMethod();
        if (path.equals(PATH) || path.equals(PATH + "/")) {
            if (!method.equals("GET") && !method.equals("HEAD")) {
                http.getResponseHeaders().set("Allow", "GET");
                HttpResponses.sendJson(http, 405,
                        HttpResponses.refused("GET lists the actions; carry one out with POST " + PATH
                                              + "/<name>"));
                return;
            }
            String refusal = guard.hostRefusal(http.getRequestHeaders(), port);
            if (refusal != null) {
                HttpResponses.sendJson(http, 403, HttpResponses.refused(refusal));
                return;
            }
            HttpResponses.sendJson(http, 200, listing());
            return;
        }
        String name = path.startsWith(PATH + "/") ? path.substring(PATH.length() + 1) : "";
        String peer = peer(http);
        if (!method.equals("POST")) {
            http.getResponseHeaders().set("Allow", "POST");
            LOG.warn("HTTP {} sent {} {}: refused, actions change state and take POST only", peer, method, path);
            HttpResponses.sendJson(http, 405,
                    HttpResponses
                            .refused(method + " " + path + " refused: an action changes state, so it takes POST only"));
            return;
        }
        String refusal = guard.refusal(http.getRequestHeaders(), port);
        if (refusal != null) {
            LOG.warn("HTTP {} asked {}: {}", peer, name, refusal);
            HttpResponses.sendJson(http, 403, HttpResponses.refused(refusal));
            return;
        }
        Optional<Action> action = ACTIONS.stream().filter(a -> a.name().equals(name)).findFirst();
        if (action.isEmpty()) {
            HttpResponses.sendJson(http, 404, HttpResponses.refused("No action " + name + "; actions: "
                                                                    + ACTIONS.stream().map(Action::name).toList()));
            return;
        }
        Map<String, String> form = new LinkedHashMap<>(HttpResponses.query(http.getRequestURI().getRawQuery()));
        form.putAll(HttpResponses.query(readBody(http.getRequestBody())));
        carryOut(http, action.get(), new ActionParams(form), peer);
    }

    private void carryOut(HttpExchange http, Action action, ActionParams params, String peer) throws IOException {
        String routeId = params.values().get("route");
        String requestedBy = "HTTP " + peer;
        JsonObject answer = new JsonObject();
        answer.put("action", action.name());
        answer.put("route", routeId);
        int status;
        String message;
        try {
            KafkaFetchConsumer consumer = consumerOf(params.text("route"));
            for (String p : action.params()) {
                params.text(p); // each named parameter is there before the call
            }
            message = action.call().run(consumer, params, requestedBy);
            status = 200;
            LOG.info("{} asked {} on route {} {}: {}", requestedBy, action.name(), routeId, params.values(), message);
        } catch (NoSuchRouteException e) {
            status = 404;
            message = e.getMessage();
        } catch (IllegalStateException e) { // an OperatorActionRefusedException among them: the option is off
            status = 409;
            message = e.getMessage();
        } catch (IllegalArgumentException e) {
            status = 400;
            message = e.getMessage();
        }
        if (status != 200) {
            LOG.warn("{} asked {} on route {} {}: refused ({}): {}", requestedBy, action.name(), routeId,
                    params.values(), status, message);
        }
        answer.put("status", status == 200 ? "done" : "refused");
        answer.put("message", message);
        HttpResponses.sendJson(http, status, answer);
    }

    private KafkaFetchConsumer consumerOf(String routeId) {
        Route route = context.getRoute(routeId);
        if (route == null) {
            throw new NoSuchRouteException("No route " + routeId);
        }
        if (!(route.getConsumer() instanceof KafkaFetchConsumer consumer)) {
            throw new IllegalArgumentException("Route " + routeId + " is not a kafka-fetch consumer: no operator"
                                               + " actions there");
        }
        return consumer;
    }

    private JsonObject listing() {
        JsonObject root = new JsonObject();
        root.put("tokenHeader", ActionRequestGuard.TOKEN_HEADER);
        root.put("token", guard.token());
        JsonArray actions = new JsonArray();
        for (Action a : ACTIONS) {
            JsonObject o = new JsonObject();
            o.put("name", a.name());
            List<String> names = new ArrayList<>();
            names.add("route");
            names.addAll(a.params());
            o.put("params", new JsonArray(names));
            actions.add(o);
        }
        root.put("actions", actions);
        JsonArray routes = new JsonArray();
        for (Route route : context.getRoutes()) {
            if (route.getConsumer() instanceof KafkaFetchConsumer consumer) {
                JsonObject r = new JsonObject();
                r.put("routeId", route.getRouteId());
                r.put("operatorActions", consumer.getOperatorActionsEnabled());
                r.put("deadLetterTopic", consumer.getSettings().deadLetterTopic());
                routes.add(r);
            }
        }
        root.put("routes", routes);
        return root;
    }

    private static String peer(HttpExchange http) {
        return http.getRemoteAddress() == null ? "unknown peer" : http.getRemoteAddress().toString();
    }

    private static String readBody(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_BODY + 1);
        if (body.length > MAX_BODY) {
            throw new IOException("request body over " + MAX_BODY + " bytes");
        }
        return new String(body, StandardCharsets.UTF_8);
    }

    /** The named route does not exist (404). */
    private static final class NoSuchRouteException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        NoSuchRouteException(String message) {
            super(message);
        }
    }

    /** An action's parameters, read from the form; each getter names the parameter it finds missing or malformed. */
    record ActionParams(Map<String, String> values) {

        String text(String name) {
            String v = values.get(name);
            if (v == null || v.isBlank()) {
                throw new IllegalArgumentException("Missing parameter " + name);
            }
            return v.trim();
        }

        /** An optional text parameter, null when absent or blank. */
        String optional(String name) {
            String v = values.get(name);
            return v == null || v.isBlank() ? null : v.trim();
        }

        /** An optional true/false parameter, false when absent. */
        boolean flag(String name) {
            String v = values.get(name);
            if (v == null || v.isBlank() || "false".equalsIgnoreCase(v.trim())) {
                return false;
            }
            if ("true".equalsIgnoreCase(v.trim())) {
                return true;
            }
            throw new IllegalArgumentException("Parameter " + name + " must be true or false, was '" + v + "'");
        }

        int partition() {
            return (int) number("partition", Integer.MAX_VALUE);
        }

        long offset() {
            return number("offset", Long.MAX_VALUE);
        }

        private long number(String name, long max) {
            String v = text(name);
            try {
                long n = Long.parseLong(v);
                if (n >= 0 && n <= max) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException("Parameter " + name + " must be a whole number >= 0, was '" + v + "'");
        }
    }
}
