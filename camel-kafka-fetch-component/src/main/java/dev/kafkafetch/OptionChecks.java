package dev.kafkafetch;

import java.util.List;
import java.util.Properties;
import java.util.Set;

import org.apache.kafka.clients.ClientDnsLookup;
import org.apache.kafka.clients.ClientUtils;
import org.apache.kafka.common.config.ConfigException;

/**
 * The checks every option goes through when a route starts. Each message opens with the scheme's name and names the
 * option and its value ({@code "kafka-fetch-share option groupId is required"}), so both schemes share the checks
 * without rewriting each other's messages.
 */
public final class OptionChecks {

    private final String scheme;

    /** @param scheme the endpoint's scheme, which opens every message ({@code kafka-fetch}, {@code kafka-fetch-share}) */
    public OptionChecks(String scheme) {
        this.scheme = scheme;
    }

    public String scheme() {
        return scheme;
    }

    /** A refusal of {@code option}: "{@code <scheme> option <option> <why>}" ({@code <option>: <why>} for a colon). */
    public IllegalArgumentException invalid(String option, String why) {
        return new IllegalArgumentException(scheme + " option " + option + (why.startsWith(":") ? "" : " ") + why);
    }

    public String required(String option, String value) {
        if (value == null || value.isBlank()) {
            throw invalid(option, "is required");
        }
        return value.trim();
    }

    /** A value that must be set and above zero. */
    public long positive(String option, Number value) {
        if (value == null) {
            throw invalid(option, "must be set");
        }
        if (value.longValue() <= 0) {
            throw invalid(option, "must be positive, was " + value);
        }
        return value.longValue();
    }

    /** A value that may be unset (null) but never below zero. */
    public void notNegative(String option, Number value) {
        if (value != null && value.doubleValue() < 0) {
            throw invalid(option, "must not be negative, was " + value);
        }
    }

    /** The value, trimmed and in the letter case of {@code allowed}, when it is one of them (ignoring case). */
    public String oneOf(String option, String value, Set<String> allowed) {
        String v = value == null ? null : allowed.stream().filter(a -> a.equalsIgnoreCase(value.trim())).findFirst()
                .orElse(null);
        if (v == null) {
            throw invalid(option, "must be one of " + allowed + ", was " + value);
        }
        return v;
    }

    /**
     * preValidateHostAndPort, checked when the consumer starts as camel-kafka does: every broker must be a valid
     * host:port, and at least one must resolve.
     */
    public void validateBrokers(String brokers) {
        try {
            ClientUtils.parseAndValidateAddresses(List.of(brokers.split(",")), ClientDnsLookup.USE_ALL_DNS_IPS);
        } catch (ConfigException ex) {
            IllegalArgumentException refused = invalid("brokers", "(" + brokers + "): " + ex.getMessage()
                                                                  + " (checked because preValidateHostAndPort=true;"
                                                                  + " with false the fetch task keeps retrying"
                                                                  + " instead)");
            refused.initCause(ex);
            throw refused;
        }
    }

    public static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /** Puts a client setting unless the value is null or an empty text. */
    public static void putIfSet(Properties p, String key, Object value) {
        if (value != null && !(value instanceof String s && s.isEmpty())) {
            p.put(key, value instanceof String ? value : String.valueOf(value));
        }
    }
}
