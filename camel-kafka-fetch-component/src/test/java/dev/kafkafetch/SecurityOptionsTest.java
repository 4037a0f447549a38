package dev.kafkafetch;

import java.util.Properties;

import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * How the security options become Kafka client settings (for the consumers and the dead-letter producer alike), and
 * which combinations are refused with a message naming the option, never quoting a secret.
 */
class SecurityOptionsTest {

    private static final String BASE = "kafka-fetch:t?brokers=localhost:9092&groupId=g";
    private CamelContext context;

    @BeforeEach
    void start() {
        context = new DefaultCamelContext();
        context.start();
    }

    @AfterEach
    void stop() {
        context.stop();
    }

    @Test
    void defaultsArePlaintextWithoutJaas() {
        Properties p = common("");
        assertThat(p).containsEntry("security.protocol", "PLAINTEXT").doesNotContainKey("sasl.jaas.config");
    }

    @Test
    void plainShorthandBuildsTheJaasLineAndUsesSaslSslLikeCamelKafka() {
        Properties p = common("&saslAuthType=PLAIN&saslUsername=alice&saslPassword=RAW(pa\"ss\\word)");
        assertThat(p).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "PLAIN")
                .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required"
                                                   + " username=\"alice\" password=\"pa\\\"ss\\\\word\";");
    }

    @Test
    void shorthandKeepsSaslPlaintextWhenAskedFor() {
        Properties p = common(
                "&saslAuthType=SCRAM_SHA_512&saslUsername=bob&saslPassword=pw&securityProtocol=SASL_PLAINTEXT");
        assertThat(p).containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required"
                                                   + " username=\"bob\" password=\"pw\";");
        assertThat(common("&saslAuthType=SCRAM_SHA_256&saslUsername=bob&saslPassword=pw"))
                .containsEntry("sasl.mechanism", "SCRAM-SHA-256").containsEntry("security.protocol", "SASL_SSL");
    }

    @Test
    void explicitJaasConfigWinsOverTheBuiltOne() {
        Properties p = common("&saslAuthType=OAUTH&saslJaasConfig=RAW(my.Module required;)");
        assertThat(p).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "OAUTHBEARER")
                .containsEntry("sasl.jaas.config", "my.Module required;");
    }

    @Test
    void explicitSaslSettingsPassThrough() {
        Properties p = common("&securityProtocol=sasl_plaintext&saslMechanism=PLAIN&saslJaasConfig=RAW(x required;)");
        assertThat(p).containsEntry("security.protocol", "SASL_PLAINTEXT").containsEntry("sasl.mechanism", "PLAIN")
                .containsEntry("sasl.jaas.config", "x required;");
    }

    @Test
    void sslOptionsMapToTheClient() {
        Properties p = common("&saslAuthType=SSL&sslKeystoreLocation=/k.jks&sslKeystorePassword=kp&sslKeyPassword=kk"
                              + "&sslTruststoreLocation=/t.p12&sslTruststorePassword=tp&sslTruststoreType=PKCS12"
                              + "&sslProtocol=TLSv1.3&sslEnabledProtocols=TLSv1.3&sslEndpointAlgorithm=none"
                              + "&sslCipherSuites=TLS_AES_128_GCM_SHA256&sslProvider=SunJSSE");
        assertThat(p).containsEntry("security.protocol", "SSL").containsEntry("ssl.keystore.location", "/k.jks")
                .containsEntry("ssl.keystore.password", "kp").containsEntry("ssl.key.password", "kk")
                .containsEntry("ssl.keystore.type", "JKS").containsEntry("ssl.truststore.location", "/t.p12")
                .containsEntry("ssl.truststore.password", "tp").containsEntry("ssl.truststore.type", "PKCS12")
                .containsEntry("ssl.protocol", "TLSv1.3").containsEntry("ssl.enabled.protocols", "TLSv1.3")
                .containsEntry("ssl.endpoint.identification.algorithm", "")
                .containsEntry("ssl.keymanager.algorithm", "SunX509")
                .containsEntry("ssl.trustmanager.algorithm", "PKIX")
                .containsEntry("ssl.cipher.suites", "TLS_AES_128_GCM_SHA256").containsEntry("ssl.provider", "SunJSSE");
        assertThat(common("&securityProtocol=SSL")).containsEntry("ssl.endpoint.identification.algorithm", "https");
    }

    @Test
    void noneIsPlaintextOrSslWithAStore() {
        assertThat(common("&saslAuthType=NONE&securityProtocol=SASL_SSL")).containsEntry("security.protocol",
                "PLAINTEXT");
        assertThat(common("&saslAuthType=NONE&sslTruststoreLocation=/t.jks")).containsEntry("security.protocol", "SSL");
    }

    @Test
    void consumerPropertiesCarryTheSameSecuritySettings() {
        KafkaFetchEndpoint endpoint = endpoint(
                "&saslAuthType=PLAIN&saslUsername=a&saslPassword=b&sslTruststoreLocation=/t");
        Properties consumer = endpoint.taskSettings().properties();
        endpoint.taskSettings().producerProperties().forEach((k, v) -> assertThat(consumer).containsEntry(k, v));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "&saslAuthType=OAUTH|oauthClientId",
        "&saslAuthType=OAUTH&oauthClientId=c&oauthClientSecret=hush-1234|oauthTokenEndpointUri",
        "&saslAuthType=OAUTH&oauthClientId=c&oauthTokenEndpointUri=http://t|oauthClientSecret",
        "&oauthClientSecret=hush-1234|oauthClientSecret",
        "&saslAuthType=BOGUS|saslAuthType",
        "&saslAuthType=PLAIN&saslPassword=hush-1234|saslUsername",
        "&saslAuthType=SCRAM_SHA_256&saslUsername=u|saslPassword",
        "&saslPassword=hush-1234|saslPassword",
        "&saslUsername=u|saslUsername",
        "&saslAuthType=SSL&saslUsername=u&saslPassword=hush-1234|saslUsername",
        "&securityProtocol=TLS|securityProtocol" })
    void badSecurityOptionsAreRefusedNamingTheOption(String options, String named) {
        Throwable failure = catchThrowable(() -> endpoint(options).taskSettings());
        assertThat(failure).isNotNull();
        String messages = messages(failure);
        assertThat(messages).contains(named).doesNotContain("hush-1234");
    }

    private Properties common(String options) {
        return endpoint(options).taskSettings().producerProperties();
    }

    private KafkaFetchEndpoint endpoint(String options) {
        return context.getEndpoint(BASE + options, KafkaFetchEndpoint.class);
    }

    private static String messages(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c.getMessage()).append(" | ");
        }
        return sb.toString();
    }
}
