package dev.kafkafetch.devconsole;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.metrics.OldestUnfinished;
import dev.kafkafetch.metrics.PartitionSnapshot;
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
import org.apache.camel.util.TimeUtils;
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
                appendTask(sb, view.tasks().get(i), now, showPartitions && share == null);
                if (share != null) {
                    appendShare(sb, share);
                }
                TxSnapshot tx = view.transactions(i);
                if (tx != null) {
                    appendTransactions(sb, tx, now);
                }
            }
        }
        return sb.toString();
    }

    private static void appendTask(StringBuilder sb, TaskSnapshot t, long now, boolean showPartitions) {
        sb.append(String.format("  Task: %s  state: %s%n", t.threadName(), t.state()));
        sb.append(
                String.format("    Subscription: %s  group: %s  instance: %s  member: %s  generation: %s  client: %s%n",
                        t.subscription(), dash(t.groupId()), dash(t.groupInstanceId()), dash(t.memberId()),
                        t.generation() < 0 ? "-" : String.valueOf(t.generation()), dash(t.clientId())));
        sb.append(String.format(
                "    Held: %d/%d (peak %d)  in flight: %d  running: %d/%d  queued: %d  longest running: %s%s%n",
                t.held(), t.maxInFlightRecords(), t.peakHeld(), t.inFlight(), t.running(), t.maxConcurrency(),
                t.queued(), t.oldestRunningAgeMs() > 0 ? TimeUtils.printDuration(t.oldestRunningAgeMs(), true) : "-",
                t.stalledRunning() > 0 ? "  stalled, still on their threads: " + t.stalledRunning() : ""));
        sb.append(String.format(Locale.ROOT,
                "    Records: polled %d  finished %d  failed %d  re-delivered %d  sent to retry topics %d"
                                             + "  dead-lettered %d  stalled %d  parked %d  skipped as finished %d"
                                             + "  rate %.1f/s (last minute)%n",
                t.recordsPolled(), t.recordsFinished(), t.recordsFailed(), t.recordsRedelivered(),
                t.recordsRetried(), t.recordsDeadLettered(), t.recordsStalled(), t.recordsParked(), t.skippedFinished(),
                t.recordsPerSecond()));
        sb.append(String.format(
                "    Polls: %d  commits: %d  commit failures: %d  rebalances: %d  reconnects: %d  back-pressure pauses: %d%n",
                t.polls(), t.commits(), t.commitFailures(), t.rebalances(), t.reconnects(), t.backPressurePauses()));
        sb.append(String.format("    Last poll: %s  last commit: %s  snapshot age: %s%n", ago(t.lastPollTime(), now),
                ago(t.lastCommitTime(), now), TimeUtils.printDuration(Math.max(0, now - t.snapshotTime()), true)));
        if (t.seeks() > 0) {
            sb.append(String.format("    Operator seeks: %d  offsets skipped: %d  last: %s%n", t.seeks(),
                    t.offsetsSkipped(), t.lastSeek()));
        }
        if (t.deadLetterTrouble() != null) {
            sb.append(String.format("    Dead letters: %s%n", t.deadLetterTrouble()));
        }
        if (t.lastError() != null) {
            sb.append(String.format("    Last error: %s (%s)%n", t.lastError(), ago(t.lastErrorTime(), now)));
        } else {
            sb.append(String.format("    Last error: -%n"));
        }
        if (showPartitions) {
            appendPartitions(sb, t.partitions(), now);
        }
    }

    private static void appendShare(StringBuilder sb, ShareSnapshot s) {
        sb.append(String.format("    Share group: held %d  acquired %d  accepted %d  released %d  rejected %d"
                                + "  dead-lettered %d  renewed %d  locks lost %d  acknowledgements refused %d%n",
                s.held(), s.acquired(), s.accepted(), s.released(), s.rejected(), s.deadLettered(), s.renewed(),
                s.lockLost(), s.acknowledgementFailures()));
        sb.append(String.format("    Deliveries: counts %s  final on delivery %d (group limit %s)  lock %s%n",
                s.deliveryCounts(), s.maxDeliveryAttempts(),
                s.deliveryCountLimit() < 0 ? "-" : String.valueOf(s.deliveryCountLimit()),
                s.lockDurationMs() < 0 ? "-" : TimeUtils.printDuration(s.lockDurationMs(), true)));
    }

    private static void appendTransactions(StringBuilder sb, TxSnapshot tx, long now) {
        sb.append(String.format("    Transactions: %s  committed %d  aborted %d  outputs sent %d  waiting %d"
                                + " (oldest %s)  last commit: %s%s%n",
                tx.transactionalId(), tx.committed(), tx.aborted(), tx.outputsSent(), tx.outputsWaiting(),
                tx.oldestWaitingMs() > 0 ? TimeUtils.printDuration(tx.oldestWaitingMs(), true) : "-",
                ago(tx.lastCommitTimeMs(), now), tx.fenced() ? "  FENCED" : ""));
        if (tx.lastAbort() != null) {
            sb.append(String.format("    Last abort: %s%n", tx.lastAbort()));
        }
    }

    private static void appendPartitions(StringBuilder sb, List<PartitionSnapshot> partitions, long now) {
        if (partitions.isEmpty()) {
            sb.append(String.format("    Partitions: none assigned%n"));
            return;
        }
        List<PartitionSnapshot> sorted = new ArrayList<>(partitions);
        sorted.sort(Comparator.comparing(PartitionSnapshot::topic).thenComparingInt(PartitionSnapshot::partition));
        int width = "PARTITION".length();
        for (PartitionSnapshot p : sorted) {
            width = Math.max(width, p.topic().length() + 1 + String.valueOf(p.partition()).length());
        }
        String row = "      %-" + width + "s %10s %10s %12s %10s %8s %10s %8s  %s%n";
        sb.append(String.format("    Partitions:%n"));
        sb.append(String.format(row, "PARTITION", "POSITION", "COMMITTED", "COMMITTABLE", "END", "LAG", "IN-FLIGHT",
                "HELD", "PAUSED"));
        for (PartitionSnapshot p : sorted) {
            sb.append(String.format(row, p.topic() + "-" + p.partition(), num(p.position()), num(p.committed()),
                    num(p.committable()), num(p.endOffset()), num(p.lag()), p.inFlight(), p.held(),
                    pausedText(p, now)));
        }
        for (PartitionSnapshot p : sorted) {
            if (p.oldestUnfinished() != null) {
                sb.append(String.format("      %s-%d stuck on: %s%n", p.topic(), p.partition(),
                        stuckText(p.oldestUnfinished())));
            }
        }
    }

    /** The oldest unfinished record of a partition, in one line. */
    private static String stuckText(OldestUnfinished o) {
        StringBuilder sb = new StringBuilder();
        sb.append("offset ").append(o.offset()).append("  key ").append(o.key() == null ? "-" : o.key())
                .append("  attempt ").append(o.attempt()).append("  ").append(o.state())
                .append("  polled ").append(TimeUtils.printDuration(o.ageMs(), true)).append(" ago");
        if (o.thread() != null) {
            sb.append("  running ").append(TimeUtils.printDuration(o.runningMs(), true)).append(" on ")
                    .append(o.thread()).append(" (").append(o.threadState()).append(')');
        }
        if (o.waitingBehind() >= 0) {
            sb.append("  waiting behind it in its key lane: ").append(o.waitingBehind());
        }
        return sb.toString();
    }

    private static JsonObject stuckJson(OldestUnfinished o) {
        if (o == null) {
            return null;
        }
        JsonObject j = new JsonObject();
        j.put("offset", o.offset());
        j.put("key", o.key());
        j.put("attempt", o.attempt());
        j.put("state", o.state());
        j.put("ageMs", o.ageMs());
        j.put("runningMs", o.runningMs());
        j.put("thread", o.thread());
        j.put("threadState", o.threadState());
        j.put("waitingBehind", o.waitingBehind());
        return j;
    }

    private static String pausedText(PartitionSnapshot p, long now) {
        if (!p.paused()) {
            return "no";
        }
        if (p.delayedUntil() > 0) {
            return "yes (" + p.pausedReason() + ", next retry due in "
                   + TimeUtils.printDuration(Math.max(0, p.delayedUntil() - now), true) + ")";
        }
        return "yes (" + p.pausedReason() + ")";
    }

    private static String dash(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }

    private static String num(long n) {
        return n < 0 ? "-" : String.valueOf(n);
    }

    private static String ago(long time, long now) {
        return time <= 0 ? "never" : TimeUtils.printDuration(Math.max(0, now - time), true) + " ago";
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
                JsonObject task = taskJson(view.tasks().get(i), now, showPartitions);
                ShareSnapshot share = view.share(i);
                if (share != null) {
                    task.put("share", shareJson(share));
                }
                TxSnapshot tx = view.transactions(i);
                task.put("transactions", tx != null ? transactionsJson(tx) : null);
                tasks.add(task);
            }
            r.put("tasks", tasks);
            routes.add(r);
        }
        root.put("routes", routes);
        return root;
    }

    private static JsonObject transactionsJson(TxSnapshot tx) {
        JsonObject j = new JsonObject();
        j.put("transactionalId", tx.transactionalId());
        j.put("committed", tx.committed());
        j.put("aborted", tx.aborted());
        j.put("outputsSent", tx.outputsSent());
        j.put("outputsWaiting", tx.outputsWaiting());
        j.put("oldestWaitingMs", tx.oldestWaitingMs());
        j.put("lastCommitTime", tx.lastCommitTimeMs());
        j.put("lastAbort", tx.lastAbort());
        j.put("fenced", tx.fenced());
        return j;
    }

    private static JsonObject shareJson(ShareSnapshot s) {
        JsonObject j = new JsonObject();
        j.put("groupId", s.groupId());
        j.put("held", s.held());
        j.put("acquired", s.acquired());
        j.put("accepted", s.accepted());
        j.put("released", s.released());
        j.put("rejected", s.rejected());
        j.put("deadLettered", s.deadLettered());
        j.put("renewed", s.renewed());
        j.put("lockLost", s.lockLost());
        j.put("acknowledgementFailures", s.acknowledgementFailures());
        JsonArray counts = new JsonArray();
        counts.addAll(s.deliveryCounts());
        j.put("deliveryCounts", counts);
        j.put("maxDeliveryAttempts", s.maxDeliveryAttempts());
        j.put("deliveryCountLimit", s.deliveryCountLimit());
        j.put("lockDurationMs", s.lockDurationMs());
        return j;
    }

    private static JsonObject taskJson(TaskSnapshot t, long now, boolean showPartitions) {
        JsonObject j = new JsonObject();
        j.put("threadName", t.threadName());
        j.put("state", t.state());
        j.put("subscription", t.subscription());
        j.put("groupId", t.groupId());
        j.put("groupInstanceId", t.groupInstanceId());
        j.put("memberId", t.memberId());
        j.put("generation", t.generation());
        j.put("clientId", t.clientId());
        j.put("inFlight", t.inFlight());
        j.put("held", t.held());
        j.put("peakHeld", t.peakHeld());
        j.put("maxInFlightRecords", t.maxInFlightRecords());
        j.put("running", t.running());
        j.put("maxConcurrency", t.maxConcurrency());
        j.put("queued", t.queued());
        j.put("stalledRunning", t.stalledRunning());
        j.put("polls", t.polls());
        j.put("recordsPolled", t.recordsPolled());
        j.put("recordsFinished", t.recordsFinished());
        j.put("recordsFailed", t.recordsFailed());
        j.put("recordsDeadLettered", t.recordsDeadLettered());
        j.put("recordsStalled", t.recordsStalled());
        j.put("skippedFinished", t.skippedFinished());
        j.put("repeatedOffsetsSkipped", t.repeatedOffsetsSkipped());
        j.put("recordsRetried", t.recordsRetried());
        j.put("recordsRedelivered", t.recordsRedelivered());
        j.put("recordsParked", t.recordsParked());
        j.put("seeks", t.seeks());
        j.put("offsetsSkipped", t.offsetsSkipped());
        if (t.lastSeek() != null) {
            j.put("lastSeek", t.lastSeek());
        }
        j.put("offsetMapsLeftOut", t.offsetMapsLeftOut());
        j.put("commits", t.commits());
        j.put("commitFailures", t.commitFailures());
        j.put("rebalances", t.rebalances());
        j.put("reconnects", t.reconnects());
        j.put("backPressurePauses", t.backPressurePauses());
        j.put("recordsPerSecond", t.recordsPerSecond());
        j.put("oldestRunningAgeMs", t.oldestRunningAgeMs());
        j.put("lastPollTime", t.lastPollTime());
        j.put("lastCommitTime", t.lastCommitTime());
        j.put("lastError", t.lastError());
        j.put("lastErrorTime", t.lastErrorTime());
        j.put("deadLetterTrouble", t.deadLetterTrouble());
        j.put("snapshotTime", t.snapshotTime());
        j.put("snapshotAgeMs", Math.max(0, now - t.snapshotTime()));
        long lag = -1;
        for (PartitionSnapshot p : t.partitions()) {
            if (p.lag() >= 0) {
                lag = Math.max(lag, 0) + p.lag();
            }
        }
        j.put("partitionCount", t.partitions().size());
        j.put("lag", lag);
        if (showPartitions) {
            JsonArray parts = new JsonArray();
            List<PartitionSnapshot> sorted = new ArrayList<>(t.partitions());
            sorted.sort(Comparator.comparing(PartitionSnapshot::topic).thenComparingInt(PartitionSnapshot::partition));
            for (PartitionSnapshot p : sorted) {
                JsonObject pj = new JsonObject();
                pj.put("topic", p.topic());
                pj.put("partition", p.partition());
                pj.put("position", p.position());
                pj.put("committed", p.committed());
                pj.put("committable", p.committable());
                pj.put("endOffset", p.endOffset());
                pj.put("lag", p.lag());
                pj.put("inFlight", p.inFlight());
                pj.put("held", p.held());
                pj.put("paused", p.paused());
                pj.put("pausedReason", p.pausedReason());
                pj.put("delayedUntil", p.delayedUntil());
                pj.put("oldestUnfinished", stuckJson(p.oldestUnfinished()));
                parts.add(pj);
            }
            j.put("partitions", parts);
        }
        return j;
    }
}
