package dev.kafkafetch.health;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.kafkafetch.tx.TxSnapshot;

/**
 * The health details of a transacted fetch task's transactions, the same figures the console and the meters show:
 * {@code tx.id}, {@code tx.committed}, {@code tx.aborted}, {@code tx.outputs.sent}, {@code tx.outputs.waiting},
 * {@code tx.open.age.ms} (how long the oldest output waiting for the next transaction has waited: the age of what the
 * open transaction will commit, 0 when nothing waits), {@code tx.last.commit.age.ms} (once one committed),
 * {@code tx.last.abort} (masked when the task published it) and {@code tx.fenced}. Details only: they never change a
 * check's result (a fenced task stops, which turns both checks DOWN by its state).
 */
public final class TransactionDetails {

    private TransactionDetails() {
    }

    /** The details of one task's last published transactions snapshot, keys without the task prefix. */
    public static Map<String, Object> of(TxSnapshot tx, long nowMs) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("tx.id", tx.transactionalId());
        d.put("tx.committed", tx.committed());
        d.put("tx.aborted", tx.aborted());
        d.put("tx.outputs.sent", tx.outputsSent());
        d.put("tx.outputs.waiting", tx.outputsWaiting());
        d.put("tx.open.age.ms", tx.oldestWaitingMs());
        if (tx.lastCommitTimeMs() > 0) {
            d.put("tx.last.commit.age.ms", nowMs - tx.lastCommitTimeMs());
        }
        if (tx.lastAbort() != null) {
            d.put("tx.last.abort", tx.lastAbort());
        }
        d.put("tx.fenced", tx.fenced());
        return d;
    }
}
