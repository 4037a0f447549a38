package dev.kafkafetch.error;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The retry topics of an endpoint ({@code retryDelays}, {@code retryTopicPattern}): each source topic has a chain of
 * topics, the source first, then its retry topics {@code 1..n}; a record failed in one topic of a chain goes to the
 * next, where it is routed no earlier than the delay of that step. Immutable; validated when the route starts.
 */
public final class RetryPlan {

    private final long[] delaysMs;
    private final List<String> retryTopics = new ArrayList<>();
    /** Every topic of the plan (sources and retry topics): its chain, and its place in it. */
    private final Map<String, List<String>> chains = new HashMap<>();
    private final Map<String, Integer> stages = new HashMap<>();

    /** @param pattern the retry topic name, with {@code {topic}} (the source topic) and {@code {n}} (1..n) */
    public RetryPlan(List<String> sources, long[] delaysMs, String pattern) {
        this.delaysMs = delaysMs.clone();
        for (String source : sources) {
            List<String> chain = new ArrayList<>();
            chain.add(source);
            for (int n = 1; n <= delaysMs.length; n++) {
                chain.add(nameOf(pattern, source, n));
            }
            retryTopics.addAll(chain.subList(1, chain.size()));
            for (int stage = 0; stage < chain.size(); stage++) {
                chains.put(chain.get(stage), chain);
                stages.put(chain.get(stage), stage);
            }
        }
    }

    public static String nameOf(String pattern, String source, int n) {
        return pattern.replace("{topic}", source).replace("{n}", Integer.toString(n));
    }

    /** The retry topics of every source, to subscribe to and to create. */
    public List<String> retryTopics() {
        return List.copyOf(retryTopics);
    }

    public boolean isRetryTopic(String topic) {
        Integer stage = stages.get(topic);
        return stage != null && stage > 0;
    }

    /** The source topic of a topic of the plan (itself for a source). */
    public String sourceOf(String topic) {
        List<String> chain = chains.get(topic);
        return chain != null ? chain.get(0) : topic;
    }

    /** The retry topic a record failed in {@code topic} goes to next, or null when its retries are used up. */
    public String nextTopic(String topic) {
        Integer stage = stages.get(topic);
        if (stage == null || stage >= delaysMs.length) {
            return null;
        }
        return chains.get(topic).get(stage + 1);
    }

    /** How long a record failed in {@code topic} waits in its next retry topic. */
    public long delayAfter(String topic) {
        return delaysMs[stages.get(topic)];
    }
}
