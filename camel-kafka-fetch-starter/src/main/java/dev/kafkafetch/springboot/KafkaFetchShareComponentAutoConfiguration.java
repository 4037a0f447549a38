package dev.kafkafetch.springboot;

import dev.kafkafetch.share.KafkaFetchShareComponent;
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
 * Configures the {@code kafka-fetch-share} component of a Camel Spring Boot application from its
 * {@code camel.component.kafka-fetch-share.*} properties ({@link KafkaFetchShareComponentConfiguration}), as the
 * classic scheme's {@link KafkaFetchComponentAutoConfiguration} does ({@link SchemeCustomizer}).
 * {@code camel.component.kafka-fetch-share.enabled=false} (or {@code camel.component.enabled=false}) turns it off;
 * {@code camel.component.kafka-fetch-share.customizer.enabled=false} keeps the component as the application built it.
 */
@AutoConfiguration(after = CamelAutoConfiguration.class)
@Conditional(ConditionalOnCamelContextAndAutoConfigurationBeans.class)
@EnableConfigurationProperties({ ComponentConfigurationProperties.class, KafkaFetchShareComponentConfiguration.class })
@ConditionalOnHierarchicalProperties({ "camel.component", "camel.component.kafka-fetch-share" })
public class KafkaFetchShareComponentAutoConfiguration {

    @Autowired
    private ApplicationContext applicationContext;
    private final CamelContext camelContext;
    @Autowired
    private KafkaFetchShareComponentConfiguration configuration;

    public KafkaFetchShareComponentAutoConfiguration(CamelContext camelContext) {
        this.camelContext = camelContext;
    }

    @Lazy
    @Bean
    public ComponentCustomizer configureKafkaFetchShareComponent() {
        return new SchemeCustomizer(applicationContext, camelContext, configuration, "kafka-fetch-share",
                KafkaFetchShareComponent.class);
    }
}
