package org.apache.camel.test.infra.kafka.services;

/** Stand-in for the one static helper that camel-kafka's KafkaAdminUtil calls (SASL tests are not run here). */
public final class ContainerLocalAuthKafkaService {

    private ContainerLocalAuthKafkaService() {
    }

    public static String generateSimpleSaslJaasConfig(String username, String password) {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + username
               + "\" password=\"" + password + "\";";
    }
}
