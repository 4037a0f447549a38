package dev.kafkafetch.it.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.KafkaFetchComponent;
import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.jsse.KeyStoreParameters;
import org.apache.camel.support.jsse.SSLContextParameters;
import org.apache.camel.support.jsse.TrustManagersParameters;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * TLS against a broker with an SSL listener and a certificate generated for this test (keytool, valid two days, SAN
 * localhost): the ssl* options, an {@code sslContextParameters} bean, and the CamelContext's global SSL context
 * parameters ({@code useGlobalSslContextParameters}) each consume every record over TLS, the dead-letter producer
 * included; a trust store without the broker's certificate fails the TLS handshake (the task's last error) and gets
 * no record; an {@code sslContextParameters} that
 * does not resolve fails the route's start naming the option.
 */
class SslIT {

    private static final String PASSWORD = "changeit-1";
    @TempDir
    static Path dir;
    private static EmbeddedKafkaCluster cluster;
    private static KafkaTestSupport kafka;
    private static Path trustStore;
    private static Path otherTrustStore;
    private final List<CamelContext> contexts = new ArrayList<>();

    @BeforeAll
    static void startBroker() throws Exception {
        Path keyStore = dir.resolve("broker.p12");
        keytool("-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=localhost",
                "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore",
                keyStore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
        Path cert = dir.resolve("broker.crt");
        keytool("-exportcert", "-alias", "broker", "-keystore", keyStore.toString(), "-storepass", PASSWORD, "-rfc",
                "-file", cert.toString());
        trustStore = dir.resolve("trust.p12");
        keytool("-importcert", "-noprompt", "-alias", "broker", "-file", cert.toString(), "-storetype", "PKCS12",
                "-keystore", trustStore.toString(), "-storepass", PASSWORD);
        // a trust store holding some other certificate
        Path other = dir.resolve("other.p12");
        keytool("-genkeypair", "-alias", "other", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=other",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", other.toString(), "-storepass", PASSWORD,
                "-keypass", PASSWORD);
        Path otherCert = dir.resolve("other.crt");
        keytool("-exportcert", "-alias", "other", "-keystore", other.toString(), "-storepass", PASSWORD, "-rfc",
                "-file", otherCert.toString());
        otherTrustStore = dir.resolve("other-trust.p12");
        keytool("-importcert", "-noprompt", "-alias", "other", "-file", otherCert.toString(), "-storetype", "PKCS12",
                "-keystore", otherTrustStore.toString(), "-storepass", PASSWORD);

        cluster = EmbeddedKafkaCluster.builder().sslListener(keyStore.toString(), PASSWORD).start();
        kafka = new KafkaTestSupport(cluster.plaintextBootstrapServers());
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterEach
    void stopContexts() {
        contexts.forEach(CamelContext::stop);
        contexts.clear();
    }

    @Test
    void sslOptionsConsumeEverythingAndDeadLetterOverTls() throws Exception {
        String topic = KafkaTestSupport.uniqueName("tls");
        kafka.createTopic(topic, 2);
        kafka.createTopic(topic + ".dlt", 1);
        List<String> produced = kafka.produceIds(topic, 200, "s", 10);
        Recorder recorder = new Recorder();
        CamelContext context = context();
        context.addRoutes(route(uri(topic, "securityProtocol=SSL&sslTruststoreLocation=" + trustStore
                                           + "&sslTruststoreType=PKCS12&sslTruststorePassword=RAW(" + PASSWORD + ")"
                                           + "&deadLetterTopic=" + topic + ".dlt"),
                recorder, "id-s-7"));
        context.start();

        await().atMost(Duration.ofSeconds(60)).until(() -> recorder.ids().size() >= produced.size() - 1);
        assertThat(recorder.lost(produced)).containsExactly("id-s-7");
        // the dead letter is published after the route gave up on the record, possibly after the others finished
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(kafka.readAll(topic + ".dlt",
                Duration.ofSeconds(10))).extracting(ConsumerRecord::value).containsExactly("id-s-7"));
    }

    @Test
    void sslContextParametersBeanAndGlobalParametersConsumeOverTls() throws Exception {
        String topic = KafkaTestSupport.uniqueName("tls");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, 50, "c", 5);

        Recorder viaBean = new Recorder();
        CamelContext one = context();
        one.getRegistry().bind("tls", sslContextParameters(trustStore));
        one.addRoutes(route(uri(topic, "securityProtocol=SSL&sslContextParameters=#tls"), viaBean, null));
        one.start();

        Recorder viaGlobal = new Recorder();
        CamelContext two = context();
        two.setSSLContextParameters(sslContextParameters(trustStore));
        two.getComponent("kafka-fetch", KafkaFetchComponent.class).setUseGlobalSslContextParameters(true);
        two.addRoutes(route(uri(topic, "securityProtocol=SSL"), viaGlobal, null));
        two.start();

        await().atMost(Duration.ofSeconds(60)).until(() -> viaBean.ids().containsAll(produced)
                                                           && viaGlobal.ids().containsAll(produced));
    }

    @Test
    void anUntrustedBrokerCertificateDeliversNothing() throws Exception {
        String topic = KafkaTestSupport.uniqueName("tls");
        kafka.createTopic(topic, 1);
        kafka.produceIds(topic, 10, "u", 1);
        Recorder recorder = new Recorder();
        CamelContext context = context();
        context.addRoutes(route(uri(topic, "securityProtocol=SSL&sslTruststoreLocation=" + otherTrustStore
                                           + "&sslTruststoreType=PKCS12&sslTruststorePassword=RAW(" + PASSWORD + ")"),
                recorder, null));
        context.start();
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoutes().get(0).getConsumer();
        // the failure itself: the task's last error is the TLS handshake's
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(consumer.taskSnapshots()).extracting(TaskSnapshot::lastError)
                        .as("the tasks' last errors").anySatisfy(error -> assertThat(error)
                                .contains("SslAuthenticationException")));
        // and so nothing arrived
        assertThat(recorder.count()).as("records delivered through an untrusted broker").isZero();
    }

    @Test
    void anSslContextParametersThatDoesNotResolveFailsTheStartNamingIt() {
        CamelContext context = context();
        Throwable failure = catchThrowable(() -> {
            context.addRoutes(route(uri("t", "securityProtocol=SSL&sslContextParameters=#missing"), new Recorder(),
                    null));
            context.start();
        });
        StringBuilder messages = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append(" | ");
        }
        assertThat(messages.toString()).contains("sslContextParameters");
    }

    private CamelContext context() {
        CamelContext context = new DefaultCamelContext();
        contexts.add(context);
        return context;
    }

    private static String uri(String topic, String extra) {
        return "kafka-fetch:" + topic + "?brokers=" + cluster.bootstrapServers() + "&groupId="
               + KafkaTestSupport.uniqueName("g") + "&autoOffsetReset=earliest&autoCommitIntervalMs=200&" + extra;
    }

    private static SSLContextParameters sslContextParameters(Path trust) {
        KeyStoreParameters store = new KeyStoreParameters();
        store.setResource("file:" + trust);
        store.setType("PKCS12");
        store.setPassword(PASSWORD);
        TrustManagersParameters trustManagers = new TrustManagersParameters();
        trustManagers.setKeyStore(store);
        SSLContextParameters parameters = new SSLContextParameters();
        parameters.setTrustManagers(trustManagers);
        return parameters;
    }

    private static RouteBuilder route(String uri, Recorder recorder, String poison) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> {
                    if (e.getMessage().getBody(String.class).equals(poison)) {
                        throw new IllegalStateException("poison " + poison);
                    }
                }).process(recorder);
            }
        };
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + out);
        }
    }
}
