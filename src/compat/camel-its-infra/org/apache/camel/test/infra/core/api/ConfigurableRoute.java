package org.apache.camel.test.infra.core.api;

import org.apache.camel.CamelContext;

/** A test that adds its routes to the context. */
public interface ConfigurableRoute {
    void createRouteBuilder(CamelContext context) throws Exception;
}
