package dev.kafkafetch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The share scheme sits above the classic one (docs/design.md §3a): {@code dev.kafkafetch.share} uses the root package
 * and the engine packages, and nothing outside {@code share} uses {@code share} (an import, a static import or a fully
 * qualified name). Read from the sources, so it needs no class loading and names the file and the line that breaks it.
 */
class PackageDependencyTest {

    private static final Path MAIN = Path.of("src/main/java/dev/kafkafetch");
    private static final Pattern SHARE_USE = Pattern.compile("\\bdev\\.kafkafetch\\.share\\b");

    @Test
    void nothingOutsideShareUsesShare() throws IOException {
        List<Path> outside = sources().filter(p -> !MAIN.relativize(p).startsWith("share")).toList();
        assertThat(outside).as("sources outside share/").isNotEmpty()
                .contains(MAIN.resolve("KafkaFetchComponent.java"));

        StringBuilder uses = new StringBuilder();
        for (Path source : outside) {
            List<String> lines = Files.readAllLines(source);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = SHARE_USE.matcher(lines.get(i));
                if (m.find() && !lines.get(i).trim().startsWith("*") && !lines.get(i).trim().startsWith("//")) {
                    uses.append(MAIN.relativize(source)).append(':').append(i + 1).append(": ")
                            .append(lines.get(i).trim()).append('\n');
                }
            }
        }
        assertThat(uses.toString()).as("uses of dev.kafkafetch.share outside it").isEmpty();
    }

    @Test
    void theShareSchemesCamelFaceLivesInShare() throws IOException {
        List<String> share = sources().filter(p -> MAIN.relativize(p).startsWith("share"))
                .map(p -> p.getFileName().toString()).toList();
        assertThat(share).contains("KafkaFetchShareComponent.java", "KafkaFetchShareEndpoint.java",
                "KafkaFetchShareConsumer.java", "KafkaFetchShareConfiguration.java", "KafkaFetchShareConstants.java");
        List<String> root = sources().filter(p -> p.getParent().equals(MAIN)).map(p -> p.getFileName().toString())
                .toList();
        assertThat(root).noneMatch(name -> name.startsWith("KafkaFetchShare") || name.startsWith("Share"));
    }

    private static Stream<Path> sources() throws IOException {
        try (Stream<Path> all = Files.walk(MAIN)) {
            return all.filter(p -> p.toString().endsWith(".java")).toList().stream();
        }
    }
}
