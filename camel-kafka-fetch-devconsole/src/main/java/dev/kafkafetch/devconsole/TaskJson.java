package dev.kafkafetch.devconsole;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.kafkafetch.metrics.OldestUnfinished;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.tx.TxSnapshot;
import org.apache.camel.util.json.JsonArray;
import org.apache.camel.util.json.JsonObject;

/**
 * The JSON form of the {@code kafka-fetch} dev console: a fetch task, its share-group and transaction objects and its
 * partitions, from the task's published snapshots only; the field names are the documented contract
 * ({@code src/main/docs/kafka-fetch-devconsole.adoc}), every documented field always present ({@code null} when
 * unknown).
 */
final class TaskJson {

    private TaskJson() {
    }

    private static JsonObject stuck(OldestUnfinished o) {
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
        OldestUnfinished.LaneHead ahead = o.waitsBehind();
        if (ahead != null) {
            JsonObject a = new JsonObject();
            a.put("offset", ahead.offset());
            a.put("attempt", ahead.attempt());
            a.put("state", ahead.state());
            a.put("runningMs", ahead.runningMs());
            a.put("thread", ahead.thread());
            a.put("threadState", ahead.threadState());
            j.put("waitsBehind", a);
        }
        return j;
    }

    static JsonObject transactions(TxSnapshot tx) {
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

    static JsonObject share(ShareSnapshot s) {
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

    static JsonObject task(TaskSnapshot t, long now, boolean showPartitions) {
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
                pj.put("oldestUnfinished", stuck(p.oldestUnfinished()));
                parts.add(pj);
            }
            j.put("partitions", parts);
        }
        return j;
    }
}
