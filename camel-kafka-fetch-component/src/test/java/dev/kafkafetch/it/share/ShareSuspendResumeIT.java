package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.share.ShareFetchTask;
import dev.kafkafetch.task.TaskState;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ServiceStatus;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Suspending a share route in the middle of a backlog: its members give back what they had not started, finish what
 * runs and leave the group, so the group's other member (another context) gets the work; nothing reaches the
 * suspended route until it is resumed; after the resume it works again (the other member suspended in turn, it routes
 * what comes after); then a stop while suspended is prompt. Every
 * record is routed exactly once over both routes (giving back unstarted records duplicates nothing).
 */
class ShareSuspendResumeIT extends ShareITSupport {

    @Test
    void aSuspendedMemberLeavesTheWorkToTheGroup() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-suspend");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 0);
        List<String> before = kafka.produceIds(topic, 300, "before", 300);
        Recorder suspendedOne = new Recorder();
        Recorder other = new Recorder();
        String uri = shareUri(topic, group, "consumersCount=2&maxConcurrency=2");
        CamelContext context = startContext(route(uri, "suspended", suspendedOne));
        // the premise: the member to be suspended works the backlog before the other joins (a first share-group join
        // on a busy broker can take long: a wide bound, never a pass without it)
        await().atMost(Duration.ofSeconds(90)).until(() -> suspendedOne.count() >= 20);
        CamelContext otherContext = startContext(route(uri, "other", other));
        List<ShareFetchTask> tasks = shareConsumer(context).tasks();

        context.getRouteController().suspendRoute("suspended");
        assertThat(context.getRouteController().getRouteStatus("suspended")).isEqualTo(ServiceStatus.Suspended);
        await().atMost(Duration.ofSeconds(20)).until(() -> tasks.stream().allMatch(t -> t.state() == TaskState.PAUSED));
        assertThat(tasks).allSatisfy(t -> assertThat(t.shareSnapshot().held()).isZero());
        int seenAtSuspend = suspendedOne.count();
        List<String> during = kafka.produceIds(topic, 100, "during", 100);
        List<String> sofar = new ArrayList<>(before);
        sofar.addAll(during);
        await().atMost(Duration.ofSeconds(60)).until(() -> union(suspendedOne, other).containsAll(sofar));
        assertThat(suspendedOne.count()).as("records delivered to the suspended route").isEqualTo(seenAtSuspend);

        context.getRouteController().resumeRoute("suspended");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> tasks.stream().allMatch(t -> t.state() == TaskState.RUNNING));
        // the other member steps aside, so what comes after the resume is the resumed route's to work (a member
        // already in the group would otherwise take it all while the resumed one joins again)
        otherContext.getRouteController().suspendRoute("other");
        List<ShareFetchTask> otherTasks = shareConsumer(otherContext).tasks();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> otherTasks.stream().allMatch(t -> t.state() == TaskState.PAUSED));
        List<String> after = kafka.produceIds(topic, 200, "after", 200);
        List<String> all = new ArrayList<>(sofar);
        all.addAll(after);
        await().atMost(Duration.ofSeconds(60)).until(() -> union(suspendedOne, other).containsAll(all));
        int resumedGot = suspendedOne.count() - seenAtSuspend;

        context.getRouteController().suspendRoute("suspended");
        await().atMost(Duration.ofSeconds(20)).until(() -> tasks.stream().allMatch(t -> t.state() == TaskState.PAUSED));
        long stopAt = System.currentTimeMillis();
        context.stop();
        long stopMs = System.currentTimeMillis() - stopAt;
        List<String> seen = new ArrayList<>(suspendedOne.ids());
        seen.addAll(other.ids());
        System.out.printf(
                "share suspend: suspended route %d (+%d after resume), other %d, stop while suspended %d ms%n",
                suspendedOne.count(), resumedGot, other.count(), stopMs);
        assertThat(resumedGot).as("records the resumed route routed").isGreaterThanOrEqualTo(after.size());
        assertThat(tasks).allSatisfy(t -> assertThat(t.state()).isEqualTo(TaskState.TERMINATED));
        assertThat(suspendedOne.duplicates()).isEmpty();
        assertThat(other.duplicates()).isEmpty();
        assertThat(seen).hasSameSizeAs(new HashSet<>(seen)).containsExactlyInAnyOrderElementsOf(all);
    }

    private static Set<String> union(Recorder a, Recorder b) {
        Set<String> ids = new HashSet<>(a.ids());
        ids.addAll(b.ids());
        return ids;
    }

    private static RouteBuilder route(String uri, String id, Recorder recorder) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId(id).process(exchange -> Thread.sleep(10)).process(recorder);
            }
        };
    }
}
