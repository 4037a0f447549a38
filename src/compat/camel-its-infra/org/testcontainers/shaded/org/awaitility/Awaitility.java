package org.testcontainers.shaded.org.awaitility;

import org.awaitility.core.ConditionFactory;

/**
 * Stand-in for the Awaitility copy that Testcontainers shades (some camel-kafka health tests import it; Testcontainers
 * is not on this class path): the same static entry point, delegating to Awaitility itself.
 */
public final class Awaitility {

    private Awaitility() {
    }

    public static ConditionFactory await() {
        return org.awaitility.Awaitility.await();
    }
}
