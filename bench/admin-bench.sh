#!/usr/bin/env bash
# The admin tool's time on a running venue (docs/benchmarks.md, "The admin tool"): ./ringex demo on a fresh data
# directory, then, ROUNDS times, `./ringex admin status` and a whole onboarding of a new instrument, account and
# trader with trading opened on it, each step its own ./ringex admin process (JVM start-up included), as an operator
# runs them:
#   instrument add    a new instrument (id 100 + round)
#   account open      a new account (id 5000 + round) with its five limits (AddAccount, then SetLimits)
#   account deposit   its opening balance
#   user add          a trader on it with FIX access (UpsertUser, then SetUserCredential; password on stdin)
#   trading halt      the new instrument, found by its symbol
#   trading resume    and opened again: trading open on it
# and the same onboarding as one reference-data file given to `admin apply` (one process), and `admin validate` of
# that file, which reaches no venue: what starting the tool costs.
# One CSV row per step: step,round,ms,load1 (the 1-minute load average when the step started); then the median of
# each step and of the onboarding's total over the rounds.
#
#   bench/admin-bench.sh [OUT_DIR]
#
# Env: ROUNDS (5), RINGEX_HOME (the checkout whose ./ringex is run, built; default this one: point it at a build of
# another revision to compare), PORT_BASE (47300: the demo's SBE, FIX and HTTP ports).
# Build first: mvn -B -o -q package -DskipTests
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
home="${RINGEX_HOME:-$here}"
out="${1:-$(mktemp -d /tmp/ringex-admin.XXXX)}"
mkdir -p "$out"
rounds="${ROUNDS:-5}"
base="${PORT_BASE:-47300}"
csv="$out/results.csv"
data="$out/data"
pid=""

cleanup()
{
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap cleanup EXIT

load1()
{
    cut -d' ' -f1 /proc/loadavg
}

rm -rf "$data"
"$home/ringex" demo --data="$data" --sbe-port=$base --fix-port=$((base + 1)) --server.port=$((base + 2)) \
    > "$out/demo.log" 2>&1 &
pid=$!
for _ in $(seq 1 240); do
    grep -q "RINGEX READY" "$out/demo.log" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || { echo "the demo died" >&2; tail -20 "$out/demo.log" >&2; exit 1; }
    sleep 0.5
done
grep -q "RINGEX READY" "$out/demo.log" || { echo "the demo did not start" >&2; exit 1; }

# step NAME ROUND [STDIN] -- ARGS...: one ./ringex admin run, timed; a failure stops the benchmark
step()
{
    local name="$1" round="$2" input="$3" before start ms conn=(--data "$data")
    shift 4
    [ "$1" = validate ] && conn=()
    before="$(load1)"
    start="$(date +%s%N)"
    if ! printf '%s' "$input" | "$home/ringex" admin "$@" "${conn[@]}" >> "$out/admin.log" 2>&1; then
        echo "admin $* failed:" >&2
        tail -5 "$out/admin.log" >&2
        exit 1
    fi
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "$name,$round,$ms,$before" | tee -a "$csv"
    last_ms=$ms
}

echo "step,round,ms,load1" | tee "$csv"
ops=(--operator bench --reason "admin benchmark")
for round in $(seq 1 "$rounds"); do
    instrument=$((100 + round)); account=$((5000 + round)); symbol="NEW$round-USD"
    total=0
    step status "$round" "" -- status
    step instrument-add "$round" "" -- instrument add --id "$instrument" --symbol "$symbol" --price-scale 2 \
        --tick 0.01 --lot 1 --reference-price 50.00 --band-type bps --band 1000 "${ops[@]}"
    total=$((total + last_ms))
    step account-open "$round" "" -- account open --id "$account" --max-order-quantity 1000 \
        --max-order-notional 100000 --credit-limit 0 --position-limit 1000 --max-open-orders 50 "${ops[@]}"
    total=$((total + last_ms))
    step account-deposit "$round" "" -- account deposit --id "$account" --amount 100000 "${ops[@]}"
    total=$((total + last_ms))
    step user-add "$round" "bench-pw-$round
" -- user add --username "onboard$round" --accounts "$account" --fix-sender-comp-id "ONBOARD$round" "${ops[@]}"
    total=$((total + last_ms))
    step trading-halt "$round" "" -- trading halt --symbol "$symbol" "${ops[@]}"
    total=$((total + last_ms))
    step trading-resume "$round" "" -- trading resume --symbol "$symbol" "${ops[@]}"
    total=$((total + last_ms))
    echo "onboarding,$round,$total,$(load1)" | tee -a "$csv"
    # The same onboarding as one reference-data file (instrument, account with its limits and balance, trader), one
    # process: a new instrument is listed OPEN, so trading is open on it when apply returns.
    file="$out/onboard-$round.yml"
    cat > "$file" <<YAML
version: 1
instruments:
  - id: $((200 + round))
    symbol: APL$round-USD
    priceScale: 2
    tick: 0.01
    lot: 1
    referencePrice: 50.00
    bandType: bps
    band: 1000
accounts:
  - id: $((6000 + round))
    selfTradePrevention: cancel-newest
    balance: 100000
    limits:
      maxOrderQuantity: 1000
      maxOrderNotional: 100000
      creditLimit: 0
      positionLimit: 1000
      maxOpenOrders: 50
      allowShort: false
users:
  - username: applied$round
    credential: pbkdf2-sha256:20000:p5IkaAFMDSlNGr0YrfUZaw==:uT6+q7cd+d68T7rawHOPcOU4mDA6VYszpYham8b8lS4=
    accounts: [$((6000 + round))]
    fixSenderCompId: APPLIED$round
YAML
    step onboarding-apply "$round" "" -- apply "$file" "${ops[@]}"
    # The floor: a command that starts the tool and reaches no venue.
    step jvm-only "$round" "" -- validate "$file"
done

echo
echo "median ms over $rounds rounds (load1 at the end: $(load1), $(nproc) cores):"
for name in jvm-only status instrument-add account-open account-deposit user-add trading-halt trading-resume \
    onboarding onboarding-apply; do
    grep "^$name," "$csv" | cut -d, -f3 | sort -n |
        awk -v n="$name" '{v[NR]=$1} END {printf "  %-16s %6d\n", n, v[int((NR+1)/2)]}'
done
