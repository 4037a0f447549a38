package dev.kafkafetch.task;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a partition's log begins and ends, and which offset a time falls on: what an operator's seek is checked
 * against before it is handed to a fetch thread. Answered by a short-lived admin client of its own, on the caller's
 * thread, never by a fetch task's consumer (docs/design.md §4.1) nor on a fetch thread (§3: no metadata call delays a poll).
 */
public interface OffsetLookup {

    /** The first offset of the partition's log and its end offset (the next offset to be written). */
    record Range(long start, long end) {
    }

    Range range(TopicPartition partition);

    /** The first offset whose record's timestamp is at or after {@code epochMs}; the end offset when none is. */
    long offsetForTime(TopicPartition partition, long epochMs);

    /** A lookup with an admin client made from {@code clientProperties} (connection and security) for each call. */
    static OffsetLookup withAdmin(Function<Properties, Admin> admins, Properties clientProperties, Duration timeout) {
        return new OffsetLookup() {
            @Override
            public Range range(TopicPartition partition) {
                try (Admin admin = admins.apply(clientProperties)) {
                    return new Range(offset(admin, partition, OffsetSpec.earliest()),
                            offset(admin, partition, OffsetSpec.latest()));
                }
            }

            @Override
            public long offsetForTime(TopicPartition partition, long epochMs) {
                try (Admin admin = admins.apply(clientProperties)) {
                    long offset = offset(admin, partition, OffsetSpec.forTimestamp(epochMs));
                    return offset >= 0 ? offset : offset(admin, partition, OffsetSpec.latest());
                }
            }

            private long offset(Admin admin, TopicPartition partition, OffsetSpec spec) {
                try {
                    ListOffsetsResult.ListOffsetsResultInfo info = admin.listOffsets(Map.of(partition, spec))
                            .partitionResult(partition).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                    return info.offset();
                } catch (ExecutionException e) {
                    throw new IllegalArgumentException("Cannot read the offsets of " + partition + ": "
                                                       + e.getCause().getMessage(),
                            e.getCause());
                } catch (TimeoutException e) {
                    throw new IllegalStateException("The offsets of " + partition + " could not be read within "
                                                    + timeout.toMillis() + " ms");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("Interrupted while reading the offsets of " + partition, e);
                }
            }
        };
    }
}
