package dev.kafkafetch.metrics;

import org.apache.camel.CamelContext;

/**
 * The way in to a consumer's Micrometer meters, which works with or without Micrometer.
 * <p>
 * Guarantee: Micrometer is an optional dependency of the component. This class checks once whether micrometer-core
 * can be loaded and only then reaches {@link ConsumerMeters}, the one class (with {@link PartitionMeters}) that uses
 * Micrometer types; without it nothing is registered and no Micrometer class is ever loaded. The component's test
 * suite runs without Micrometer on its class path to keep this true.
 */
public final class OptionalMeters {

    static final String METER_REGISTRY_CLASS = "io.micrometer.core.instrument.MeterRegistry";

    private static final boolean MICROMETER_PRESENT = present();

    private OptionalMeters() {
    }

    /**
     * Registers the meters of one consumer when Micrometer is on the class path and a MeterRegistry is in the Camel
     * registry; otherwise {@link MeterBinding#NONE}.
     *
     * @param owner what the per-partition refresh thread belongs to, for Camel's thread pool bookkeeping
     */
    public static MeterBinding bind(CamelContext context, Object owner, MeterSource source) {
        return MICROMETER_PRESENT ? ConsumerMeters.bind(context, owner, source) : MeterBinding.NONE;
    }

    /** Whether micrometer-core is on the class path. */
    public static boolean micrometerPresent() {
        return MICROMETER_PRESENT;
    }

    private static boolean present() {
        try {
            Class.forName(METER_REGISTRY_CLASS, false, OptionalMeters.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
