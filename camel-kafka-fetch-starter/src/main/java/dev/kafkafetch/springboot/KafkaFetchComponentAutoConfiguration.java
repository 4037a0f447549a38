package dev.kafkafetch.springboot;

import dev.kafkafetch.KafkaFetchComponent;
import org.apache.camel.CamelContext;
import org.apache.camel.spi.ComponentCustomizer;
import org.apache.camel.spring.boot.CamelAutoConfiguration;
import org.apache.camel.spring.boot.ComponentConfigurationProperties;
import org.apache.camel.spring.boot.util.ConditionalOnCamelContextAndAutoConfigurationBeans;
import org.apache.camel.spring.boot.util.ConditionalOnHierarchicalProperties;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Lazy;

/**
 * Configures the {@code kafka-fetch} component of a Camel Spring Boot application from its
 * {@code camel.component.kafka-fetch.*} properties ({@link KafkaFetchComponentConfiguration}), as Camel's own starters
 * configure theirs: a component customizer copies every property that is set onto the component when Camel creates
 * it. {@code camel.component.kafka-fetch.enabled=false} (or {@code camel.component.enabled=false}) turns it off;
 * {@code camel.component.kafka-fetch.customizer.enabled=false} keeps the component as the application built it.
 */
@AutoConfiguration(after = CamelAutoConfiguration.class)
@Conditional(ConditionalOnCamelContextAndAutoConfigurationBeans.class)
@EnableConfigurationProperties({ ComponentConfigurationProperties.class, KafkaFetchComponentConfiguration.class })
@ConditionalOnHierarchicalProperties({ "camel.component", "camel.component.kafka-fetch" })
public class KafkaFetchComponentAutoConfiguration {

    @Autowired
    private ApplicationContext applicationContext;
    private final CamelContext camelContext;
    @Autowired
    private KafkaFetchComponentConfiguration configuration;

    public KafkaFetchComponentAutoConfiguration(CamelContext camelContext) {
        this.camelContext = camelContext;
    }

    @Lazy
    @Bean
    public ComponentCustomizer configureKafkaFetchComponent() {
        return new SchemeCustomizer(applicationContext, camelContext, configuration, "kafka-fetch",
                KafkaFetchComponent.class);
    }
}
