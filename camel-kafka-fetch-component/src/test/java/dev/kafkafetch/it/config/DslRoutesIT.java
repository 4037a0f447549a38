package dev.kafkafetch.it.config;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.model.ModelCamelContext;
import org.apache.camel.model.RoutesDefinition;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.apache.camel.xml.in.ModelParser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The same consumer declared in YAML DSL and in XML DSL delivers every record of a 3-partition topic, in order. */
class DslRoutesIT extends KafkaFetchITSupport {

    @Test
    void yamlRoute() throws Exception {
        String topic = KafkaTestSupport.uniqueName("yaml");
        kafka.createTopic(topic, 3);
        List<String> produced = kafka.produceIds(topic, 600, "y", 12);
        Recorder recorder = new Recorder();
        CamelContext context = newContext();
        context.getRegistry().bind("recorder", recorder);
        String yaml = """
                - route:
                    id: yaml-orders
                    from:
                      uri: "%s"
                      steps:
                        - process:
                            ref: recorder
                """.formatted(uri(topic, KafkaTestSupport.uniqueName("g"), "consumersCount=2"));
        PluginHelper.getRoutesLoader(context).loadRoutes(ResourceHelper.fromString("orders.yaml", yaml));
        context.start();
        awaitCount(recorder, produced.size(), Duration.ofSeconds(60));
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        recorder.offsetsByPartition().values().forEach(o -> assertThat(o).isSorted());
        assertThat(context.getRoute("yaml-orders").getEndpoint().getEndpointUri()).startsWith("kafka-fetch:");
    }

    @Test
    void xmlRoute() throws Exception {
        String topic = KafkaTestSupport.uniqueName("xml");
        kafka.createTopic(topic, 3);
        List<String> produced = kafka.produceIds(topic, 600, "x", 12);
        Recorder recorder = new Recorder();
        CamelContext context = newContext();
        context.getRegistry().bind("recorder", recorder);
        String xml = """
                <routes xmlns="http://camel.apache.org/schema/xml-io">
                  <route id="xml-orders">
                    <from uri="%s"/>
                    <process ref="recorder"/>
                  </route>
                </routes>
                """.formatted(uri(topic, KafkaTestSupport.uniqueName("g"), "").replace("&", "&amp;"));
        RoutesDefinition routes = new ModelParser(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)))
                .parseRoutesDefinition().orElseThrow();
        ((ModelCamelContext) context).addRouteDefinitions(routes.getRoutes());
        context.start();
        awaitCount(recorder, produced.size(), Duration.ofSeconds(60));
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        recorder.offsetsByPartition().values().forEach(o -> assertThat(o).isSorted());
    }
}
