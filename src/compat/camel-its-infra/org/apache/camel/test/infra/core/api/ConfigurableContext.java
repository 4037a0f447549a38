package org.apache.camel.test.infra.core.api;

import org.apache.camel.CamelContext;

/** A test that configures the context. */
public interface ConfigurableContext {
    void configureContext(CamelContext context) throws Exception;
}
