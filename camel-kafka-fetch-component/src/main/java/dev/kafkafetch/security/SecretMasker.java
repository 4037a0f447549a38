package dev.kafkafetch.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Masks secrets in text that is shown to people (last errors in the dev console, health details, logs of errors):
 * every configured secret value (JAAS config, passwords, keys) wherever it appears, and the value of any
 * password-, secret-, token- or JAAS-like assignment an error message might quote (docs/design.md §4.8). Immutable and
 * thread-safe.
 */
public final class SecretMasker {

    public static final String MASK = "xxxxxx";
    private static final Pattern SECRET_ASSIGNMENT = Pattern.compile(
            "(?i)((?:password|passwd|secret|jaas\\.config|token)[\\w.\\-]*\\s*[=:]\\s*)(\"[^\"]*\"|'[^']*'|[^\\s,;}\\]]+)");
    /** Secrets shorter than this are not searched for as plain text (they would mask ordinary words). */
    private static final int MIN_LITERAL = 4;

    private final List<String> secrets;

    /** @param secrets the configured secret values; nulls and blanks are ignored */
    public SecretMasker(Collection<String> secrets) {
        List<String> list = new ArrayList<>();
        for (String s : secrets) {
            if (s != null && s.trim().length() >= MIN_LITERAL) {
                list.add(s);
            }
        }
        list.sort(Comparator.comparingInt(String::length).reversed()); // a JAAS config before the password inside it
        this.secrets = List.copyOf(list);
    }

    /** The text with every secret masked; null stays null. */
    public String mask(String text) {
        if (text == null) {
            return null;
        }
        String masked = text;
        for (String secret : secrets) {
            masked = masked.replace(secret, MASK);
        }
        return SECRET_ASSIGNMENT.matcher(masked).replaceAll("$1" + MASK);
    }
}
