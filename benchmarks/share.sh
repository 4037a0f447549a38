#!/usr/bin/env bash
# Runs the share-group scenario (src/main/java/dev/kafkafetch/bench/ShareScenario.java; options in its javadoc) on the
# reactor's jars, the way run.sh does (package, never install; BENCH_NO_BUILD=1 skips the build). Results go to
# src/benchmarks/share-<date>.md unless --out is given.
#   benchmarks/share.sh --rounds 3 --warmups 1 --max-poll-records 24,32
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
exec java "${jvm[@]}" -cp "$here/target/classes:$(cat "$here/target/run.classpath")" dev.kafkafetch.bench.ShareScenario \
  "${out[@]}" "$@"
