package dev.kafkafetch.springboot;

import org.apache.camel.CamelContext;
import org.apache.camel.Component;
import org.apache.camel.spi.ComponentCustomizer;
import org.apache.camel.spring.boot.util.CamelPropertiesHelper;
import org.apache.camel.spring.boot.util.HierarchicalPropertiesEvaluator;
import org.springframework.context.ApplicationContext;

/**
 * The component customizer both schemes' auto-configurations register, as Camel's own starters do: it copies every
 * property that is set ({@code camel.component.<scheme>.*}) onto the scheme's component when Camel creates it, unless
 * {@code camel.component.customizer.enabled} or {@code camel.component.<scheme>.customizer.enabled} is false.
 */
final class SchemeCustomizer implements ComponentCustomizer {

    private final ApplicationContext applicationContext;
    private final CamelContext camelContext;
    private final Object properties;
    private final String scheme;
    private final Class<? extends Component> componentType;

    SchemeCustomizer(ApplicationContext applicationContext, CamelContext camelContext, Object properties,
                     String scheme, Class<? extends Component> componentType) {
        this.applicationContext = applicationContext;
        this.camelContext = camelContext;
        this.properties = properties;
        this.scheme = scheme;
        this.componentType = componentType;
    }

    @Override
    public void configure(String name, Component target) {
        CamelPropertiesHelper.copyProperties(camelContext, properties, target);
    }

    @Override
    public boolean isEnabled(String name, Component target) {
        return HierarchicalPropertiesEvaluator.evaluate(applicationContext, "camel.component.customizer",
                "camel.component." + scheme + ".customizer")
               && componentType.isInstance(target);
    }
}
