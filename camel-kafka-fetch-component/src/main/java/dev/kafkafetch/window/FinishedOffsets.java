package dev.kafkafetch.window;

import java.util.BitSet;

/**
 * Offsets of one partition that a previous owner (or this task before a restart) finished above the committed offset,
 * as read from the commit's metadata: such records are not routed again. Immutable; bit {@code i} is offset
 * {@code base + i}.
 */
public final class FinishedOffsets {

    private final long base;
    private final BitSet bits;

    public FinishedOffsets(long base, BitSet bits) {
        this.base = base;
        this.bits = (BitSet) bits.clone();
    }

    public long base() {
        return base;
    }

    public boolean contains(long offset) {
        long i = offset - base;
        return i >= 0 && i < Integer.MAX_VALUE && bits.get((int) i);
    }

    public int count() {
        return bits.cardinality();
    }

    @Override
    public String toString() {
        return count() + " finished above " + base;
    }
}
