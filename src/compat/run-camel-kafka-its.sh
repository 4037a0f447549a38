#!/usr/bin/env bash
# Runs camel-kafka 4.22.0's own consumer integration tests against kafka-fetch (issue 23), the way a migrating team
# would: only the consumer scheme swapped (kafka: -> kafka-fetch: in the consumer URIs), the component-level settings
# (brokers, preValidateHostAndPort) carried over to a kafka-fetch component, camel-kafka-fetch-compat on the class
# path, the embedded KRaft broker of camel-kafka-fetch-test-infra instead of Testcontainers (src/compat/camel-its-infra
# stands in for camel-test-infra-core/-kafka, which are not published to Maven Central; its SASL stand-in uses the
# broker's SASL_PLAINTEXT listener). Camel's SASL ITs are enabled only when kafka.instance.type matches two values at
# once (never, in Camel's build): the launcher deactivates that JUnit condition so they run here. Results:
# src/compat/camel-kafka-its-2026-12-02.md.
#
# Apache Camel's test code is never copied into this repository: it is checked out under /tmp (tag camel-4.22.0) or
# taken from CAMEL_SRC (a directory holding org/apache/camel/component/kafka/... test sources). Not run by CI.
# Without network and without CAMEL_SRC it skips and exits 0.
#
# Usage: src/compat/run-camel-kafka-its.sh [TestClass ...]     env: CAMEL_SRC, WORK (default /tmp/camel-kafka-its),
#        CONTROL=1 (leave the scheme at kafka:, to see what camel-kafka's own consumer does in the same harness)
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-/tmp/camel-kafka-its}
TAG=camel-4.22.0
PKG=org/apache/camel/component/kafka
# the consumer ITs measured (paths under $PKG/integration) and the support files they need (paths under $PKG)
TESTS_2026_12_02=(KafkaConsumerFullIT KafkaConsumerTopicIsPatternIT commit/KafkaConsumerNoopCommitIT KafkaConsumerBatchSizeIT
  KafkaConsumerLastRecordHeaderIT KafkaConsumerRebalanceIT commit/KafkaConsumerSyncCommitIT commit/KafkaConsumerAsyncCommitIT
  batching/KafkaBatchingProcessingManualCommitIT health/KafkaConsumerHealthCheckIT)
TESTS_BREAK_ON_FIRST_ERROR=(KafkaBreakOnFirstErrorOffUsingKafkaManualCommitIT KafkaBreakOnFirstErrorReleaseResourcesIT
  KafkaBreakOnFirstErrorReplayOldMessagesIT KafkaBreakOnFirstErrorSeekIssueIT
  KafkaBreakOnFirstErrorWithBatchUsingAsyncCommitManagerIT KafkaBreakOnFirstErrorWithBatchUsingKafkaManualCommitIT
  KafkaBreakOnFirstErrorWithBatchUsingKafkaManualCommitRetryIT KafkaBreakOnFirstErrorWithBatchUsingSyncCommitManagerIT)
TESTS_2026_12_03=(KafkaConsumerIdempotentIT KafkaConsumerIdempotentGroupIdIT KafkaConsumerIdempotentWithCustomSerializerIT
  KafkaConsumerIdempotentWithProcessorIT batching/KafkaBatchingProcessingAutoCommitIT
  batching/KafkaBatchingProcessingAutoCommitErrorHandlingIT batching/KafkaBatchingProcessingBreakOnFirstErrorIT
  batching/KafkaBatchingProcessingBreakOnFirstErrorManualCommitIT batching/KafkaBatchingIntervalResetAfterIdleIT
  KafkaConsumerAsyncManualCommitIT commit/KafkaConsumerSyncWithOffsetRepoCommitIT
  commit/KafkaConsumerAsyncWithOffsetRepoCommitIT commit/KafkaConsumerPauseableEeiIT
  KafkaConsumerAutoInstResumeRouteStrategyIT KafkaConsumerStopIT KafkaConsumerGroupProtocolIT
  KafkaConsumerCustomSubscribeAdapterIT health/KafkaConsumerBadPortHealthCheckIT
  health/KafkaConsumerBadPortSupervisingHealthCheckIT health/KafkaConsumerUnresolvableHealthCheckIT
  KafkaConsumerAuthIT KafkaConsumerSaslAuthTypeIT)
TESTS_DEFAULT=("${TESTS_2026_12_02[@]}" "${TESTS_BREAK_ON_FIRST_ERROR[@]}" "${TESTS_2026_12_03[@]}")
SUPPORT=(MockConsumerInterceptor testutil/CamelKafkaUtil integration/BaseKafkaTestSupport
  integration/BaseEmbeddedKafkaTestSupport integration/common/KafkaTestUtil integration/common/KafkaAdminUtil
  integration/commit/BaseManualCommitTestSupport integration/batching/BatchingProcessingITSupport
  integration/health/KafkaHealthCheckTestSupport integration/KafkaConsumerIdempotentTestSupport
  integration/CustomHeaderDeserializer integration/batching/KafkaBatchingProcessingManualCommitIT
  integration/health/KafkaConsumerUnresolvableHealthCheckIT)
TESTS=("${@:-${TESTS_DEFAULT[@]}}")

mkdir -p "$WORK"
if [ -z "${CAMEL_SRC:-}" ]; then
  CHECKOUT="$WORK/camel"
  if [ ! -d "$CHECKOUT/.git" ]; then
    if ! timeout 300 git clone -q --depth 1 --branch "$TAG" --filter=blob:none --sparse \
        https://github.com/apache/camel.git "$CHECKOUT" 2>/dev/null; then
      echo "SKIP: cannot check out Apache Camel $TAG (offline?); set CAMEL_SRC to a copy of its camel-kafka test sources"
      rm -rf "$CHECKOUT"
      exit 0
    fi
    git -C "$CHECKOUT" sparse-checkout set components/camel-kafka/src/test/java
  fi
  CAMEL_SRC="$CHECKOUT/components/camel-kafka/src/test/java"
fi

SRC="$WORK/src"
rm -rf "$SRC" "$WORK/classes" "$WORK/reports"
mkdir -p "$SRC" "$WORK/classes" "$WORK/reports"
copy() { mkdir -p "$SRC/$(dirname "$1")"; cp "$CAMEL_SRC/$1" "$SRC/$1"; }
# a support file only the tests not selected need may be missing from a partial CAMEL_SRC
for f in "${SUPPORT[@]}"; do
  if [ -f "$CAMEL_SRC/$PKG/$f.java" ]; then copy "$PKG/$f.java"; else echo "note: no $PKG/$f.java in the sources" >&2; fi
done
for f in "${TESTS[@]}"; do copy "$PKG/integration/$f.java"; done

# the migration: the consumer scheme in from(...) and in the strings the tests pass to from(...); the broker setting
# of the tests' camel-kafka component carried over to a kafka-fetch component
# CONTROL=1: a control run, the same harness with the scheme left at kafka: (camel-kafka's own consumer)
# (perl -0: a from( / fromF( whose URI string starts on the next line counts too)
if [ "${CONTROL:-0}" != 1 ]; then
  find "$SRC" -name '*.java' -print0 | xargs -0 perl -0pi -e \
    's/\b(from|fromF)\((\s*)"kafka:/$1($2"kafka-fetch:/g;
     s/((FROM_URI|String from|String uri) *= *)"kafka:/$1"kafka-fetch:/g;
     s/(context\.addComponent\("kafka", kafka\);)/$1\n        org.apache.camel.component.kafka.integration.common.KafkaFetchCarryOver.carryOver(context, kafka);/g'
fi
(cd "$SRC" && grep -rnE 'kafka-fetch|KafkaFetchCarryOver' --include=*.java . > "$WORK/reports/changed-lines.txt" || true)

# the class path: camel-kafka-fetch-compat's test class path (component, compat, camel-kafka, test infra, JUnit)
CP_FILE="$WORK/compat-classpath.txt"
# offline first; online (Maven Central, for the dependency plugin's own dependencies) when that fails
build_cp() {
  (cd "$REPO" && mvn -B -q "$@" -pl camel-kafka-fetch-compat -am test-compile dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile="$WORK/cp-\${project.artifactId}.txt" >"$WORK/build.log" 2>&1)
}
build_cp -o || build_cp || { echo "FAILED: the class path build failed, see $WORK/build.log"; exit 1; }
cp "$WORK/cp-camel-kafka-fetch-compat.txt" "$CP_FILE"
CP="$REPO/camel-kafka-fetch-compat/target/classes:$(cat "$CP_FILE")"
LAUNCHER=$(find ~/.m2/repository/org/junit/platform/junit-platform-console-standalone -name '*.jar' 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$LAUNCHER" ]; then
  mvn -B -q dependency:get -Dartifact=org.junit.platform:junit-platform-console-standalone:1.14.4 -Dtransitive=false
  LAUNCHER=$(find ~/.m2/repository/org/junit/platform/junit-platform-console-standalone -name '*.jar' | sort -V | tail -1)
fi

if ! javac -nowarn -proc:none -d "$WORK/classes" -cp "$CP" \
    $(find "$REPO/src/compat/camel-its-infra" "$SRC" -name '*.java') > "$WORK/javac.log" 2>&1; then
  grep -v '^Note:' "$WORK/javac.log" >&2
  echo "FAILED: the tests did not compile"
  exit 1
fi

SELECT=()
for t in "${TESTS[@]}"; do SELECT+=(--select-class "org.apache.camel.component.kafka.integration.${t//\//.}"); done
set +e
java -cp "$WORK/classes:$CP:$LAUNCHER" org.junit.platform.console.ConsoleLauncher execute \
  --disable-banner --details=tree --reports-dir="$WORK/reports" \
  --config=junit.jupiter.conditions.deactivate=org.junit.jupiter.api.condition.EnabledIfSystemPropertyCondition "${SELECT[@]}" > "$WORK/reports/console.txt" 2>&1
rc=$?
set -e
grep -E '^\[ +[0-9]+ tests (found|skipped|successful|failed|aborted)' "$WORK/reports/console.txt"
grep -E '✘' "$WORK/reports/console.txt" | sed -E 's/\x1b\[[0-9;]*m//g' || true
echo "details: $WORK/reports (console.txt, TEST-junit-jupiter.xml, changed-lines.txt); launcher exit $rc"
