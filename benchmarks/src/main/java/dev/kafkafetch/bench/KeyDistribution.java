package dev.kafkafetch.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The keys of a KEY scenario's records: record {@code i} gets key {@code "key-" + index(i)}, an index in
 * {@code [0, keys)}. {@link Kind#CYCLIC} is {@code i % keys} (records in flight rarely share a key);
 * {@link Kind#ZIPF} draws ranks with probability proportional to {@code 1 / rank^exponent}; {@link Kind#HOT} gives
 * a share of the records one key and spreads the rest cyclically over the others. Draws come from a generator
 * seeded with {@code seed}, so one seed gives one sequence.
 */
final class KeyDistribution {

    enum Kind {
        CYCLIC, ZIPF, HOT
    }

    static final double DEFAULT_ZIPF_EXPONENT = 1.0;
    static final double DEFAULT_HOT_SHARE = 0.5;

    private final Kind kind;
    private final int keys;
    private final double param;
    private final double[] cumulative;
    private final SplittableRandom random;

    private KeyDistribution(Kind kind, int keys, double param, long seed) {
        if (keys < 1) {
            throw new IllegalArgumentException("keys must be >= 1");
        }
        this.kind = kind;
        this.keys = keys;
        this.param = param;
        this.random = new SplittableRandom(seed);
        this.cumulative = kind == Kind.ZIPF ? zipfCumulative(keys, param) : null;
    }

    static KeyDistribution cyclic(int keys) {
        return new KeyDistribution(Kind.CYCLIC, keys, 0, 0);
    }

    static KeyDistribution zipf(int keys, double exponent, long seed) {
        return new KeyDistribution(Kind.ZIPF, keys, exponent, seed);
    }

    /** @param share fraction of the records (0..1) that carry key index 0 */
    static KeyDistribution hot(int keys, double share, long seed) {
        if (share < 0 || share > 1) {
            throw new IllegalArgumentException("hot share must be within 0..1");
        }
        return new KeyDistribution(Kind.HOT, keys, share, seed);
    }

    static KeyDistribution of(String name, int keys, double zipfExponent, double hotShare, long seed) {
        switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "cyclic":
                return cyclic(keys);
            case "zipf":
                return zipf(keys, zipfExponent, seed);
            case "hot":
                return hot(keys, hotShare, seed);
            default:
                throw new IllegalArgumentException("Unknown key distribution '" + name + "' (cyclic, zipf or hot)");
        }
    }

    Kind kind() {
        return kind;
    }

    String id() {
        return kind.name().toLowerCase(Locale.ROOT);
    }

    String describe() {
        switch (kind) {
            case ZIPF:
                return String.format(Locale.ROOT, "Zipf over %,d keys, exponent %.2f (top key %.1f%% of records)",
                        keys, param, 100 * probability(0));
            case HOT:
                return String.format(Locale.ROOT, "one hot key with %.0f%% of records, the rest cyclic over %,d keys",
                        100 * param, keys - 1);
            default:
                return String.format(Locale.ROOT, "cyclic i %% %,d", keys);
        }
    }

    /** Probability of key index {@code k} (for {@link Kind#CYCLIC} the long-run share). */
    double probability(int k) {
        switch (kind) {
            case ZIPF:
                return cumulative[k] - (k == 0 ? 0 : cumulative[k - 1]);
            case HOT:
                return keys == 1 ? 1 : k == 0 ? param : (1 - param) / (keys - 1);
            default:
                return 1.0 / keys;
        }
    }

    /** The key index of record {@code i}; records must be asked for in order for the sequence to be reproducible. */
    int index(long i) {
        switch (kind) {
            case ZIPF:
                int at = Arrays.binarySearch(cumulative, random.nextDouble());
                return Math.min(keys - 1, at >= 0 ? at : -at - 1);
            case HOT:
                if (keys == 1 || random.nextDouble() < param) {
                    return 0;
                }
                return 1 + (int) (i % (keys - 1));
            default:
                return (int) (i % keys);
        }
    }

    String key(long i) {
        return "key-" + index(i);
    }

    private static double[] zipfCumulative(int keys, double exponent) {
        double[] c = new double[keys];
        double sum = 0;
        for (int k = 0; k < keys; k++) {
            sum += 1 / Math.pow(k + 1, exponent);
            c[k] = sum;
        }
        for (int k = 0; k < keys; k++) {
            c[k] /= sum;
        }
        c[keys - 1] = 1.0;
        return c;
    }
}
