package dev.kafkafetch.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RouteVariantTest {

    @Test
    void theCpuRouteSpinsACalibratedDeterministicLoopAndStillCountsEveryRecord() {
        Work work = new Work(3, 0, true, 0, RouteVariant.CPU);

        for (int i = 0; i < 3; i++) {
            work.onRecord(0, i, null);
        }

        assertThat(RouteVariant.cpuIterations()).isPositive();
        assertThat(RouteVariant.spin(7, 1000)).isEqualTo(RouteVariant.spin(7, 1000)).isNotEqualTo(7);
        assertThat(work.count()).isEqualTo(3);
        assertThat(work.distinct()).isEqualTo(3);
        assertThat(work.targetNanos()).isPositive();
        assertThat(work.readsHeaders()).isFalse();
    }

    @Test
    void onlyTheHeadersRouteAsksForTheKeyAndPartition() {
        assertThat(new Work(1, 0, false, 0, RouteVariant.HEADERS).readsHeaders()).isTrue();
        assertThat(new Work(1, 0, false, 0).readsHeaders()).isFalse();
    }

    @Test
    void routesParseByTheirIdsAndTravelToAChildJvm() {
        assertThat(RouteVariant.parse(" Headers")).isEqualTo(RouteVariant.HEADERS);
        assertThatThrownBy(() -> RouteVariant.parse("json")).hasMessageContaining("json");
        ContenderSpec spec = ContenderSpec.camelKafkaBatching(1).withRoute(RouteVariant.CPU);

        assertThat(ContenderSpec.parse(spec.toArg())).isEqualTo(spec);
        assertThat(ContenderSpec.parse("kafka-fetch,1,64,UNORDERED,100,false").route()).isEqualTo(RouteVariant.PLAIN);
        assertThat(spec.label()).isEqualTo("camel-kafka batching");
        assertThat(spec.describe()).isEqualTo("camel-kafka batching [cpu]");
    }
}
