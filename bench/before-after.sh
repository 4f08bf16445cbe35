#!/usr/bin/env bash
# Runs BlpBenchmark (or PipelineBenchmark) of two builds of Ringex side by side on the same workload file, as separate
# JVMs, alternating which goes first round by round, with the exchange-core 0.5.3 peer once per round, and reports
# per-round figures and medians: "before" and "after" a change, under the same load.
#
#   bench/before-after.sh BEFORE_TREE AFTER_TREE MODE WORKLOAD ROUNDS [extra args for both harnesses...]
#
#   BEFORE_TREE, AFTER_TREE  two checkouts, each built: mvn -B -o -q -pl protocol,journal,engine,bench/ringex,\
#                            bench/exchange-core -am package -DskipTests   (git archive <commit> | tar -x -C DIR)
#   MODE                     blp (BlpBenchmark) or pipeline (PipelineBenchmark)
# Env as engine-vs-exchange-core.sh: OUT (default /tmp/eng-bench/runs), PASSES (default 2), HEAP, PEER (0 skips the
# exchange-core peer). Each JVM reports its last pass; `uptime` is logged before and after each.
set -euo pipefail
before="$(cd "${1:?BEFORE_TREE}" && pwd)"
after="$(cd "${2:?AFTER_TREE}" && pwd)"
mode="${3:?blp|pipeline}"
workload="${4:?workload file}"
rounds="${5:?rounds}"
shift 5
args=("$@")
out="${OUT:-/tmp/eng-bench/runs}"
passes="${PASSES:-2}"
heap="${HEAP:--Xms2g -Xmx2g}"
mkdir -p "$out"
case "$mode" in
    blp) main=io.ringex.bench.engine.BlpBenchmark ;;
    pipeline) main=io.ringex.bench.engine.PipelineBenchmark ;;
    *) echo "unknown mode $mode" >&2; exit 2 ;;
esac

classpath()
{
    local tree="$1"
    local cp_file="$tree/bench/ringex/target/engine-bench.classpath"
    if [ ! -s "$cp_file" ]; then
        (cd "$tree" && mvn -B -o -q -pl bench/ringex dependency:build-classpath -DexcludeGroupIds=io.ringex \
            -Dmdep.outputFile="$cp_file" >/dev/null)
    fi
    echo "$tree/bench/ringex/target/classes:$tree/engine/target/classes:$tree/journal/target/classes:$tree/client/target/classes:$tree/protocol/target/classes:$tree/common/target/classes:$(cat "$cp_file")"
}

read -r -a jvm_flags < "$after/protocol/target/classes/ringex-jvm.flags"
read -r -a engine_flags <<< "$(cat "$after/protocol/target/classes/ringex-engine-jvm.flags")"
jvm_flags+=("${engine_flags[@]}")
before_cp="$(classpath "$before")"
after_cp="$(classpath "$after")"
xc_cp_file="$after/bench/exchange-core/target/peer.classpath"
if [ ! -s "$xc_cp_file" ]; then
    (cd "$after" && mvn -B -o -q -pl bench/exchange-core dependency:build-classpath -Dmdep.outputFile="$xc_cp_file" \
        >/dev/null)
fi
xc_cp="$after/bench/exchange-core/target/classes:$(cat "$xc_cp_file")"
tag="$mode-$(basename "$workload" .bin)-before-after-$(date +%H%M%S)"
log="$out/$tag.log"
befores=()
afters=()
peers=()

run()
{
    local name="$1" cp="$2" r="$3"
    echo "## round $r $name: uptime $(uptime | sed 's/.*load average: //')" | tee -a "$log"
    # shellcheck disable=SC2086
    java "${jvm_flags[@]}" $heap -cp "$cp" "$main" --workload "$workload" --passes "$passes" "${args[@]}" \
        > "$out/$tag-$name-$r.out" 2>&1
    grep -E '^(pass=|REJECTS|RESULT)' "$out/$tag-$name-$r.out" | tee -a "$log"
    grep '^RESULT' "$out/$tag-$name-$r.out" | sed -E 's/.* mcps=([0-9.]+).*/\1/'
}

run_peer()
{
    local r="$1"
    echo "## round $r exchange-core: uptime $(uptime | sed 's/.*load average: //')" | tee -a "$log"
    # shellcheck disable=SC2086
    java "${jvm_flags[@]}" --add-opens=java.base/java.nio=ALL-UNNAMED $heap -cp "$xc_cp" \
        io.ringex.bench.exchangecore.ExchangeCorePeer --workload "$workload" --rounds "$passes" \
        > "$out/$tag-peer-$r.out" 2>&1
    grep -E '^(round=|RESULT)' "$out/$tag-peer-$r.out" | tee -a "$log"
    grep '^RESULT' "$out/$tag-peer-$r.out" | sed -E 's/.* perRound=([0-9.,]+).*/\1/' | tr ',' '\n' | tail -1
}

median()
{
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
        else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "# $tag: before=$before after=$after mode=$mode workload=$workload rounds=$rounds passes=$passes" | tee -a "$log"
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then
        befores+=("$(run before "$before_cp" "$r" | tail -1)")
        afters+=("$(run after "$after_cp" "$r" | tail -1)")
    else
        afters+=("$(run after "$after_cp" "$r" | tail -1)")
        befores+=("$(run before "$before_cp" "$r" | tail -1)")
    fi
    if [ "${PEER:-1}" != 0 ]; then
        peers+=("$(run_peer "$r" | tail -1)")
    fi
done
echo "SUMMARY mode=$mode workload=$(basename "$workload") rounds=$rounds passes=$passes" \
    "before=$(IFS=,; echo "${befores[*]}") after=$(IFS=,; echo "${afters[*]}")" \
    "peer=$(IFS=,; echo "${peers[*]:-}") beforeMedian=$(median "${befores[@]}")" \
    "afterMedian=$(median "${afters[@]}") peerMedian=$( [ ${#peers[@]} -gt 0 ] && median "${peers[@]}" || echo -)" |
    tee -a "$log"
