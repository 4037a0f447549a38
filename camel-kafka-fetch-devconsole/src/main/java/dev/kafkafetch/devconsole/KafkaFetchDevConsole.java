package dev.kafkafetch.devconsole;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.share.KafkaFetchShareConsumer;
import dev.kafkafetch.tx.TxSnapshot;
import org.apache.camel.Consumer;
import org.apache.camel.Route;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.annotations.DevConsole;
import org.apache.camel.support.PatternHelper;
import org.apache.camel.support.console.AbstractDevConsole;
import org.apache.camel.util.URISupport;
import org.apache.camel.util.json.JsonArray;
import org.apache.camel.util.json.JsonObject;

/**
 * The {@code kafka-fetch} dev console: one section per {@code kafka-fetch} route, one per fetch task (state, group
 * membership, counters, rates, window usage, last error) and one line per assigned partition (position, committed
 * offset, end offset, lag, in-flight, paused and why). {@code kafka-fetch-share} routes are listed too: their tasks
 * have no partitions but a share-group line (records held, acquired, accepted, released, rejected, renewed, delivery
 * counts).
 * <p>
 * Guarantees: it only reads the immutable {@link TaskSnapshot}s the fetch threads publish, so a call never blocks,
 * never touches a KafkaConsumer and shares no lock with a fetch thread; the endpoint URI is shown with its secrets
 * masked ({@link URISupport#sanitizeUri}); the JSON field names are a documented contract
 * ({@code src/main/docs/kafka-fetch-devconsole.adoc}) and every documented field is always present ({@code null} when
 * unknown).
 */
@DevConsole(name = "kafka-fetch", displayName = "Kafka Fetch",
            description = "kafka-fetch consumers: fetch tasks, assigned partitions, offsets, lag, in-flight records and counters")
public class KafkaFetchDevConsole extends AbstractDevConsole {

    /** Option: only routes whose id matches (exact id, wildcard such as {@code orders*}, or regular expression). */
    @Metadata(description = "Only show the routes whose id matches: an exact id, a wildcard (orders*) or a regular expression")
    public static final String ROUTE_ID = "routeId";

    /** Option: whether each task lists its assigned partitions (default true). */
    @Metadata(defaultValue = "true", javaType = "java.lang.Boolean",
              description = "Whether to list the assigned partitions of each fetch task")
    public static final String PARTITIONS = "partitions";

    public KafkaFetchDevConsole() {
        super("camel", "kafka-fetch", "Kafka Fetch",
              "kafka-fetch consumers: fetch tasks, assigned partitions, offsets, lag, in-flight records and counters");
    }

    // ---- collecting (shared by both media types) ----

    /**
     * One kafka-fetch (or kafka-fetch-share) route and the snapshots of its tasks, taken once per call; {@code shares}
     * is empty for kafka-fetch, else one per task, in the same order.
     */
    private record RouteView(String routeId, String scheme, String endpointUri, String consumerStatus,
            List<TaskSnapshot> tasks, List<ShareSnapshot> shares, List<TxSnapshot> transactions,
            String operatorPaused) {

        ShareSnapshot share(int task) {
            return task < shares.size() ? shares.get(task) : null;
        }

        /** The task's transactions (transacted routes), or null. */
        TxSnapshot transactions(int task) {
            return task < transactions.size() ? transactions.get(task) : null;
        }
    }

    private List<RouteView> collect(Map<String, Object> options) {
        String filter = optionString(options, ROUTE_ID);
        List<RouteView> views = new ArrayList<>();
        for (Route route : getCamelContext().getRoutes()) {
            Consumer consumer = route.getConsumer();
            if (!(consumer instanceof KafkaFetchConsumer) && !(consumer instanceof KafkaFetchShareConsumer)) {
                continue;
            }
            String routeId = route.getRouteId();
            if (filter != null && !filter.isBlank() && !PatternHelper.matchPattern(routeId, filter)) {
                continue;
            }
            if (consumer instanceof KafkaFetchConsumer kfc) {
                String uri = URISupport.sanitizeUri(kfc.getEndpoint().getEndpointUri());
                views.add(new RouteView(routeId, "kafka-fetch", uri, kfc.getStatus().name(), kfc.taskSnapshots(),
                        List.of(), kfc.transactionSnapshots(), kfc.getPausedPartitions()));
            } else if (consumer instanceof KafkaFetchShareConsumer share) {
                // the share snapshots first: a task's share line is never older than its task line
                List<ShareSnapshot> shares = share.shareSnapshots();
                String uri = URISupport.sanitizeUri(share.getEndpoint().getEndpointUri());
                views.add(new RouteView(routeId, "kafka-fetch-share", uri, share.getStatus().name(),
                        share.taskSnapshots(), shares, List.of(), ""));
            }
        }
        views.sort(Comparator.comparing(RouteView::routeId));
        return views;
    }

    // ---- text ----

    @Override
    protected String doCallText(Map<String, Object> options) {
        boolean showPartitions = optionBoolean(options, PARTITIONS, true);
        long now = System.currentTimeMillis();
        StringBuilder sb = new StringBuilder();
        for (RouteView view : collect(options)) {
            if (!sb.isEmpty()) {
                sb.append('\n');
            }
            sb.append(String.format("Route: %s (%s)%n", view.routeId(), view.consumerStatus()));
            sb.append(String.format("  Endpoint: %s%n", view.endpointUri()));
            if (!view.operatorPaused().isEmpty()) {
                sb.append(String.format("  Paused by an operator: %s%n", view.operatorPaused()));
            }
            for (int i = 0; i < view.tasks().size(); i++) {
                ShareSnapshot share = view.share(i);
                TaskText.appendTask(sb, view.tasks().get(i), now, showPartitions && share == null);
                if (share != null) {
                    TaskText.appendShare(sb, share);
                }
                TxSnapshot tx = view.transactions(i);
                if (tx != null) {
                    TaskText.appendTransactions(sb, tx, now);
                }
            }
        }
        return sb.toString();
    }

    // ---- JSON ----

    @Override
    protected Map<String, Object> doCallJson(Map<String, Object> options) {
        boolean showPartitions = optionBoolean(options, PARTITIONS, true);
        long now = System.currentTimeMillis();
        JsonObject root = new JsonObject();
        JsonArray routes = new JsonArray();
        for (RouteView view : collect(options)) {
            JsonObject r = new JsonObject();
            r.put("routeId", view.routeId());
            r.put("endpointUri", view.endpointUri());
            r.put("consumerStatus", view.consumerStatus());
            r.put("scheme", view.scheme());
            r.put("operatorPausedPartitions", view.operatorPaused());
            JsonArray tasks = new JsonArray();
            for (int i = 0; i < view.tasks().size(); i++) {
                JsonObject task = TaskJson.task(view.tasks().get(i), now, showPartitions);
                ShareSnapshot share = view.share(i);
                if (share != null) {
                    task.put("share", TaskJson.share(share));
                }
                TxSnapshot tx = view.transactions(i);
                task.put("transactions", tx != null ? TaskJson.transactions(tx) : null);
                tasks.add(task);
            }
            r.put("tasks", tasks);
            routes.add(r);
        }
        root.put("routes", routes);
        return root;
    }
}
