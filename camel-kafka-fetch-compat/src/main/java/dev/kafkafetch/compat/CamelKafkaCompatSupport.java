package dev.kafkafetch.compat;

import dev.kafkafetch.CamelKafkaCompat;
import dev.kafkafetch.commit.KafkaManualCommitFactory;
import dev.kafkafetch.dispatch.ProcessingResult;
import org.apache.camel.resume.ConsumerListener;

/**
 * camel-kafka-fetch-compat, found by the kafka-fetch component at
 * {@code META-INF/services/dev/kafkafetch/camel-kafka-compat}: manual commits that are camel-kafka's
 * {@code KafkaManualCommit} too, and camel-kafka's Pausable EIP listener adapted. (camel-kafka's header deserializers and
 * manual-commit factories given as options are converted by {@link CamelKafkaTypeConverterLoader}.)
 */
public class CamelKafkaCompatSupport implements CamelKafkaCompat {

    @Override
    public KafkaManualCommitFactory manualCommitFactory(KafkaManualCommitFactory factory) {
        return target -> {
            dev.kafkafetch.commit.KafkaManualCommit commit = factory.newInstance(target);
            return commit instanceof org.apache.camel.component.kafka.consumer.KafkaManualCommit ? commit
                    : new BothKafkaManualCommit(target, commit::commit);
        };
    }

    @Override
    public ConsumerListener<Object, ProcessingResult> consumerListener(ConsumerListener<?, ?> camelKafkaListener) {
        return new CamelKafkaListenerAdapter(camelKafkaListener);
    }
}
