package dev.kafkafetch.testinfra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

/**
 * A Java 21+ runtime for what the Java 17 build cannot run itself (virtual threads), found the way a user's machine
 * names one: the system property {@value #PROPERTY}, else the environment variable {@value #ENV}, each naming a JDK
 * home. Neither set: empty (callers skip). Set but not a Java 21+ home: an error naming the setting, never a skip.
 */
public final class Java21Runtime {

    public static final String PROPERTY = "kafkafetch.java21.home";
    public static final String ENV = "JAVA21_HOME";

    private Java21Runtime() {
    }

    /** The {@code java} launcher of the configured Java 21+ runtime, or empty when none is configured. */
    public static Optional<Path> java() {
        String setting = PROPERTY;
        String home = System.getProperty(PROPERTY);
        if (home == null || home.isBlank()) {
            setting = ENV;
            home = System.getenv(ENV);
        }
        if (home == null || home.isBlank()) {
            return Optional.empty();
        }
        Path java = Path.of(home, "bin", "java");
        if (!Files.isExecutable(java)) {
            throw new IllegalStateException(setting + "=" + home + " has no executable bin/java");
        }
        int feature = featureVersion(Path.of(home, "release"), setting, home);
        if (feature < 21) {
            throw new IllegalStateException(setting + "=" + home + " is Java " + feature + ", not 21 or later");
        }
        return Optional.of(java);
    }

    /** "Java 25.0.1 (Eclipse Adoptium)" for a launcher {@link #java()} returned: its release file, never its path. */
    public static String describe(Path java) {
        Properties p = release(java.getParent().getParent().resolve("release"));
        return "Java " + p.getProperty("JAVA_VERSION", "?").replace("\"", "") + " ("
               + p.getProperty("IMPLEMENTOR", "unknown vendor").replace("\"", "") + ")";
    }

    private static Properties release(Path release) {
        Properties p = new Properties();
        try (var in = Files.newInputStream(release)) {
            p.load(in);
        } catch (IOException e) {
            // described as unknown
        }
        return p;
    }

    private static int featureVersion(Path release, String setting, String home) {
        Properties p = new Properties();
        try (var in = Files.newInputStream(release)) {
            p.load(in);
        } catch (IOException e) {
            throw new IllegalStateException(setting + "=" + home + " has no readable release file", e);
        }
        String version = p.getProperty("JAVA_VERSION", "").replace("\"", "");
        int end = 0;
        while (end < version.length() && Character.isDigit(version.charAt(end))) {
            end++;
        }
        if (end == 0) {
            throw new IllegalStateException(setting + "=" + home + ": no JAVA_VERSION in its release file");
        }
        return Integer.parseInt(version.substring(0, end));
    }
}
