package dev.kafkafetch.testinfra;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import kafka.server.BrokerServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.metadata.BrokerState;

/**
 * Bounded waits until an embedded cluster's brokers serve: after the first start and after a broker restart.
 * <p>
 * Guarantees: every wait ends within its timeout ({@link #START_TIMEOUT} for a start, {@link #BROKER_TIMEOUT} for one
 * broker) with an {@link IllegalStateException} naming what was not ready; the test kit's own blocking calls run on a
 * daemon thread, so a hung broker cannot keep the caller or the JVM waiting.
 */
final class ClusterReadiness {

    /** How long a cluster may take from {@code startup()} to ready brokers. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    /** How long one broker may take to run again, be seen ready, lead its partitions or accept a login. */
    static final Duration BROKER_TIMEOUT = Duration.ofSeconds(60);

    private ClusterReadiness() {
    }

    /** Starts the nodes of a formatted kit and waits, bounded, until the brokers are ready. */
    static void startAndAwaitReady(KafkaClusterTestKit kit) {
        CompletableFuture<Void> started = CompletableFuture.runAsync(() -> {
            try {
                kit.startup();
                kit.waitForReadyBrokers();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }, ClusterReadiness::runOnDaemonThread);
        try {
            started.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            started.cancel(true);
            throw new IllegalStateException("Embedded Kafka cluster not ready within " + START_TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while starting an embedded Kafka cluster", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof IllegalStateException && e.getCause().getCause() != null
                    ? e.getCause().getCause() : e.getCause();
            throw new IllegalStateException("Embedded Kafka cluster failed to start: " + cause, cause);
        }
    }

    /** Waits until broker node {@code id} reports {@link BrokerState#RUNNING}. */
    static void awaitBrokerRunning(BrokerServer broker, int id) {
        long deadline = System.nanoTime() + BROKER_TIMEOUT.toNanos();
        while (broker.brokerState() != BrokerState.RUNNING) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Broker node " + id + " did not reach RUNNING within " + BROKER_TIMEOUT
                                                + " (state " + broker.brokerState() + ")");
            }
            sleep(20);
        }
    }

    /** Waits for the test kit's own readiness check: all brokers unfenced and known to each other. */
    static void awaitReady(KafkaClusterTestKit kit, String what) {
        CompletableFuture<Void> ready = CompletableFuture.runAsync(() -> {
            try {
                kit.waitForReadyBrokers();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }, ClusterReadiness::runOnDaemonThread);
        try {
            ready.get(BROKER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            ready.cancel(true);
            throw new IllegalStateException("Kafka brokers not ready within " + BROKER_TIMEOUT + " after " + what);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for Kafka brokers after " + what, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Kafka brokers not ready after " + what + ": " + e.getCause(),
                    e.getCause());
        }
    }

    /**
     * Waits until every partition (internal topics included) with a replica on a running broker has a running leader;
     * {@code stopped} holds the node ids of the stopped brokers and is read on each check.
     */
    static void awaitAllPartitionsHaveLeaders(KafkaClusterTestKit kit, Set<Integer> stopped, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Object> conf = Map.of(
                // the kit's unauthenticated PLAINTEXT listener, whatever the client listener needs (SASL, TLS)
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kit.bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        String lastProblem = "unknown";
        try (Admin admin = Admin.create(conf)) {
            while (true) {
                try {
                    Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true))
                            .names().get(10, TimeUnit.SECONDS);
                    if (topics.isEmpty()) {
                        return;
                    }
                    Collection<TopicDescription> descriptions = admin.describeTopics(topics).allTopicNames()
                            .get(10, TimeUnit.SECONDS).values();
                    String leaderless = firstLeaderless(descriptions, stopped);
                    if (leaderless == null) {
                        return;
                    }
                    lastProblem = "partition " + leaderless + " has no leader";
                } catch (ExecutionException | TimeoutException e) {
                    lastProblem = String.valueOf(e.getCause() != null ? e.getCause() : e);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "Not every partition had a leader within " + timeout + ": " + lastProblem);
                }
                sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for partition leaders", e);
        }
    }

    /** The first partition ({@code topic-n}) with a replica on a running broker but no running leader, else null. */
    private static String firstLeaderless(Collection<TopicDescription> descriptions, Set<Integer> stopped) {
        for (TopicDescription d : descriptions) {
            for (TopicPartitionInfo p : d.partitions()) {
                boolean hasLiveReplica = p.replicas().stream().anyMatch(r -> !stopped.contains(r.id()));
                boolean leaderLive = p.leader() != null && !p.leader().isEmpty() && !stopped.contains(p.leader().id());
                if (hasLiveReplica && !leaderLive) {
                    return d.name() + "-" + p.partition();
                }
            }
        }
        return null;
    }

    static long millisSince(long t0) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    private static void runOnDaemonThread(Runnable r) {
        Thread t = new Thread(r, "embedded-kafka-wait");
        t.setDaemon(true);
        t.start();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }
}
