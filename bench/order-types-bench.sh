#!/usr/bin/env bash
# Runs one build's BlpBenchmark on two workloads alternately, round by round, as separate JVMs: the existing workload
# and the same spec with stop-limit orders and icebergs (GenerateWorkload --stop-percent P --iceberg-percent P), so
# the order types' throughput is read beside the plain workload's under the same load. There is no exchange-core
# figure for the second: exchange-core has neither order type.
#
#   bench/order-types-bench.sh TREE PLAIN_WORKLOAD ORDER_TYPES_WORKLOAD ROUNDS [extra BlpBenchmark args...]
#
#   TREE   a checkout built with: mvn -B -o -q -pl protocol,journal,engine,bench/ringex -am package -DskipTests
# Env: OUT (default /tmp/eng-bench/runs), PASSES (default 3), HEAP (default -Xms2g -Xmx2g). Each JVM reports its last
# pass; `uptime` is logged before each.
set -euo pipefail
tree="$(cd "${1:?TREE}" && pwd)"
plain="${2:?plain workload}"
typed="${3:?order-types workload}"
rounds="${4:?rounds}"
shift 4
args=("$@")
out="${OUT:-/tmp/eng-bench/runs}"
passes="${PASSES:-3}"
heap="${HEAP:--Xms2g -Xmx2g}"
mkdir -p "$out"

cp_file="$tree/bench/ringex/target/engine-bench.classpath"
if [ ! -s "$cp_file" ]; then
    (cd "$tree" && mvn -B -o -q -pl bench/ringex dependency:build-classpath -DexcludeGroupIds=io.ringex \
        -Dmdep.outputFile="$cp_file" >/dev/null)
fi
cp="$tree/bench/ringex/target/classes:$tree/engine/target/classes:$tree/journal/target/classes"
cp="$cp:$tree/client/target/classes:$tree/protocol/target/classes:$tree/common/target/classes:$(cat "$cp_file")"
read -r -a jvm_flags < "$tree/protocol/target/classes/ringex-jvm.flags"
read -r -a engine_flags <<< "$(cat "$tree/protocol/target/classes/ringex-engine-jvm.flags")"
jvm_flags+=("${engine_flags[@]}")
tag="blp-order-types-$(date +%H%M%S)"
log="$out/$tag.log"
plains=()
typeds=()

run()
{
    local name="$1" workload="$2" r="$3"
    echo "## round $r $name $(basename "$workload"): uptime $(uptime | sed 's/.*load average: //')" | tee -a "$log"
    # shellcheck disable=SC2086
    java "${jvm_flags[@]}" $heap -cp "$cp" io.ringex.bench.engine.BlpBenchmark --workload "$workload" \
        --passes "$passes" "${args[@]}" > "$out/$tag-$name-$r.out" 2>&1
    grep -E '^(pass=|REJECTS|RESULT)' "$out/$tag-$name-$r.out" | tee -a "$log"
    grep '^RESULT' "$out/$tag-$name-$r.out" | sed -E 's/.* mcps=([0-9.]+) cpuMcps=([0-9.]+).*/\1 \2/'
}

median()
{
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
        else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "# $tag: tree=$tree plain=$plain orderTypes=$typed rounds=$rounds passes=$passes" | tee -a "$log"
plain_cpu=()
typed_cpu=()
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then
        read -r m c <<< "$(run plain "$plain" "$r" | tail -1)"; plains+=("$m"); plain_cpu+=("$c")
        read -r m c <<< "$(run typed "$typed" "$r" | tail -1)"; typeds+=("$m"); typed_cpu+=("$c")
    else
        read -r m c <<< "$(run typed "$typed" "$r" | tail -1)"; typeds+=("$m"); typed_cpu+=("$c")
        read -r m c <<< "$(run plain "$plain" "$r" | tail -1)"; plains+=("$m"); plain_cpu+=("$c")
    fi
done
echo "SUMMARY rounds=$rounds passes=$passes plain=$(IFS=,; echo "${plains[*]}")" \
    "orderTypes=$(IFS=,; echo "${typeds[*]}") plainMedian=$(median "${plains[@]}")" \
    "orderTypesMedian=$(median "${typeds[@]}") plainCpuMedian=$(median "${plain_cpu[@]}")" \
    "orderTypesCpuMedian=$(median "${typed_cpu[@]}")" | tee -a "$log"
