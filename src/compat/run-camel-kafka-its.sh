#!/usr/bin/env bash
# Runs camel-kafka 4.22.0's own consumer integration tests against kafka-fetch (issue 23), the way a migrating team
# would: only the consumer scheme swapped (kafka: -> kafka-fetch: in the consumer URIs), the component-level broker
# setting carried over to a kafka-fetch component, camel-kafka-fetch-compat on the class path, the embedded KRaft
# broker of camel-kafka-fetch-test-infra instead of Testcontainers (src/compat/camel-its-infra stands in for
# camel-test-infra-core/-kafka, which are not published to Maven Central).
#
# Apache Camel's test code is never copied into this repository: it is checked out under /tmp (tag camel-4.22.0) or
# taken from CAMEL_SRC (a directory holding org/apache/camel/component/kafka/... test sources). Not run by CI.
# Without network and without CAMEL_SRC it skips and exits 0.
#
# Usage: src/compat/run-camel-kafka-its.sh [TestClass ...]     env: CAMEL_SRC, WORK (default /tmp/camel-kafka-its)
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-/tmp/camel-kafka-its}
TAG=camel-4.22.0
PKG=org/apache/camel/component/kafka
# the consumer ITs measured (paths under $PKG/integration) and the support files they need
TESTS_DEFAULT=(KafkaConsumerFullIT KafkaConsumerTopicIsPatternIT commit/KafkaConsumerNoopCommitIT KafkaConsumerBatchSizeIT KafkaConsumerLastRecordHeaderIT KafkaConsumerRebalanceIT
  commit/KafkaConsumerSyncCommitIT commit/KafkaConsumerAsyncCommitIT batching/KafkaBatchingProcessingManualCommitIT
  health/KafkaConsumerHealthCheckIT)
SUPPORT=(BaseKafkaTestSupport BaseEmbeddedKafkaTestSupport common/KafkaTestUtil common/KafkaAdminUtil
  commit/BaseManualCommitTestSupport batching/BatchingProcessingITSupport health/KafkaHealthCheckTestSupport)
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
copy "$PKG/MockConsumerInterceptor.java"
for f in "${SUPPORT[@]}" "${TESTS[@]}"; do copy "$PKG/integration/$f.java"; done

# the migration: the consumer scheme in from(...) and in the strings the tests pass to from(...); the broker setting
# of the tests' camel-kafka component carried over to a kafka-fetch component
find "$SRC" -name '*.java' -print0 | xargs -0 sed -i -E \
  -e 's/(from|fromF)\("kafka:/\1("kafka-fetch:/g' \
  -e 's/((FROM_URI|String from) *= *)"kafka:/\1"kafka-fetch:/' \
  -e 's/context\.addComponent\("kafka", kafka\);/&\n        org.apache.camel.component.kafka.integration.common.KafkaFetchCarryOver.carryOver(context, kafka);/'
(cd "$SRC" && grep -rnE 'kafka-fetch|KafkaFetchCarryOver' --include=*.java . > "$WORK/reports/changed-lines.txt" || true)

# the class path: camel-kafka-fetch-compat's test class path (component, compat, camel-kafka, test infra, JUnit)
CP_FILE="$WORK/compat-classpath.txt"
(cd "$REPO" && mvn -B -q -o -pl camel-kafka-fetch-compat -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$WORK/cp-\${project.artifactId}.txt" >/dev/null)
cp "$WORK/cp-camel-kafka-fetch-compat.txt" "$CP_FILE"
CP="$REPO/camel-kafka-fetch-compat/target/classes:$(cat "$CP_FILE")"
LAUNCHER=$(find ~/.m2/repository/org/junit/platform/junit-platform-console-standalone -name '*.jar' 2>/dev/null | sort -V | tail -1)
if [ -z "$LAUNCHER" ]; then
  mvn -B -q dependency:get -Dartifact=org.junit.platform:junit-platform-console-standalone:1.14.4 -Dtransitive=false
  LAUNCHER=$(find ~/.m2/repository/org/junit/platform/junit-platform-console-standalone -name '*.jar' | sort -V | tail -1)
fi

javac -nowarn -proc:none -d "$WORK/classes" -cp "$CP" \
  $(find "$REPO/src/compat/camel-its-infra" "$SRC" -name '*.java') 2>&1 | grep -v '^Note:' >&2 || true
[ -n "$(find "$WORK/classes" -name 'KafkaTestUtil.class')" ] || { echo "FAILED: the tests did not compile"; exit 1; }

SELECT=()
for t in "${TESTS[@]}"; do SELECT+=(--select-class "org.apache.camel.component.kafka.integration.${t//\//.}"); done
set +e
java -cp "$WORK/classes:$CP:$LAUNCHER" org.junit.platform.console.ConsoleLauncher execute \
  --disable-banner --details=tree --reports-dir="$WORK/reports" "${SELECT[@]}" > "$WORK/reports/console.txt" 2>&1
rc=$?
set -e
grep -E '^\[ +[0-9]+ tests (found|skipped|successful|failed|aborted)' "$WORK/reports/console.txt"
grep -E '✘' "$WORK/reports/console.txt" | sed -E 's/\x1b\[[0-9;]*m//g' || true
echo "details: $WORK/reports (console.txt, TEST-junit-jupiter.xml, changed-lines.txt); launcher exit $rc"
