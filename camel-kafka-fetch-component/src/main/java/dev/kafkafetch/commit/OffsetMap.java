package dev.kafkafetch.commit;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.BitSet;
import java.util.function.LongConsumer;

import dev.kafkafetch.window.FinishedOffsets;
import dev.kafkafetch.window.PartitionState;

/**
 * The finished offsets above a committed offset, written into the commit's metadata, so that a new owner or a
 * restarted task does not route them again (docs/design.md §6).
 * <p>
 * Format, version 1: {@code "kfo1:"} + unpadded base64url of: the committed offset it belongs to (varint), a kind byte,
 * then either runs ({@code 1}: a varint count, then per run a varint gap of offsets that are not finished and a varint
 * length of finished ones) or a bit set ({@code 2}: a varint bit count, then the bytes of a set whose bit {@code i} is
 * offset {@code base + i}). The encoder writes whichever is shorter. Varints are unsigned LEB128.
 * <p>
 * Guarantees: a map longer than {@code maxChars} is not written (the commit goes without it); decoding anything else
 * (another prefix or version, a base that is not the committed offset, a corrupt payload) yields nothing, so records
 * are never skipped on the strength of data that cannot be parsed. Stateless and thread-safe.
 */
public final class OffsetMap {

    public static final String PREFIX = "kfo1:";
    private static final int RUNS = 1;
    private static final int BITS = 2;

    private OffsetMap() {
    }

    /**
     * The metadata naming the finished records {@code state} holds above {@code base}: "" when there are none, null
     * when the map would be longer than {@code maxChars}.
     */
    public static String encode(PartitionState state, long base, int maxChars) {
        Encoder encoder = new Encoder(base);
        state.forEachFinishedHeld(encoder);
        if (encoder.runs == 0) {
            return "";
        }
        byte[] shorter = encoder.runs().length <= encoder.bits().length ? encoder.runs() : encoder.bits();
        String map = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(shorter);
        return map.length() <= maxChars ? map : null;
    }

    /** Collects ascending finished offsets as runs and as a bit set, relative to the base. */
    private static final class Encoder implements LongConsumer {
        private final long base;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final BitSet set = new BitSet();
        /** The offset after the last finished one seen; the start of the current run, -1 before the first. */
        private long next;
        private long runStart = -1;
        private int runs;

        Encoder(long base) {
            this.base = base;
            this.next = base;
        }

        @Override
        public void accept(long offset) {
            if (offset < next || offset - base >= Integer.MAX_VALUE) {
                return;
            }
            set.set((int) (offset - base));
            if (runStart >= 0 && offset == next) {
                next++;
                return;
            }
            if (runStart >= 0) {
                writeVarint(body, next - runStart); // the run that ended
            }
            writeVarint(body, offset - next); // not finished before the new run
            runStart = offset;
            next = offset + 1;
            runs++;
        }

        byte[] runs() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            writeVarint(out, base);
            out.write(RUNS);
            writeVarint(out, runs);
            out.writeBytes(body.toByteArray());
            writeVarint(out, next - runStart);
            return out.toByteArray();
        }

        byte[] bits() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            writeVarint(out, base);
            out.write(BITS);
            writeVarint(out, set.length());
            out.writeBytes(set.toByteArray());
            return out.toByteArray();
        }
    }

    /** What the metadata of a commit at {@code committedOffset} names as finished, or null when it names nothing. */
    public static FinishedOffsets decode(String metadata, long committedOffset) {
        if (metadata == null || !metadata.startsWith(PREFIX)) {
            return null;
        }
        try {
            byte[] bytes = Base64.getUrlDecoder().decode(metadata.substring(PREFIX.length())
                    .getBytes(StandardCharsets.US_ASCII));
            int[] pos = { 0 };
            long base = readVarint(bytes, pos);
            if (base != committedOffset) {
                return null;
            }
            int kind = bytes[pos[0]++];
            BitSet bits = new BitSet();
            if (kind == RUNS) {
                long count = readVarint(bytes, pos);
                long offset = 0;
                for (long r = 0; r < count; r++) {
                    offset += readVarint(bytes, pos);
                    long length = readVarint(bytes, pos);
                    if (offset + length > Integer.MAX_VALUE) {
                        return null;
                    }
                    bits.set((int) offset, (int) (offset + length));
                    offset += length;
                }
            } else if (kind == BITS) {
                long length = readVarint(bytes, pos);
                BitSet read = BitSet.valueOf(Arrays.copyOfRange(bytes, pos[0], bytes.length));
                if (read.length() != length || bytes.length - pos[0] != (length + 7) / 8) {
                    return null;
                }
                bits = read;
                pos[0] = bytes.length;
            } else {
                return null;
            }
            return pos[0] == bytes.length && !bits.isEmpty() ? new FinishedOffsets(base, bits) : null;
        } catch (RuntimeException e) {
            return null; // not ours, or corrupt: trust nothing
        }
    }

    private static void writeVarint(ByteArrayOutputStream out, long value) {
        long v = value;
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static long readVarint(byte[] bytes, int[] pos) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = bytes[pos[0]++];
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("varint too long");
    }
}
