#!/usr/bin/env bash
# End-to-end latency through the all-in-one in each engine threading profile, side by side in ONE invocation:
# for each round, for each profile, a fresh `./ringex demo` (throttle raised out of the way, its own ports and data
# directory), then `./ringex loadgen --transport sbe` at each rate, open loop, coordinated-omission corrected. During
# each load run the engine's own ingress-to-processed latency is read once from the dashboard's /api/engine.
#
#   bench/threading-e2e.sh [ROUNDS] [PROFILES] [RATES]      defaults: 2 "COMPACT SHARED DEDICATED" "1000 10000"
#
# Env: OUT (logs; default /tmp/threading-e2e), DURATION (s, default 8), WARMUP (s, default 2), IDLE (the engine's
# idle strategy, default the node's), PORT_BASE (default 47000: sbe PORT_BASE, fix +1, dashboard +2).
# Prints one line per load run: round profile rate RESULT... engine-p50/p99 (ns). The machine is shared: compare
# profiles within a run, as ratios; never across runs.
# Build first: mvn -B -q -o package -DskipTests -pl app -am
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-2}"
profiles="${2:-COMPACT SHARED DEDICATED}"
rates="${3:-1000 10000}"
out="${OUT:-/tmp/threading-e2e}"
duration="${DURATION:-8}"
warmup="${WARMUP:-2}"
base="${PORT_BASE:-47000}"
sbe=$base; fix=$((base + 1)); http=$((base + 2))
mkdir -p "$out"
echo "# $(date -u +%FT%TZ) $(nproc) cores; uptime: $(uptime)"
for round in $(seq 1 "$rounds"); do
    for profile in $profiles; do
        data="$out/data-$profile"
        rm -rf "$data"
        extra=()
        [ -n "${IDLE:-}" ] && extra+=("--ringex.engine.idle.strategy=$IDLE")
        ./ringex demo --data="$data" --sbe-port=$sbe --fix-port=$fix --server.port=$http \
            --ringex.gateway.throttle.messages.per.second=1000000 --ringex.engine.threading="$profile" \
            "${extra[@]}" > "$out/venue-$round-$profile.log" 2>&1 &
        venue=$!
        for _ in $(seq 1 240); do
            grep -q "^RINGEX READY" "$out/venue-$round-$profile.log" && break
            kill -0 $venue 2>/dev/null || { echo "venue died: $out/venue-$round-$profile.log" >&2; exit 1; }
            sleep 0.5
        done
        for rate in $rates; do
            ( sleep $((warmup + duration / 2))
              curl -s -u viewer:viewer "http://localhost:$http/api/engine" > "$out/engine-$round-$profile-$rate.json" \
                || true ) &
            sampler=$!
            result=$(./ringex loadgen --transport sbe --sbe-port $sbe --rate "$rate" --duration "$duration" \
                --warmup "$warmup" 2>&1 | tee "$out/loadgen-$round-$profile-$rate.log" | grep '^RESULT' || true)
            wait $sampler || true
            engine=$(grep -o '"latencyNs":{[^}]*}' "$out/engine-$round-$profile-$rate.json" 2>/dev/null || true)
            echo "round=$round profile=$profile $result engine=$engine"
        done
        kill $venue; wait $venue 2>/dev/null || true
    done
done
echo "# $(date -u +%FT%TZ) uptime: $(uptime)"
