package dev.kafkafetch.error;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure the retry topics of a route exist when it starts: missing ones are created with their source topic's
 * partition count ({@code createRetryTopics=true}), or the route fails to start naming them. Blocking, bounded; called
 * once at route start, never from a fetch thread.
 */
public final class RetryTopics {

    private static final Logger LOG = LoggerFactory.getLogger(RetryTopics.class);
    private static final long TIMEOUT_SECONDS = 30;

    private RetryTopics() {
    }

    /** @param clientProperties connection and security settings of the route's clients */
    public static void ensure(RetryPlan plan, Properties clientProperties, boolean create) {
        try (Admin admin = Admin.create(clientProperties)) {
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<String> missing = new ArrayList<>();
            for (String topic : plan.retryTopics()) {
                if (!existing.contains(topic)) {
                    missing.add(topic);
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            if (!create) {
                throw new IllegalArgumentException("kafka-fetch retry topics " + missing + " do not exist; create them"
                                                   + " or set createRetryTopics=true");
            }
            List<String> sources = missing.stream().map(plan::sourceOf).distinct().toList();
            Map<String, TopicDescription> described = admin.describeTopics(sources).allTopicNames()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<NewTopic> topics = new ArrayList<>();
            for (String topic : missing) {
                int partitions = described.get(plan.sourceOf(topic)).partitions().size();
                topics.add(new NewTopic(topic, Optional.of(partitions), Optional.empty()));
            }
            try {
                admin.createTopics(topics).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            LOG.info("Created retry topics {}", missing);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while checking the retry topics " + plan.retryTopics(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("kafka-fetch cannot check or create the retry topics "
                                            + plan.retryTopics() + " (createRetryTopics): "
                                            + (e.getCause() != null ? e.getCause() : e),
                    e);
        }
    }
}
