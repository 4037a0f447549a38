#!/usr/bin/env bash
# Runs the slow I/O scenario (src/main/java/dev/kafkafetch/bench/SlowIoScenario.java; options in its javadoc) on the
# reactor's jars, the way run.sh does (package, never install; BENCH_NO_BUILD=1 skips the build). With JAVA21_HOME (or
# -Dkafkafetch.java21.home in BENCH_JVM) naming a Java 21+ JDK, the kafka-fetch contenders also run there on virtual
# threads. Results go to src/benchmarks/slow-io-<date>.md unless --out is given.
#   JAVA21_HOME=/path/to/jdk-21 benchmarks/slow-io.sh --n 1000,4000,10000
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
exec java "${jvm[@]}" -cp "$here/target/classes:$(cat "$here/target/run.classpath")" dev.kafkafetch.bench.SlowIoScenario \
  "${out[@]}" "$@"
