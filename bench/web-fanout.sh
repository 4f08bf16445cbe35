#!/usr/bin/env bash
# Market-data fan-out over WebSockets, in ONE invocation (docs/benchmarks-gateway.md, "REST and WebSocket"): one
# all-in-one venue (./ringex demo), and for each subscriber count N in SUBSCRIBERS, N WebSocket subscribers
# (io.ringex.bench.gateway.WebSocketFanout, one JVM, each subscriber its own connection to /ws/v1/market, subscribed
# to the traded symbol's trades) while ./ringex loadgen --transport sbe --orders cross sends RATE orders a second:
# the load generator's rate and latency with them (the venue's cost of serving them), and each subscriber's latency
# from the engine's trade time to its arrival. One CSV row per run (subscribers,load1 before,load1 after,key=value...).
#
#   bench/web-fanout.sh [OUT_DIR]
#
# Env: SUBSCRIBERS ("0 1 100 1000"), RATE (10000), SYMBOL (RGX-USD, the instrument the load generator trades),
# DURATION (8 s measured), WARMUP (2 s), PORT_BASE (47200).
# Build first: mvn -B -q -o install -DskipTests
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$(mktemp -d /tmp/ringex-fanout.XXXX)}"
mkdir -p "$out"
counts="${SUBSCRIBERS:-0 1 100 1000}"
rate="${RATE:-10000}"
duration="${DURATION:-8}"
warmup="${WARMUP:-2}"
base="${PORT_BASE:-47200}"
sbe=$base; fix=$((base + 1)); web=$((base + 2)); http=$((base + 3))
read -r -a jvm_flags < "$here/protocol/target/classes/ringex-jvm.flags"
bench_cp="$here/bench/ringex/target/classes:$(cat "$here/bench/ringex/target/classpath.txt")"
csv="$out/results.csv"
venue=""

load1()
{
    cut -d' ' -f1 /proc/loadavg
}

stop()
{
    [ -n "$venue" ] && kill "$venue" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap stop EXIT

rm -rf "$out/data"
RINGEX_JAVA_OPTS="-Xms2g -Xmx2g" "$here/ringex" demo --data="$out/data" --sbe-port=$sbe --fix-port=$fix \
    --web-port=$web --server.port=$http --ringex.gateway.throttle.messages.per.second=1000000 \
    --ringex.gateway.web.max.connections=2000 --ringex.gateway.web.max.connections.per.address=2000 \
    > "$out/venue.log" 2>&1 &
venue=$!
for _ in $(seq 1 240); do
    grep -q "RINGEX READY" "$out/venue.log" && break
    kill -0 "$venue" 2>/dev/null || { echo "the venue died" >&2; tail -20 "$out/venue.log" >&2; exit 1; }
    sleep 0.5
done
secret="$("$here/ringex" admin apikey create --file "$out/data/api-keys" --key-id rk-bench-fanout \
    --username trader1 | sed -n "s/^secret (base64; shown this once): *//p")"
[ -n "$secret" ] || { echo "no secret printed by ./ringex admin apikey create" >&2; exit 1; }
sleep 2 # the gateway reads a changed keys file within a second

# warm the venue up once, without subscribers
"$here/ringex" loadgen --transport sbe --sbe-port $sbe --rate 20000 --duration 5 > "$out/warmup.log" 2>&1 || true

for n in $counts; do
    log="$out/fanout-$n.log"
    before="$(load1)"
    fanout=""
    if [ "$n" -gt 0 ]; then
        java "${jvm_flags[@]}" -Xmx1g -cp "$bench_cp" io.ringex.bench.gateway.WebSocketFanout \
            "http://localhost:$web" rk-bench-fanout "$secret" "${SYMBOL:-RGX-USD}" "$n" $((warmup + duration + 2)) \
            > "$log.subscribers" 2>&1 &
        fanout=$!
        sleep 3 # connected and subscribed
    fi
    "$here/ringex" loadgen --transport sbe --sbe-port $sbe --rate "$rate" --duration "$duration" --warmup "$warmup" \
        > "$log" 2>&1 || true
    [ -n "$fanout" ] && wait "$fanout" || true
    result="$(cat "$log" "$log.subscribers" 2>/dev/null | grep '^RESULT' | sed 's/^RESULT //' | tr '\n' ' ' |
        sed 's/ $//' || true)"
    echo "$n,$before,$(load1),$(echo "${result:-failed=1}" | tr ' ' ',')" | tee -a "$csv"
done
echo "# done; results in $csv"
