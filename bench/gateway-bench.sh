#!/usr/bin/env bash
# Gateway benchmark (docs/benchmarks-gateway.md): open-loop, coordinated-omission-corrected load at fixed rates
# through the real gateway paths, journal on.
#   1. SBE: ./ringex loadgen --transport sbe -> Aeron UDP loopback -> gateway -> engine (journal) -> back.
#   0. The machine's own floor for the SBE path (BASELINE=1, the default): io.ringex.bench.gateway.AeronEchoBaseline,
#      the same two-process Aeron UDP loopback and measurement with no Ringex code, echoing through 0 and 4 threads,
#      at each SBE rate and before the venue starts (so nothing else runs).
#   2. FIX: ./ringex loadgen --transport fix (QuickFIX/J initiators) against our Artio acceptor, and against the
#      bench-only QuickFIX/J acceptor (io.ringex.bench.gateway.QuickFixAcceptorBench) on the same engine streams,
#      alternated over the rounds (even rounds start with QuickFIX/J).
# Everything runs against ONE all-in-one venue (./ringex demo, its own process and data directory) with the
# per-session throttle raised out of the way. Prints one CSV row per measured run; logs go to OUT_DIR.
# Build first: mvn -B -q install -DskipTests -pl app,bench/ringex -am
#
# usage: bench/gateway-bench.sh [OUT_DIR]
#   env: ROUNDS (3 SBE rounds), FIX_ROUNDS (2), SBE_RATES ("10000 25000 50000"), FIX_RATES ("5000 10000 20000 30000"), DURATION (10),
#        VENUE_OPTS (more JVM options for the venue, e.g. -Dringex.engine.input.ring.capacity=65536),
#        BASELINE (1), WARMUP (2: seconds each run sends at its rate over its sessions before measuring; per-10-ms timelines are kept),
#        (SBE_RATES="" runs the FIX part only), ACCOUNTS (5), JFR (1: record the venue during one extra SBE run at the top rate and one Artio FIX run at
#        JFR_FIX_RATE), PORT_BASE (19880: FIX = base, QuickFIX/J acceptor = base + 1, SBE = base + 21320,
#        echo baseline = base + 2 and + 3, dashboard = base - 1800)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$(mktemp -d /tmp/ringex-gwbench.XXXX)}"
mkdir -p "$out"
rounds="${ROUNDS:-3}"
fix_rounds="${FIX_ROUNDS:-2}"
sbe_rates="${SBE_RATES-10000 25000 50000}"
fix_rates="${FIX_RATES:-5000 10000 20000 30000}"
duration="${DURATION:-10}"
warmup="${WARMUP:-2}"
accounts="${ACCOUNTS:-5}"
jfr="${JFR:-1}"
baseline="${BASELINE:-1}"
jfr_fix_rate="${JFR_FIX_RATE:-20000}"
base="${PORT_BASE:-19880}"
fix_port="$base"
qfj_port=$((base + 1))
echo_port=$((base + 2))
sbe_port=$((base + 21320))
http_port=$((base - 1800))
read -r -a jvm_flags < "$here/protocol/target/classes/ringex-jvm.flags"
bench_cp="$here/bench/ringex/target/classes:$(cat "$here/bench/ringex/target/classpath.txt")"
csv="$out/results.csv"
demo_pid=""
qfj_pid=""

cleanup()
{
    [ -n "$qfj_pid" ] && kill "$qfj_pid" 2>/dev/null || true
    [ -n "$demo_pid" ] && kill "$demo_pid" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap cleanup EXIT

load1()
{
    cut -d' ' -f1 /proc/loadavg
}

wait_port()
{
    for _ in $(seq 1 120)
    do
        if (echo > "/dev/tcp/localhost/$1") 2>/dev/null
        then
            return 0
        fi
        sleep 0.5
    done
    echo "port $1 never opened" >&2
    return 1
}

# run PATH ACCEPTOR ROUND RATE PORT_ARGS... : one load run, one CSV row (ROUND "warmup" rows are kept, marked)
run()
{
    local path="$1" acceptor="$2" round="$3" rate="$4"
    shift 4
    local log="$out/$path-$acceptor-$round-$rate.log"
    local before after result
    before="$(load1)"
    "$here/ringex" loadgen --transport "$path" --rate "$rate" --duration "$duration" --warmup "$warmup" \
        --accounts "$accounts" --timeline "$out/$path-$acceptor-$round-$rate.timeline.csv" \
        "$@" > "$log" 2>&1 || true
    after="$(load1)"
    result="$(grep '^RESULT' "$log" | tail -1 | sed 's/^RESULT //' || true)"
    if [ -z "$result" ]
    then
        result="failed=1"
    fi
    echo "$path,$acceptor,$round,$rate,$before,$after,$(echo "$result" | tr ' ' ',')" | tee -a "$csv"
}

# echo_run ROUND RATE HOPS: one AeronEchoBaseline run, one CSV row (path sbe-echo, acceptor hopsN)
echo_run()
{
    local round="$1" rate="$2" hops="$3"
    local log="$out/sbe-echo-hops$hops-$round-$rate.log"
    local before after result server_pid
    java "${jvm_flags[@]}" -Xms1g -Xmx1g -cp "$bench_cp" io.ringex.bench.gateway.AeronEchoBaseline server \
        --port "$echo_port" --hops "$hops" > "$log.server" 2>&1 &
    server_pid=$!
    sleep 2
    before="$(load1)"
    java "${jvm_flags[@]}" -Xms1g -Xmx1g -cp "$bench_cp" io.ringex.bench.gateway.AeronEchoBaseline client \
        --port "$echo_port" --rate "$rate" --seconds "$duration" --warmup "$warmup" > "$log" 2>&1 || true
    after="$(load1)"
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    result="$(grep '^RESULT' "$log" | tail -1 | sed 's/^RESULT //' || true)"
    echo "sbe-echo,hops$hops,$round,$rate,$before,$after,$(echo "${result:-failed=1}" | tr ' ' ',')" | tee -a "$csv"
}

start_qfj()
{
    java "${jvm_flags[@]}" -Xms512m -Xmx512m -cp "$bench_cp" io.ringex.bench.gateway.QuickFixAcceptorBench \
        --aeron-dir "$aeron_dir" --port "$qfj_port" > "$out/qfj-acceptor-$1.log" 2>&1 &
    qfj_pid=$!
    wait_port "$qfj_port"
}

stop_qfj()
{
    kill "$qfj_pid" 2>/dev/null || true
    wait "$qfj_pid" 2>/dev/null || true
    qfj_pid=""
}

{
    echo "# $(date -u +%FT%TZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
    echo "# $(java -version 2>&1 | head -1)"
    echo "# rounds=$rounds fix_rounds=$fix_rounds duration=${duration}s warmup=${warmup}s accounts=$accounts sbe_rates=$sbe_rates fix_rates=$fix_rates"
    echo "# columns: path,acceptor,round,rate,load1_before,load1_after,key=value results from the load generator"
} | tee "$csv"

if [ "$baseline" = 1 ] && [ -n "$sbe_rates" ]
then
    echo_run warmup 50000 4
    for round in $(seq 1 "$rounds")
    do
        for rate in $sbe_rates
        do
            echo_run "$round" "$rate" 0
            echo_run "$round" "$rate" 4
        done
    done
fi

data="$out/venue-data"
rm -rf "$data"
RINGEX_JAVA_OPTS="-Xms2g -Xmx2g -Dringex.gateway.throttle.messages.per.second=1000000 ${VENUE_OPTS:-}" \
    "$here/ringex" demo --data="$data" --fix-port="$fix_port" --sbe-port="$sbe_port" --server.port="$http_port" \
    > "$out/venue.log" 2>&1 &
demo_pid=$!
wait_port "$fix_port"
wait_port "$http_port"
for _ in $(seq 1 120)
do
    grep -q "RINGEX READY" "$out/venue.log" && break
    sleep 0.5
done
aeron_dir="$(sed -n 's/^ aeron dir: *//p' "$out/venue.log" | head -1)"
echo "# venue pid $demo_pid, aeron dir $aeron_dir" | tee -a "$csv"

# Warm-up (reported, marked, never used): both transports through the venue's gateway.
if [ -n "$sbe_rates" ]
then
    run sbe gateway warmup 20000 --sbe-port "$sbe_port"
    run sbe gateway warmup 50000 --sbe-port "$sbe_port"
fi
run fix artio warmup 5000 --fix-port "$fix_port"

for round in $(seq 1 "$rounds")
do
    for rate in $sbe_rates
    do
        run sbe gateway "$round" "$rate" --sbe-port "$sbe_port"
    done
done

for round in $(seq 1 "$fix_rounds")
do
    if [ $((round % 2)) -eq 1 ]
    then
        order="artio quickfixj"
    else
        order="quickfixj artio"
    fi
    for acceptor in $order
    do
        if [ "$acceptor" = quickfixj ]
        then
            start_qfj "$round"
            port="$qfj_port"
        else
            port="$fix_port"
        fi
        # A fresh QuickFIX/J acceptor JVM is cold: both acceptors get the same short unrecorded warm-up.
        run fix "$acceptor" "warmup$round" 5000 --fix-port "$port"
        for rate in $fix_rates
        do
            run fix "$acceptor" "$round" "$rate" --fix-port "$port"
        done
        if [ "$acceptor" = quickfixj ]
        then
            stop_qfj
        fi
    done
done

if [ "$jfr" = 1 ] && [ -n "$sbe_rates" ]
then
    top_sbe="${sbe_rates##* }"
    jcmd "$demo_pid" JFR.start name=sbe settings=profile filename="$out/venue-sbe-$top_sbe.jfr" > /dev/null
    run sbe gateway jfr "$top_sbe" --sbe-port "$sbe_port"
    jcmd "$demo_pid" JFR.stop name=sbe > /dev/null
fi
if [ "$jfr" = 1 ]
then
    jcmd "$demo_pid" JFR.start name=fix settings=profile filename="$out/venue-fix-$jfr_fix_rate.jfr" > /dev/null
    run fix artio jfr "$jfr_fix_rate" --fix-port "$fix_port"
    jcmd "$demo_pid" JFR.stop name=fix > /dev/null
fi
echo "# done $(date -u +%FT%TZ); results in $csv"
