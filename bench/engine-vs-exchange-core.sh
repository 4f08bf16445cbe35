#!/usr/bin/env bash
# Runs a Ringex engine benchmark and the exchange-core 0.5.3 peer as SEPARATE JVMs, alternately, for R rounds on the
# same workload file, and reports per-round figures, medians and the ratio ours/peer.
#
#   bench/engine-vs-exchange-core.sh MODE WORKLOAD ROUNDS [extra args for our harness...]
#
#   MODE  blp       io.ringex.bench.engine.BlpBenchmark      vs ExchangeCorePeer (journal off)
#         pipeline  io.ringex.bench.engine.PipelineBenchmark vs ExchangeCorePeer (journal off)
#         node      io.ringex.bench.engine.NodeBenchmark     vs ExchangeCorePeer --journal DIR (journal on both)
#
# Each JVM runs PASSES passes/rounds (default 2) over the whole workload and reports the LAST one: the others are
# warm-up, the same number on both sides. The side that goes first alternates round by round (ours first in odd
# rounds). `uptime` is logged before and after every JVM: the machine is shared.
# Both sides run with the engine's JVM flags (ringex-engine-jvm.flags: its collector), as the node runs in production.
# Env: OUT (logs, default /tmp/eng-bench/runs), PASSES (default 2), HEAP (default "-Xms2g -Xmx2g"), PEER_ARGS,
# ENGINE_FLAGS (default: the build's ringex-engine-jvm.flags; "-XX:+UseG1GC" runs both sides on G1), PEER (0 skips
# the peer), VARIANTS (settings of ours to compare in the same rounds: NAME=JVM-OPTIONS, options separated by commas,
# e.g. "batch= nobatch=-Dringex.engine.outbound.batch=1"; each runs once per round, in turn, and gets its own
# medians; the CPU per command each reports is the node process's, in microseconds).
# Build first: mvn -B -o -q -pl protocol,journal,engine,bench/ringex,bench/exchange-core -am package -DskipTests
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

mode="${1:?usage: engine-vs-exchange-core.sh blp|pipeline|node WORKLOAD ROUNDS [our args...]}"
workload="${2:?workload file}"
rounds="${3:?rounds}"
shift 3
ours_args=("$@")
out="${OUT:-/tmp/eng-bench/runs}"
passes="${PASSES:-2}"
heap="${HEAP:--Xms2g -Xmx2g}"
variants="${VARIANTS:-=}"
mkdir -p "$out"

flags_file="$root/protocol/target/classes/ringex-jvm.flags"
[ -f "$flags_file" ] || { echo "build first (no $flags_file)" >&2; exit 2; }
read -r -a jvm_flags < "$flags_file"
engine_flags_file="$root/protocol/target/classes/ringex-engine-jvm.flags"
[ -f "$engine_flags_file" ] || { echo "build first (no $engine_flags_file)" >&2; exit 2; }
read -r -a engine_flags <<< "${ENGINE_FLAGS-$(cat "$engine_flags_file")}"
jvm_flags+=("${engine_flags[@]}")

rx_cp_file="$root/bench/ringex/target/engine-bench.classpath"
xc_cp_file="$root/bench/exchange-core/target/peer.classpath"
if [ ! -s "$rx_cp_file" ]; then
    mvn -B -o -q -pl bench/ringex dependency:build-classpath -DexcludeGroupIds=io.ringex \
        -Dmdep.outputFile="$rx_cp_file" >/dev/null
fi
if [ ! -s "$xc_cp_file" ]; then
    mvn -B -o -q -pl bench/exchange-core dependency:build-classpath -Dmdep.outputFile="$xc_cp_file" >/dev/null
fi
rx_cp="$root/bench/ringex/target/classes:$root/engine/target/classes:$root/journal/target/classes"
rx_cp="$rx_cp:$root/client/target/classes:$root/common/target/classes:$root/protocol/target/classes:$(cat "$rx_cp_file")"
xc_cp="$root/bench/exchange-core/target/classes:$(cat "$xc_cp_file")"

case "$mode" in
    blp) main=io.ringex.bench.engine.BlpBenchmark ;;
    pipeline) main=io.ringex.bench.engine.PipelineBenchmark ;;
    node) main=io.ringex.bench.engine.NodeBenchmark ;;
    *) echo "unknown mode $mode" >&2; exit 2 ;;
esac

tag="$mode-$(basename "$workload" .bin)-$(date +%H%M%S)"
log="$out/$tag.log"
declare -A ours cpu
peer=()

run_ours()
{
    local r="$1" variant name opts order="$variants"
    # the variants take turns going first, round by round
    [ $((r % 2)) -eq 0 ] && order="$(echo "$variants" | tr ' ' '\n' | tac | tr '\n' ' ')"
    for variant in $order; do
        name="${variant%%=*}"
        opts="${variant#*=}"
        opts="${opts//,/ }"
        local extra=() result="$out/$tag-ours${name:+-$name}-$r.out"
        if [ "$mode" = node ]; then
            extra=(--dir "$out/node-$tag-$r")
        fi
        echo "## round $r ours${name:+ $name}: uptime $(uptime | sed 's/.*load average: //')" | tee -a "$log"
        # shellcheck disable=SC2086
        java "${jvm_flags[@]}" $heap $opts -cp "$rx_cp" "$main" --workload "$workload" --passes "$passes" \
            "${extra[@]}" "${ours_args[@]}" > "$result" 2>&1
        grep -E '^(pass=|REJECTS|RESULT)' "$result" | tee -a "$log"
        ours["${name:-default}"]+="$(grep '^RESULT' "$result" | sed -E 's/.* mcps=([0-9.]+).*/\1/') "
        cpu["${name:-default}"]+="$(grep '^RESULT' "$result" | sed -nE 's/.* cpuUsPerCommand=([0-9.]+).*/\1/p') "
        rm -rf "$out/node-$tag-$r"
        echo "## round $r ours done: uptime $(uptime | sed 's/.*load average: //')" | tee -a "$log"
    done
}

run_peer()
{
    local r="$1"
    local extra=()
    if [ "$mode" = node ]; then
        extra=(--journal "$out/xc-journal-$tag-$r")
    fi
    echo "## round $r exchange-core: uptime $(uptime | sed 's/.*load average: //')" | tee -a "$log"
    # shellcheck disable=SC2086
    java "${jvm_flags[@]}" --add-opens=java.base/java.nio=ALL-UNNAMED $heap -cp "$xc_cp" \
        io.ringex.bench.exchangecore.ExchangeCorePeer --workload "$workload" --rounds "$passes" "${extra[@]}" \
        ${PEER_ARGS:-} > "$out/$tag-peer-$r.out" 2>&1
    grep -E '^(round=|RESULT)' "$out/$tag-peer-$r.out" | tee -a "$log"
    # the last round of the JVM, as for ours
    peer+=("$(grep '^RESULT' "$out/$tag-peer-$r.out" | sed -E 's/.* perRound=([0-9.,]+).*/\1/' | tr ',' '\n' |
        tail -1)")
    rm -rf "$out/xc-journal-$tag-$r"
    echo "## round $r exchange-core done: uptime $(uptime | sed 's/.*load average: //')" | tee -a "$log"
}

median()
{
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
        else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "# $tag: mode=$mode workload=$workload rounds=$rounds passes=$passes ours_args=${ours_args[*]:-}" \
    "engine_flags=${engine_flags[*]:-} heap=$heap" | tee -a "$log"
for r in $(seq 1 "$rounds"); do
    if [ "${PEER:-1}" = 0 ]; then
        run_ours "$r"
    elif [ $((r % 2)) -eq 1 ]; then
        run_ours "$r"
        run_peer "$r"
    else
        run_peer "$r"
        run_ours "$r"
    fi
done

peer_median="$( [ ${#peer[@]} -gt 0 ] && median "${peer[@]}" || echo 0)"
for variant in $variants; do
    name="${variant%%=*}"
    key="${name:-default}"
    # shellcheck disable=SC2086
    ours_median="$(median ${ours[$key]})"
    ratio="$(awk -v a="$ours_median" -v b="$peer_median" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
    # shellcheck disable=SC2086
    cpu_median="$( [ -n "${cpu[$key]// }" ] && median ${cpu[$key]} || echo "")"
    echo "SUMMARY mode=$mode workload=$(basename "$workload") rounds=$rounds passes=$passes${name:+ variant=$name}" \
        "ours=$(echo ${ours[$key]} | tr ' ' ',') peer=$(IFS=,; echo "${peer[*]:-}")" \
        "oursMedian=$ours_median peerMedian=$peer_median ratio=$ratio${cpu_median:+ oursCpuUsPerCommand=$cpu_median}" |
        tee -a "$log"
done
