package org.apache.camel.test.infra.core;

import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import org.apache.camel.BindToRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.EndpointInject;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.test.infra.core.annotations.ContextFixture;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.test.infra.core.annotations.RouteFixture;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Stand-in for camel-test-infra-core's default extension, with its life cycle: one context per test class, created
 * before all tests; before each test the annotated fields are injected and, while the context is not started yet, the
 * test class's PUBLIC {@link ContextFixture} methods then its public {@link RouteFixture} methods are called (as
 * Camel's, which looks them up with {@code Class.getMethods()}) and the context starts; mocks are reset after each
 * test; the context shuts down after all tests.
 */
public class DefaultCamelContextExtension implements CamelContextExtension {
    private CamelContext context;
    private ProducerTemplate producerTemplate;
    private ConsumerTemplate consumerTemplate;

    @Override
    public void beforeAll(ExtensionContext extensionContext) {
        context = new DefaultCamelContext();
        context.getShutdownStrategy().setTimeout(10);
        producerTemplate = context.createProducerTemplate();
        producerTemplate.start();
        consumerTemplate = context.createConsumerTemplate();
        consumerTemplate.start();
    }

    @Override
    public void beforeEach(ExtensionContext extensionContext) throws Exception {
        Object test = extensionContext.getRequiredTestInstance();
        for (Field field : fields(test.getClass())) {
            inject(field, test);
        }
        if (!context.isStarted()) {
            invoke(test, ContextFixture.class);
            invoke(test, RouteFixture.class);
            PluginHelper.getBeanPostProcessor(context).postProcessBeforeInitialization(test,
                    test.getClass().getName());
            PluginHelper.getBeanPostProcessor(context).postProcessAfterInitialization(test,
                    test.getClass().getName());
            context.start();
        }
    }

    @Override
    public void afterEach(ExtensionContext extensionContext) {
        MockEndpoint.resetMocks(context);
    }

    @Override
    public void afterAll(ExtensionContext extensionContext) {
        context.shutdown();
    }

    private static List<Field> fields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            fields.addAll(0, List.of(c.getDeclaredFields()));
        }
        return fields;
    }

    private void inject(Field field, Object test) throws IllegalAccessException {
        BindToRegistry bind = field.getAnnotation(BindToRegistry.class);
        EndpointInject endpoint = field.getAnnotation(EndpointInject.class);
        if (bind == null && endpoint == null) {
            return;
        }
        field.setAccessible(true);
        if (bind != null) {
            context.getRegistry().bind(bind.value(), field.get(test));
        } else if (field.getType() == MockEndpoint.class) {
            field.set(test, getMockEndpoint(endpoint.value()));
        } else {
            field.set(test, context.getEndpoint(endpoint.value()));
        }
    }

    private void invoke(Object test, Class<? extends Annotation> annotation) throws Exception {
        for (Method method : test.getClass().getMethods()) {
            if (method.isAnnotationPresent(annotation)) {
                method.invoke(test, context);
            }
        }
    }

    @Override
    public CamelContext getContext() {
        return context;
    }

    @Override
    public ProducerTemplate getProducerTemplate() {
        return producerTemplate;
    }

    @Override
    public ConsumerTemplate getConsumerTemplate() {
        return consumerTemplate;
    }

    @Override
    public MockEndpoint getMockEndpoint(String uri) {
        return MockEndpoint.resolve(context, uri);
    }
}
