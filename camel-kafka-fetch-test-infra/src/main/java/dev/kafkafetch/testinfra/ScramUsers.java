package dev.kafkafetch.testinfra;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.config.SaslConfigs;

/**
 * Stores the SCRAM users of a running cluster in its metadata.
 * <p>
 * Guarantees: when {@link #create} returns, every SCRAM user has credentials for both
 * {@link EmbeddedKafkaCluster#SCRAM_MECHANISMS} and has logged in with each of them on the SASL listener of every
 * broker, so a test's first SCRAM client does not race the propagation of the credentials; otherwise it throws once
 * {@link ClusterReadiness#BROKER_TIMEOUT} has passed for all logins together, naming the listener and the last error.
 */
final class ScramUsers {

    private ScramUsers() {
    }

    /**
     * Stores the credentials of {@code users}' SCRAM users through the unauthenticated PLAINTEXT listener at
     * {@code plaintextBootstrap}, then waits until each can authenticate on every port in {@code saslPorts}.
     */
    static void create(String plaintextBootstrap, List<Integer> saslPorts, SaslUsers users) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, plaintextBootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30000))) {
            // one request per mechanism: a request may alter a user's credential only once
            for (ScramMechanism mechanism : List.of(ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512)) {
                List<UserScramCredentialAlteration> upserts = new ArrayList<>();
                for (String user : users.scramUsers()) {
                    upserts.add(new UserScramCredentialUpsertion(user, new ScramCredentialInfo(mechanism, 4096),
                            users.password(user)));
                }
                admin.alterUserScramCredentials(upserts).all().get(30, TimeUnit.SECONDS);
            }
        }
        long deadline = System.nanoTime() + ClusterReadiness.BROKER_TIMEOUT.toNanos();
        for (int port : saslPorts) {
            for (String user : users.scramUsers()) {
                for (String mechanism : EmbeddedKafkaCluster.SCRAM_MECHANISMS) {
                    awaitSaslLogin("localhost:" + port,
                            EmbeddedKafkaCluster.clientProperties(user, users.password(user), mechanism), deadline);
                }
            }
        }
    }

    private static void awaitSaslLogin(String bootstrap, Map<String, Object> client, long deadline)
            throws InterruptedException {
        Map<String, Object> conf = new LinkedHashMap<>(client);
        conf.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        conf.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        conf.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000);
        Throwable last = null;
        while (System.nanoTime() < deadline) {
            try (Admin admin = Admin.create(conf)) {
                admin.describeCluster().clusterId().get(5, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException | TimeoutException e) {
                last = e.getCause() != null ? e.getCause() : e;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("SCRAM login at " + bootstrap + " as " + conf.get(SaslConfigs.SASL_MECHANISM)
                                        + " did not succeed within " + ClusterReadiness.BROKER_TIMEOUT + ": " + last);
    }
}
