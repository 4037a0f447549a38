#!/usr/bin/env bash
# Runs the camel-kafka-fetch benchmark harness (see src/main/java/dev/kafkafetch/bench/BenchMain.java).
#
#   benchmarks/run.sh                  # every scenario, full counts; results go to src/benchmarks/
#   benchmarks/run.sh --smoke          # every scenario with tiny counts (< 1 min), results to benchmarks/target/bench-smoke
#   benchmarks/run.sh --scenarios 1,3 --rounds 5 --bootstrap localhost:9092
#
# Needs the component and test-infra installed in ~/.m2 (mvn install at the root once). Extra JVM options for the
# harness JVM: BENCH_JVM="-Xmx3g ...".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
args="${*:---all}"
out="$root/src/benchmarks"
case " $args " in
  *" --smoke "*) out="$here/target/bench-smoke" ;;
esac
extra=()
if [[ -n "${BENCH_JVM:-}" ]]; then
  extra+=("-Dbench.jvm=$BENCH_JVM")
fi
cd "$root"
mvn -B -q -pl benchmarks -DskipTests install
exec mvn -B -q -pl benchmarks exec:exec "-Dbench.args=$args" "-Dbench.out=$out" "${extra[@]}"
