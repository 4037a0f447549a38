package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What happened to each produced record of a combination (by its number n), read from the history and the letters:
 * completions, dead letters, documented skips, and — with {@code retryDelays} — its retry letters. A record read from
 * a retry topic is named by its original partition and offset (the route logs them); a record the component gives up
 * in a retry topic is named by its place there, which is mapped back through the executions and retry letters seen at
 * that place.
 */
final class SoakOutcomes {

    /** Completions by the route (an execution that ended ok, or killed right after the route's own commit()). */
    final Map<Integer, Integer> ok = new HashMap<>();
    final Map<Integer, Integer> dead = new HashMap<>();
    /** Logged and skipped by the documented rules (the exception handler, or given up without a dead-letter topic). */
    final Set<Integer> skipped = new HashSet<>();
    /** With retryDelays: records that failed, were read from a retry topic or have a retry letter (order left). */
    final Set<Integer> leftOrder = new HashSet<>();
    /** With retryDelays: each record's retry letters. */
    final Map<Integer, List<SoakDeadLetters.DeadLetter>> retryLetters = new HashMap<>();
    int unattributedDeadLetters;
    int unattributedRetryLetters;
    int failedExecutions;

    private final Map<IdProducer.Position, Integer> byPosition;

    SoakOutcomes(SoakOptions o, SoakHistory h, Map<IdProducer.Position, Integer> byPosition,
                 List<SoakDeadLetters.DeadLetter> deadLetters, List<SoakDeadLetters.DeadLetter> retries) {
        this.byPosition = byPosition;
        // "stage partition@offset" in a retry topic -> the record it holds
        Map<String, Integer> byRetryPlace = new HashMap<>();
        for (SoakDeadLetters.DeadLetter l : retries) {
            Integer n = number(l.partition(), l.offset());
            if (n == null) {
                unattributedRetryLetters++;
                continue;
            }
            retryLetters.computeIfAbsent(n, k -> new ArrayList<>()).add(l);
            leftOrder.add(n);
            byRetryPlace.put(stageOf(l.topic()) + " " + l.letterPartition() + "@" + l.letterOffset(), n);
        }
        // a batch is delivered as a whole: its delivery count is the highest attempt of its records (only the first
        // record of each partition in a re-delivered batch counts up), and it is handed on as a whole
        Map<String, Integer> execAttempt = new HashMap<>();
        for (SoakHistory.Start s : h.starts) {
            execAttempt.merge(s.exec(), s.attempt(), Math::max);
        }
        Set<String> failedExecs = new HashSet<>();
        for (SoakHistory.Start s : h.starts) {
            Integer n = number(s.partition(), s.offset());
            if (n == null) {
                continue;
            }
            if (s.retried()) {
                leftOrder.add(n);
                byRetryPlace.put(s.stage() + " " + s.retryPartition() + "@" + s.retryOffset(), n);
            }
            SoakHistory.End e = h.ends.get(s.exec());
            if (e == null) {
                // killed after the route's own synchronous commit() of the record: the route was done with it
                if (h.endOfMember(s.member()) >= 0
                    && h.manualCommits.contains(s.exec() + " " + s.partition() + "@" + s.offset())) {
                    ok.merge(n, 1, Integer::sum);
                }
                continue;
            }
            if (e.ok() || h.committedByRoute.contains(s.exec() + " " + s.partition() + "@" + s.offset())) {
                // (a failed execution whose route committed the record itself, before a later record's commit
                // failed: the route declared it done)
                ok.merge(n, 1, Integer::sum);
                continue;
            }
            failedExecs.add(s.exec());
            if (o.breakOnFirstError() && !o.deadLetterTopic() && o.breakOnFirstErrorMaxAttempts() > 0
                && execAttempt.get(s.exec()) >= o.breakOnFirstErrorMaxAttempts()) {
                skipped.add(n); // breakOnFirstError gave up and no dead-letter topic: logged and skipped (a batch whole)
            }
            if (o.retries()) {
                leftOrder.add(n);
                if (!o.deadLetterTopic() && s.batchSize() > 1 && s.stage() >= o.retryStages()) {
                    // a batch failed in the last retry topic, without a dead-letter topic: logged and skipped (the
                    // log names the batch by its first record only)
                    skipped.add(n);
                }
            }
        }
        failedExecutions = failedExecs.size();
        for (SoakHistory.RecordEvent x : h.skips) {
            Integer n = number(x.partition(), x.offset());
            if (n != null) {
                skipped.add(n);
            }
        }
        for (SoakHistory.GivenUp g : h.retrySkips) {
            Integer n = byRetryPlace.get(g.stage() + " " + g.partition() + "@" + g.offset());
            if (n != null) {
                skipped.add(n);
            }
        }
        for (SoakDeadLetters.DeadLetter d : deadLetters) {
            Integer n = number(d.partition(), d.offset());
            if (n == null) {
                unattributedDeadLetters++;
            } else {
                dead.merge(n, 1, Integer::sum);
            }
        }
    }

    /** Completed by the route on any attempt, dead-lettered, or skipped by a documented rule. */
    boolean resolved(int n) {
        return ok.containsKey(n) || dead.containsKey(n) || skipped.contains(n);
    }

    Integer number(int partition, long offset) {
        return byPosition.get(new IdProducer.Position(partition, offset));
    }

    /** The retry stage of a retry topic ({@code <topic>.retry-<n>}), 0 for any other topic. */
    static int stageOf(String topic) {
        int at = topic.lastIndexOf(SoakOptions.RETRY_TOPIC_INFIX);
        if (at < 0) {
            return 0;
        }
        try {
            return Integer.parseInt(topic.substring(at + SoakOptions.RETRY_TOPIC_INFIX.length()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
