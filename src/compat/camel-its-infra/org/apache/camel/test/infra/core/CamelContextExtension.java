package org.apache.camel.test.infra.core;

import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.component.mock.MockEndpoint;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;

/** Stand-in for camel-test-infra-core's extension interface (not published to Maven Central). */
public interface CamelContextExtension extends BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    CamelContext getContext();

    ProducerTemplate getProducerTemplate();

    ConsumerTemplate getConsumerTemplate();

    MockEndpoint getMockEndpoint(String uri);
}
