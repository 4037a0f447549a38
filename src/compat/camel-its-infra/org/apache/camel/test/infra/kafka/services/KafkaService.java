package org.apache.camel.test.infra.kafka.services;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Stand-in for camel-test-infra-kafka's service (not published to Maven Central): the part of its interface that
 * camel-kafka's consumer tests call, backed by kafka-fetch's embedded KRaft broker instead of a container.
 */
public interface KafkaService extends BeforeAllCallback, AfterAllCallback {

    String getBootstrapServers();

    /** Starts the broker if it is not running. */
    void initialize();

    /** Stops the broker (the health tests call it to make readiness DOWN); a second call does nothing. */
    void shutdown();

    @Override
    default void beforeAll(ExtensionContext extensionContext) {
        initialize();
    }
}
