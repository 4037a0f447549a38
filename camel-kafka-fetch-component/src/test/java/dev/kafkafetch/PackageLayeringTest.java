package dev.kafkafetch;

import java.nio.file.Path;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.kafkafetch.task.TaskState;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The component's package layering, read from its compiled classes (every reference counts: imports, fully qualified
 * names, signatures), as the code has it today:
 * <ul>
 * <li>no cycle between packages, the root package counted as two: the Camel face (component, endpoint, consumer,
 * configuration, settings factories, SPIs) and {@link KafkaFetchConstants}, the header names every layer reads;</li>
 * <li>the engine packages (everything but the root and {@code share}) reach the root only for
 * {@link KafkaFetchConstants}: the fetch task and what it calls never touch the endpoint, component or configuration;
 * </li>
 * <li>nothing of the engine uses the fetch task ({@code task}), except the health check reading {@link TaskState};</li>
 * <li>{@code window} and {@code security} use no other package of ours.</li>
 * </ul>
 * Who may use {@code share} is {@link PackageDependencyTest}'s rule.
 */
class PackageLayeringTest {

    private static final String[] ENGINE = { "dev.kafkafetch.commit..", "dev.kafkafetch.dispatch..",
        "dev.kafkafetch.error..", "dev.kafkafetch.health..", "dev.kafkafetch.metrics..", "dev.kafkafetch.processor..",
        "dev.kafkafetch.resume..", "dev.kafkafetch.security..", "dev.kafkafetch.serde..", "dev.kafkafetch.task..",
        "dev.kafkafetch.tx..", "dev.kafkafetch.window.." };

    /** The component's own classes (generated configurers included), not the test kit's nor the tests. */
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPath(Path.of("target/classes"));

    /** Top-level packages of dev.kafkafetch, and the root package split into its Camel face and its constants. */
    private static final SliceAssignment PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            String name = c.getPackageName();
            if (name.equals("dev.kafkafetch")) {
                return SliceIdentifier.of(c.getName().startsWith(KafkaFetchConstants.class.getName())
                        ? "root constants" : "root Camel face");
            }
            if (name.startsWith("dev.kafkafetch.")) {
                String rest = name.substring("dev.kafkafetch.".length());
                int dot = rest.indexOf('.');
                return SliceIdentifier.of(dot < 0 ? rest : rest.substring(0, dot));
            }
            return SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the packages of dev.kafkafetch";
        }
    };

    @Test
    void packagesHaveNoCycles() {
        slices().assignedFrom(PACKAGES).should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void theEngineReachesTheRootOnlyForItsConstants() {
        noClasses().that().resideInAnyPackage(ENGINE).should().dependOnClassesThat(
                resideInAPackage("dev.kafkafetch").and(not(equivalentTo(KafkaFetchConstants.class))))
                .because("the fetch task gets validated settings, never the endpoint, component or configuration")
                .check(CLASSES);
    }

    @Test
    void nothingOfTheEngineUsesTheFetchTaskButTheHealthCheckReadingItsState() {
        noClasses().that().resideInAnyPackage(ENGINE).and().resideOutsideOfPackages("dev.kafkafetch.task..")
                .should().dependOnClassesThat(resideInAPackage("dev.kafkafetch.task..")
                        .and(not(equivalentTo(TaskState.class))))
                .check(CLASSES);
        noClasses().that().resideInAnyPackage(ENGINE).and()
                .resideOutsideOfPackages("dev.kafkafetch.task..", "dev.kafkafetch.health..")
                .should().dependOnClassesThat(equivalentTo(TaskState.class))
                .check(CLASSES);
    }

    @Test
    void windowAndSecurityUseNoOtherPackageOfOurs() {
        noClasses().that().resideInAPackage("dev.kafkafetch.window..").should().dependOnClassesThat(
                resideInAPackage("dev.kafkafetch..").and(not(resideInAPackage("dev.kafkafetch.window.."))))
                .check(CLASSES);
        noClasses().that().resideInAPackage("dev.kafkafetch.security..").should().dependOnClassesThat(
                resideInAPackage("dev.kafkafetch..").and(not(resideInAnyPackage("dev.kafkafetch.security.."))))
                .check(CLASSES);
    }
}
