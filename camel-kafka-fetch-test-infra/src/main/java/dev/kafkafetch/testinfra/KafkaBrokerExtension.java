package dev.kafkafetch.testinfra;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension giving tests the JVM-wide shared broker of {@link KafkaServices#shared()}.
 * <p>
 * Use {@code @RegisterExtension static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.shared();} or
 * {@code @ExtendWith(KafkaBrokerExtension.class)}. Guarantees:
 * <ul>
 *   <li>the broker is running before the first {@code @BeforeAll} of the test class that uses it;</li>
 *   <li>test and lifecycle method parameters of type {@link KafkaService} get the shared broker, parameters of type
 *       {@link KafkaTestSupport} a fresh helper bound to it that is closed when the method's scope ends;</li>
 *   <li>a requested broker that cannot start (for example {@code -Dkafka.instance.type=testcontainers} with no
 *       Docker engine) fails the test class, never skips it: a build must not turn green with nothing run.</li>
 * </ul>
 * The broker is never stopped by this extension (a JVM shutdown hook closes it).
 */
public final class KafkaBrokerExtension implements BeforeAllCallback, ParameterResolver {

    private static final KafkaBrokerExtension SHARED = new KafkaBrokerExtension();

    static {
        KafkaLogging.quietBrokerLogs();
    }

    /** Public for {@code @ExtendWith}; prefer {@link #shared()}. All instances use the same shared broker. */
    public KafkaBrokerExtension() {
    }

    /** The extension instance to register with {@code @RegisterExtension}. */
    public static KafkaBrokerExtension shared() {
        return SHARED;
    }

    /** The shared broker, started if needed. */
    public KafkaService service() {
        return KafkaServices.shared();
    }

    /** Shortcut for {@code service().bootstrapServers()}. */
    public String bootstrapServers() {
        return service().bootstrapServers();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        service();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        Class<?> type = parameterContext.getParameter().getType();
        return type == KafkaService.class || type == KafkaTestSupport.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        Class<?> type = parameterContext.getParameter().getType();
        if (type == KafkaService.class) {
            return service();
        }
        if (type == KafkaTestSupport.class) {
            KafkaTestSupport support = new KafkaTestSupport(bootstrapServers());
            // AutoCloseable values in the store are closed when the context ends
            extensionContext
                    .getStore(ExtensionContext.Namespace.create(KafkaBrokerExtension.class,
                            parameterContext.getDeclaringExecutable()))
                    .put(parameterContext.getIndex(), support);
            return support;
        }
        throw new ParameterResolutionException("Unsupported parameter type " + type.getName());
    }
}
