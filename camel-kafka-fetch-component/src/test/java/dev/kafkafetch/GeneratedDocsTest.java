package dev.kafkafetch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What is generated from the component catalog is current: the option and header tables of
 * {@code src/main/docs/*.adoc} and the Spring Boot starter's property classes. Camel's build plugin rewrites the
 * catalog ({@code src/generated/}) from the {@code @UriParam} Javadoc at {@code process-classes}, before this test;
 * each generator, run with {@code --check}, exits non-zero naming the files it would change and the command that
 * brings them up to date. Needs {@code python3} on the PATH.
 */
class GeneratedDocsTest {

    /** The repository root: tests run in the module's directory. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "src/build/refresh-option-tables.py", "src/build/generate-starter-configuration.py" })
    void theGeneratedFilesMatchTheCatalog(String generator) throws IOException, InterruptedException {
        assertThat(ROOT.resolve(generator)).as("run from camel-kafka-fetch-component").isRegularFile();
        Path output = Files.createTempFile("generated-docs", ".txt");
        Process process;
        try {
            process = new ProcessBuilder("python3", generator, "--check").directory(ROOT.toFile())
                    .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        } catch (IOException e) {
            throw new AssertionError("python3 is needed to check the generated docs (" + e.getMessage() + ")", e);
        }
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(generator + " finishes").isTrue();
        String said = Files.readString(output, StandardCharsets.UTF_8);
        Files.delete(output);
        assertThat(process.exitValue()).as(generator + " --check:\n" + said).isZero();
    }
}
