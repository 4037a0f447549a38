package dev.kafkafetch.metrics;

import java.security.AccessController;
import java.security.Principal;
import java.util.StringJoiner;

import javax.security.auth.Subject;

/**
 * Who calls a JMX operation: the principals of the subject the JMX connector runs the call as (set when JMX
 * authentication is on, e.g. {@code com.sun.management.jmxremote.authenticate=true}); without one, a plain "JMX".
 */
public final class JmxCaller {

    private JmxCaller() {
    }

    /** {@code JMX principal alice}, or {@code JMX (no authenticated principal)}. */
    @SuppressWarnings({ "removal", "deprecation" })
    public static String describe() {
        try {
            Subject subject = Subject.getSubject(AccessController.getContext());
            if (subject != null && !subject.getPrincipals().isEmpty()) {
                StringJoiner names = new StringJoiner(",");
                for (Principal p : subject.getPrincipals()) {
                    names.add(p.getName());
                }
                return "JMX principal " + names;
            }
        } catch (RuntimeException | Error e) {
            // a JDK without the security manager API: no principal to name
        }
        return "JMX (no authenticated principal)";
    }
}
