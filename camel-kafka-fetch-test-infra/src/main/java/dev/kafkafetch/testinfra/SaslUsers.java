package dev.kafkafetch.testinfra;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The SASL users a cluster is built with: who logs in with PLAIN, who with SCRAM, and each one's password.
 * <p>
 * Guarantees: every user has a non-empty name and password, and one password even when given for both PLAIN and SCRAM
 * (a conflicting second password is refused when it is added); users and mechanisms keep the order they were added
 * in, so the default user and mechanism are the first PLAIN ones, else the first SCRAM ones.
 */
final class SaslUsers {

    private final Map<String, String> passwords = new LinkedHashMap<>();
    private final Set<String> plain = new LinkedHashSet<>();
    private final Set<String> scram = new LinkedHashSet<>();

    /** Adds {@code users} (name &rarr; password) for PLAIN, or for SCRAM when {@code scram} is true. */
    void add(Map<String, String> users, boolean scram) {
        if (users == null || users.isEmpty()) {
            throw new IllegalArgumentException("At least one SASL user is needed");
        }
        Set<String> target = scram ? this.scram : plain;
        users.forEach((user, password) -> {
            if (user == null || user.isEmpty() || password == null || password.isEmpty()) {
                throw new IllegalArgumentException("SASL users need a non-empty name and password");
            }
            String known = passwords.putIfAbsent(user, password);
            if (known != null && !known.equals(password)) {
                throw new IllegalArgumentException("SASL user " + user + " given twice with different passwords");
            }
            target.add(user);
        });
    }

    /** True when no user was added: the cluster has no SASL listener. */
    boolean isEmpty() {
        return passwords.isEmpty();
    }

    /** Every user's password (name &rarr; password), read-only. */
    Map<String, String> passwords() {
        return Collections.unmodifiableMap(passwords);
    }

    String password(String user) {
        return passwords.get(user);
    }

    Set<String> plainUsers() {
        return Collections.unmodifiableSet(plain);
    }

    Set<String> scramUsers() {
        return Collections.unmodifiableSet(scram);
    }

    /** {@code PLAIN} if there are PLAIN users, then {@link EmbeddedKafkaCluster#SCRAM_MECHANISMS} if SCRAM users. */
    List<String> mechanisms() {
        List<String> mechanisms = new ArrayList<>();
        if (!plain.isEmpty()) {
            mechanisms.add("PLAIN");
        }
        if (!scram.isEmpty()) {
            mechanisms.addAll(EmbeddedKafkaCluster.SCRAM_MECHANISMS);
        }
        return mechanisms;
    }

    /** The first PLAIN user, else the first SCRAM user, else null. */
    String defaultUser() {
        return !plain.isEmpty() ? plain.iterator().next() : scram.isEmpty() ? null : scram.iterator().next();
    }

    /** {@code value} with backslashes and double quotes escaped, for a quoted JAAS option. */
    static String jaasEscape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
