#!/usr/bin/env bash
# Runs the camel-kafka-fetch benchmark harness (see src/main/java/dev/kafkafetch/bench/BenchMain.java).
#
#   benchmarks/run.sh                  # every scenario, full counts; results go to src/benchmarks/
#   benchmarks/run.sh --smoke          # every scenario, then the share one, with tiny counts (~2-3 min), results to benchmarks/target/bench-smoke
#   benchmarks/run.sh --scenarios 1,3 --rounds 5 --bootstrap localhost:9092
#   benchmarks/run.sh --broker-jvm ... # the broker in a JVM of its own (its CPU apart from the contenders')
#
# A run without --scenarios ends with the share-group scenario (ShareScenario, as share.sh runs it: 5 measured rounds,
# default options) on the same broker, with the same seed and output directory; --smoke runs it with tiny counts.
#
# Builds the reactor (component, test-infra, benchmarks) with `package` and runs the harness on the reactor's jars:
# nothing is installed into ~/.m2, so other builds on the machine keep their SNAPSHOT artifacts.
# Environment: BENCH_JVM = options of the harness JVM (default -Xms1g -Xmx2g -XX:+UseG1GC);
# BENCH_COMPONENT_JAR = run against another build of camel-kafka-fetch-component (e.g. an older commit's jar, for a
# before/after comparison on one broker); BENCH_NO_BUILD=1 skips the build (reuses the last class path).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
args=()
broker_jvm=false
for a in "$@"; do
  if [[ "$a" == "--broker-jvm" ]]; then broker_jvm=true; else args+=("$a"); fi
done
[[ ${#args[@]} -eq 0 ]] && args=(--all)
out="$root/src/benchmarks"
share=true
share_args=(--rounds 5)
for ((i = 0; i < ${#args[@]}; i++)); do
  a="${args[$i]}"
  next="${args[$((i + 1))]:-}"
  case "$a" in
    --smoke) out="$here/target/bench-smoke"
      share_args=(--records 20000 --window-ms 1000 --settle-ms 500 --small 64 --small-settle-ms 2000 --rounds 1
        --warmups 0) ;;
    --out) out=""; share_args+=(--out "$next") ;;
    --seed | --bootstrap) share_args+=("$a" "$next") ;;
    --scenarios) share=false ;;
  esac
done
cd "$root"
if [[ "${BENCH_NO_BUILD:-}" != "1" ]]; then
  mvn -B -q -pl benchmarks -am -DskipTests package dependency:build-classpath \
    -Dmdep.outputFile=target/run.classpath -Dmdep.includeScope=runtime
fi
cp="$here/target/classes:$(cat "$here/target/run.classpath")"
if [[ -n "${BENCH_COMPONENT_JAR:-}" ]]; then
  cp="$(echo "$cp" | tr ':' '\n' | sed "s#^.*/camel-kafka-fetch-component-[^/]*\.jar\$#${BENCH_COMPONENT_JAR}#" | paste -sd:)"
fi
read -r -a jvm <<< "${BENCH_JVM:--Xms1g -Xmx2g -XX:+UseG1GC -Djava.awt.headless=true}"
# the results file names the commit measured (and says so when the work tree differs from it)
commit="$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
git -C "$root" diff --quiet HEAD 2>/dev/null || commit="$commit + uncommitted changes"
[[ -n "${BENCH_COMPONENT_JAR:-}" ]] && commit="$commit (component jar $BENCH_COMPONENT_JAR)"
jvm+=("-Dbench.commit=$commit")
outargs=()
[[ -n "$out" ]] && outargs=(--out "$out") && share_args+=(--out "$out")
# the share-group scenario after the others (a failing scenario above still lets it run; the exit status says so)
share_scenario() {
  $share || return 0
  java "${jvm[@]}" -cp "$cp" dev.kafkafetch.bench.ShareScenario "${share_args[@]}" "$@"
}
if ! $broker_jvm; then
  status=0
  java "${jvm[@]}" -cp "$cp" dev.kafkafetch.bench.BenchMain "${outargs[@]}" "${args[@]}" || status=$?
  share_scenario || status=$?
  exit $status
fi
work="$(mktemp -d)"
mkfifo "$work/stdin"
java -Xms512m -Xmx1g -XX:+UseG1GC -cp "$cp" dev.kafkafetch.bench.BrokerMain < "$work/stdin" > "$work/broker.log" 2>&1 &
broker=$!
exec 3> "$work/stdin"
trap 'exec 3>&-; wait $broker 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 120); do
  grep -q '^BOOTSTRAP ' "$work/broker.log" && break
  sleep 0.5
done
bootstrap="$(grep '^BOOTSTRAP ' "$work/broker.log" | head -1 | cut -d' ' -f2)"
[[ -n "$bootstrap" ]] || { echo "the broker JVM did not start:"; cat "$work/broker.log"; exit 1; }
echo "broker JVM pid $broker at $bootstrap"
status=0
java "${jvm[@]}" -Dbench.broker.pid="$broker" -cp "$cp" dev.kafkafetch.bench.BenchMain "${outargs[@]}" \
  "${args[@]}" --bootstrap "$bootstrap" || status=$?
share_scenario --bootstrap "$bootstrap" || status=$?
exit $status
