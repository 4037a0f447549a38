package dev.kafkafetch.reliability;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What happened to each produced record (by its number n) of a share-group combination, read from the history and
 * the dead-letter topic: its deliveries (every acquisition, queued ones included), its executions with their delivery
 * count and outcome, its dead letters, and whether the consumer's exception handler was told it is rejected.
 * <p>
 * A record is <b>resolved</b> when the route finished it on any delivery, when it is in the dead-letter topic, or
 * when it was rejected by the documented rule for a record that fails for good without a dead-letter topic: its
 * execution on the last delivery ({@link ShareSoakOptions#lastDelivery()}) failed, or it cannot be deserialized, and
 * the exception handler was told "it is rejected". A record the broker archived after its last delivery without any
 * of these is not resolved: it is lost — unless it is <b>unsaveable</b>: the last delivery the broker allows went to
 * a member that was then SIGKILLed before finishing it (the broker archives such a record when its lock runs out;
 * nothing a client can do). Deliveries are known from the {@code A} lines {@link SoakShareClients} writes for every
 * record a poll hands over, with the broker's delivery count.
 */
final class ShareSoakOutcomes {

    /** One execution of a record: its delivery count, when it ran ({@code end} null: never ended) and how it ended. */
    record Exec(String exec, String member, int n, SoakHistory.Clock start, SoakHistory.Clock end, boolean ok,
            int attempt, int partition, String key) {
    }

    /** "Record topic-partition@offset failed on delivery i of m; it is rejected", or "cannot be deserialized; ...". */
    private static final Pattern REJECTED = Pattern.compile(
            "Record_(\\S+?)-(\\d+)@(\\d+)_(?:failed_on_delivery_\\d+_of_\\d+|cannot_be_deserialized);_it_is_rejected");

    final Map<Integer, List<Exec>> execs = new HashMap<>();
    final Map<Integer, List<SoakHistory.Acquisition>> deliveries = new HashMap<>();
    final Map<Integer, Integer> ok = new HashMap<>();
    final Map<Integer, Integer> dead = new HashMap<>();
    final Set<Integer> rejected = new HashSet<>();
    /** The acknowledgements (renewals or outcomes) the broker refused, per record. */
    final Map<Integer, List<SoakHistory.Refusal>> refusals = new HashMap<>();
    int unattributedDeadLetters;

    private final ShareSoakCase soakCase;
    private final SoakHistory h;

    ShareSoakOutcomes(ShareSoakCase soakCase, SoakHistory h, Map<IdProducer.Position, Integer> byPosition,
                      List<SoakDeadLetters.DeadLetter> deadLetters) {
        this.soakCase = soakCase;
        this.h = h;
        for (SoakHistory.Start s : h.starts) {
            Integer n = byPosition.get(new IdProducer.Position(s.partition(), s.offset()));
            if (n == null) {
                continue;
            }
            SoakHistory.End e = h.ends.get(s.exec());
            boolean done = e != null && e.ok();
            execs.computeIfAbsent(n, k -> new ArrayList<>()).add(new Exec(s.exec(), s.member(), n, s.at(),
                    e != null ? e.at() : null, done, s.attempt(), s.partition(), s.key()));
            if (done) {
                ok.merge(n, 1, Integer::sum);
            }
        }
        // a delivery once: a record a lock renewal handed back comes again with the same count
        Map<String, SoakHistory.Acquisition> first = new HashMap<>();
        for (SoakHistory.Acquisition a : h.acquisitions) {
            first.merge(a.n() + "/" + a.count(), a, (x, y) -> x.at().micros() <= y.at().micros() ? x : y);
        }
        for (SoakHistory.Acquisition a : first.values()) {
            deliveries.computeIfAbsent(a.n(), k -> new ArrayList<>()).add(a);
        }
        deliveries.values().forEach(l -> l.sort(Comparator.comparingInt(SoakHistory.Acquisition::count)));
        for (SoakDeadLetters.DeadLetter d : deadLetters) {
            Integer n = byPosition.get(new IdProducer.Position(d.partition(), d.offset()));
            if (n == null) {
                unattributedDeadLetters++;
            } else {
                dead.merge(n, 1, Integer::sum);
            }
        }
        for (SoakHistory.Refusal r : h.refusals) {
            Integer n = byPosition.get(new IdProducer.Position(r.partition(), r.offset()));
            if (n != null) {
                refusals.computeIfAbsent(n, k -> new ArrayList<>()).add(r);
            }
        }
        for (SoakHistory.Report r : h.reports) {
            Matcher m = REJECTED.matcher(r.text());
            if (m.find()) {
                Integer n = byPosition.get(new IdProducer.Position(Integer.parseInt(m.group(2)),
                        Long.parseLong(m.group(3))));
                if (n != null) {
                    rejected.add(n);
                }
            }
        }
    }

    List<Exec> execsOf(int n) {
        return execs.getOrDefault(n, List.of());
    }

    boolean undeserializable(int n) {
        SoakRecordPlan.Behaviour b = soakCase.schedule().plan().of(n);
        return b != null && b.kind() == SoakRecordPlan.Kind.UNDESERIALIZABLE;
    }

    /** Its failure is final by the documented rule: it cannot be deserialized, or its last delivery failed. */
    boolean failedForGood(int n) {
        int last = soakCase.options().lastDelivery();
        return undeserializable(n) || execsOf(n).stream().anyMatch(e -> e.attempt() >= last && !e.ok()
                                                                        && e.end() != null);
    }

    boolean resolved(int n) {
        return ok.containsKey(n) || dead.containsKey(n) || rejected.contains(n) && failedForGood(n);
    }

    /** The highest delivery count the record was handed over or ran with (0: never seen). */
    int deliveryCount(int n) {
        int executed = execsOf(n).stream().mapToInt(Exec::attempt).max().orElse(0);
        SoakHistory.Acquisition a = lastDelivery(n);
        return Math.max(a == null ? 0 : a.count(), executed);
    }

    /** The record's delivery with the highest count that a poll handed over, or null when none was. */
    SoakHistory.Acquisition lastDelivery(int n) {
        List<SoakHistory.Acquisition> l = deliveries.get(n);
        return l == null || l.isEmpty() ? null : l.get(l.size() - 1);
    }

    /**
     * Unresolved, and its delivery the broker allows last ({@code share.delivery.count.limit}) went to a member
     * SIGKILLed before it finished the record: seen (the killed member's poll handed it over on that delivery), or not
     * seen — a client also acquires records it has not handed over yet, and a killed member's buffered records use
     * up a delivery unseen — when the deliveries missing after the last one seen are no more than the SIGKILLs of
     * other members after it (each kill can have used up one of them).
     */
    boolean unsaveable(int n) {
        if (resolved(n)) {
            return false;
        }
        int limit = soakCase.options().deliveryLimit();
        SoakHistory.Acquisition a = lastDelivery(n);
        long seenAt = a == null ? 0 : a.at().micros();
        if (a != null && a.count() >= limit) {
            return killedAt(a.member()) >= seenAt;
        }
        // the kill of the member that had the delivery seen last ended that delivery, not a later one
        String holder = a == null ? null : a.member();
        int missing = limit - (a == null ? 0 : a.count());
        long killsAfter = h.lives.stream().filter(l -> "kill".equals(l.what()) && l.micros() >= seenAt
                                                       && !l.member().equals(holder))
                .count();
        return killsAfter >= missing;
    }

    /**
     * The broker refused an acknowledgement of execution {@code e}'s record from {@code e}'s member after it started:
     * the member lost the record's lock or its outcome (a broker restart, a moved share-partition leader), so the
     * broker may deliver it again, on the same delivery count when the count it had was never persisted.
     */
    boolean refusedSince(Exec e) {
        return refusals.getOrDefault(e.n(), List.of()).stream()
                .anyMatch(r -> r.member().equals(e.member()) && r.at().compare(e.start()) >= 0);
    }

    /** Records whose acknowledgement the broker refused, counted once per member that had it refused. */
    long refusedRecords() {
        return refusals.values().stream()
                .mapToLong(l -> l.stream().map(SoakHistory.Refusal::member).distinct().count()).sum();
    }

    /**
     * Acquisitions, after a broker first stopped, that handed a record to a member on a delivery count no higher than
     * one another member had acquired it on before: a share partition's new leader re-read state that held neither
     * that delivery nor the acknowledgement of its execution, and gave the record out again without refusing anything.
     */
    long reissuedAfterBrokerStop() {
        long firstStop = h.lives.stream().filter(l -> "broker-stop".equals(l.what()))
                .mapToLong(SoakHistory.Life::micros).min().orElse(Long.MAX_VALUE);
        Map<Integer, List<SoakHistory.Acquisition>> byRecord = new HashMap<>();
        h.acquisitions.forEach(a -> byRecord.computeIfAbsent(a.n(), k -> new ArrayList<>()).add(a));
        long reissued = 0;
        for (List<SoakHistory.Acquisition> l : byRecord.values()) {
            for (SoakHistory.Acquisition a : l) {
                if (a.at().micros() >= firstStop && l.stream().anyMatch(b -> !b.member().equals(a.member())
                                                                             && b.count() >= a.count()
                                                                             && b.at().micros() < a.at().micros())) {
                    reissued++;
                }
            }
        }
        return reissued;
    }

    /** When {@code member} was SIGKILLed, or -1. */
    long killedAt(String member) {
        for (SoakHistory.Life l : h.lives) {
            if ("kill".equals(l.what()) && l.member().equals(member)) {
                return l.micros();
            }
        }
        return -1;
    }
}
