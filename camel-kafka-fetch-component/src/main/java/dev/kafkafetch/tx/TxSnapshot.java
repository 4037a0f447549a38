package dev.kafkafetch.tx;

/**
 * A transacted fetch task's transactions as last published.
 *
 * @param transactionalId  the task producer's transactional id
 * @param committed        transactions committed
 * @param aborted          transactions aborted (their records were read again)
 * @param outputsSent      output records committed
 * @param outputsWaiting   output records of finished records waiting for the next transaction
 * @param oldestWaitingMs  how long the oldest of those has waited (0: none): the open age of what the next
 *                         transaction will commit
 * @param lastCommitTimeMs epoch ms of the last committed transaction, 0 before the first
 * @param lastAbort        why the last transaction was aborted, or null
 * @param fenced           the producer was fenced by another with the same transactional id
 */
public record TxSnapshot(String transactionalId, long committed, long aborted, long outputsSent, int outputsWaiting,
        long oldestWaitingMs, long lastCommitTimeMs, String lastAbort, boolean fenced) {

    /** The same snapshot with another last abort text (the masked one). */
    public TxSnapshot withLastAbort(String text) {
        return new TxSnapshot(transactionalId, committed, aborted, outputsSent, outputsWaiting, oldestWaitingMs,
                lastCommitTimeMs, text, fenced);
    }
}
