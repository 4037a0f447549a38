#!/usr/bin/env bash
# Runs the Kafka-to-Kafka pipeline scenario (src/main/java/dev/kafkafetch/bench/PipelineScenario.java; options in its
# javadoc) on the reactor's jars, the way run.sh does (package, never install; BENCH_NO_BUILD=1 skips the build).
# Results go to src/benchmarks/pipeline-<date>.md unless --out is given.
#   benchmarks/pipeline.sh --rounds 4 --warmups 1 --records 1000000
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
if [[ "${BENCH_NO_BUILD:-}" != "1" ]]; then
  mvn -B -q -pl benchmarks -am -DskipTests package dependency:build-classpath \
    -Dmdep.outputFile=target/run.classpath -Dmdep.includeScope=runtime
fi
out=(--out "$root/src/benchmarks")
for a in "$@"; do [[ "$a" == "--out" ]] && out=(); done
read -r -a jvm <<< "${BENCH_JVM:--Xms1g -Xmx2g -XX:+UseG1GC}"
commit="$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
git -C "$root" diff --quiet HEAD 2>/dev/null || commit="$commit + uncommitted changes"
exec java "${jvm[@]}" "-Dbench.commit=$commit" -cp "$here/target/classes:$(cat "$here/target/run.classpath")" \
  dev.kafkafetch.bench.PipelineScenario "${out[@]}" "$@"
