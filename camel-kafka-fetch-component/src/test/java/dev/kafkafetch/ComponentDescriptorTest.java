package dev.kafkafetch;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

import dev.kafkafetch.share.KafkaFetchShareComponent;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jar describes itself as Camel's component jars do, so catalog tools and Camel JBang find {@code kafka-fetch} and
 * {@code kafka-fetch-share}:
 * {@code META-INF/services/org/apache/camel/component.properties} names the components and the project's coordinates,
 * and each component is resolved by its scheme alone.
 */
class ComponentDescriptorTest {

    @Test
    void componentPropertiesNameTheComponentAndTheArtifact() throws IOException {
        Properties p = new Properties();
        try (InputStream in = getClass().getClassLoader()
                .getResourceAsStream("META-INF/services/org/apache/camel/component.properties")) {
            assertThat(in).isNotNull();
            p.load(in);
        }
        assertThat(p.getProperty("components")).isEqualTo("kafka-fetch kafka-fetch-share");
        assertThat(p.getProperty("groupId")).isEqualTo("dev.kafkafetch");
        assertThat(p.getProperty("artifactId")).isEqualTo("camel-kafka-fetch-component");
        assertThat(p.getProperty("version")).isNotBlank().doesNotContain("${");
    }

    @Test
    void theSchemeAloneResolvesTheComponent() throws Exception {
        try (CamelContext context = new DefaultCamelContext()) {
            assertThat(context.getComponent("kafka-fetch")).isInstanceOf(KafkaFetchComponent.class);
            assertThat(context.getComponent("kafka-fetch-share")).isInstanceOf(KafkaFetchShareComponent.class);
        }
    }
}
