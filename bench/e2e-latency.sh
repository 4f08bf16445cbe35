#!/usr/bin/env bash
# End-to-end SBE latency, side by side in ONE invocation (docs/benchmarks.md, "End to end against the bare
# transport"): for each round and rate,
#   echo        the bare Aeron echo (io.ringex.bench.gateway.AeronEchoBaseline): the same two-process UDP loopback
#               and open-loop measurement with no Ringex code, through 0 and 4 thread hops;
#   allinone    ./ringex demo (engine, gateway and dashboard in one JVM, one media driver);
#   distributed ./ringex engine and ./ringex gateway in separate JVMs, each with its own media driver, over UDP,
#               the reference data applied with ./ringex admin apply (the demo's file);
#   colocated   the same two JVMs as one host should run them: the gateway on the engine's media driver, the two
#               talking over IPC (not in the default PATHS);
#   cluster     three ./ringex engine members of an Aeron Cluster on this host (each with its own media driver),
#               ./ringex gateway following them, the reference data applied through the leader: every order is in
#               two members' logs before the leader's processor sees it (not in the default PATHS);
#   fix         the all-in-one again, through its FIX acceptor (Artio) with QuickFIX/J initiators (not in the
#               default PATHS: there is no bare FIX echo to set beside it);
#   rest        the all-in-one again, through its REST front end (signed POST /api/v1/orders over keep-alive
#               HTTP/1.1 connections; each user's API key made with ./ringex admin apikey; not in the default PATHS);
#   rest-ws     the same REST orders, each timed when its first report arrives on the key's WebSocket user stream
#               rather than as the HTTP answer (not in the default PATHS);
# each measured by ./ringex loadgen --transport sbe|fix|rest|rest-ws (its own JVM and driver): open loop, coordinated-omission
# corrected, the orders crossing (half acks, half fills). One CSV row per run, in bench/gateway-report.py's format
# (path,detail,round,rate,load1 before,load1 after,key=value...). Each venue runs alone: started fresh for each
# round, warmed up (20K/s; FIX 5K/s), measured at each rate, stopped.
#
#   bench/e2e-latency.sh [OUT_DIR]
#
# Env: ROUNDS (3), RATES ("1000 10000 50000"), PATHS ("echo allinone distributed", or any of those, colocated,
# cluster, fix, rest and rest-ws),
# PROFILE (the engine threading profile of the venues; default the node's), DURATION (8 s measured), WARMUP (2 s
# sent first, not measured), SWEEP (rates for the all-in-one, distributed and colocated paths in the last round, one
# run each, e.g. "1000 5000 ...
# 300000": latency against offered load up to saturation), VENUE_OPTS (more JVM options for the venues'
# processes), VARIANTS (venue settings to compare in the same invocation: NAME=JVM-OPTIONS, options separated by
# commas, e.g. "batch= nobatch=-Dringex.engine.outbound.batch=1", given to the engine's JVM (the all-in-one's or the
# distributed engine's); each venue path runs once per variant in each round, the variant's name after the profile
# in the CSV's detail), PORT_BASE (47100), WARM_RATE (the warm-up's rate; 20000, FIX 5000: lower it for a venue that
# cannot take 20K/s, such as the cluster on one host, so that the measured runs do not start behind a backlog),
# ORDERS (cross; ioc; quotes: mass quotes from the market makers, SBE only; several, e.g. "cross quotes", run each
# kind at each rate on the same venue, named in the CSV's detail when not cross), INSTRUMENTS (how many the load generator
# trades or quotes in, 1), REFERENCE_DATA (the file the distributed and cluster venues are set up from, the demo's by
# default; bench/reference-data/quotes.yml has ten instruments for mass quotes; the all-in-one always runs the demo's).
# Build first: mvn -B -q -o install -DskipTests
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$(mktemp -d /tmp/ringex-e2e.XXXX)}"
mkdir -p "$out"
rounds="${ROUNDS:-3}"
rates="${RATES:-1000 10000 50000}"
paths="${PATHS:-echo allinone distributed}"
profile="${PROFILE:-}"
duration="${DURATION:-8}"
warmup="${WARMUP:-2}"
sweep="${SWEEP:-}"
variants="${VARIANTS:-=}"
orders="${ORDERS:-cross}"
instruments="${INSTRUMENTS:-1}"
reference_data="${REFERENCE_DATA:-$here/app/src/main/resources/reference-data/demo.yml}"
reference_data="$(cd "$(dirname "$reference_data")" && pwd)/$(basename "$reference_data")"
kind=cross
loadgen_venue=(--instruments "$instruments")
if [ -n "${REFERENCE_DATA:-}" ]; then
    loadgen_venue+=(--reference-data "$reference_data")
    case " $paths " in
        *" allinone "*|*" fix "*|*" rest "*|*" rest-ws "*)
            echo "REFERENCE_DATA: the all-in-one runs the demo's; leave allinone, fix, rest and rest-ws out" >&2
            exit 2 ;;
    esac
fi
variant_name=""
variant_opts=""
base="${PORT_BASE:-47100}"
echo_port=$base
aio_sbe=$((base + 2)); aio_fix=$((base + 3)); aio_http=$((base + 4))
ingress_port=$((base + 5)); control_port=$((base + 6)); dist_sbe=$((base + 7)); md_request_port=$((base + 8))
aio_web=$((base + 9))
read -r -a jvm_flags < "$here/protocol/target/classes/ringex-jvm.flags"
bench_cp="$here/bench/ringex/target/classes:$(cat "$here/bench/ringex/target/classpath.txt")"
csv="$out/results.csv"
pids=()

cleanup()
{
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT

load1()
{
    cut -d' ' -f1 /proc/loadavg
}

# wait_for FILE PATTERN PID: until the process has printed the line (or died)
wait_for()
{
    for _ in $(seq 1 240); do
        grep -q "$2" "$1" 2>/dev/null && return 0
        kill -0 "$3" 2>/dev/null || { echo "process $3 died: $1" >&2; tail -20 "$1" >&2; return 1; }
        sleep 0.5
    done
    echo "timed out waiting for '$2' in $1" >&2
    return 1
}

row()
{
    local path="$1" detail="$2" round="$3" rate="$4" before="$5" log="$6"
    local result
    result="$(grep '^RESULT' "$log" | sed 's/^RESULT //' | tr '\n' ' ' | sed 's/ $//' || true)"
    echo "$path,$detail,$round,$rate,$before,$(load1),$(echo "${result:-failed=1}" | tr ' ' ',')" | tee -a "$csv"
}

echo_run()
{
    local round="$1" rate="$2" hops="$3" log="$out/echo-hops$3-$1-$2.log" before server
    java "${jvm_flags[@]}" -Xms1g -Xmx1g -cp "$bench_cp" io.ringex.bench.gateway.AeronEchoBaseline server \
        --port "$echo_port" --reply-port $((echo_port + 1)) --hops "$hops" > "$log.server" 2>&1 &
    server=$!
    sleep 2
    before="$(load1)"
    thread_ticks "$server" > "$log.threads-before"
    java "${jvm_flags[@]}" -Xms1g -Xmx1g -cp "$bench_cp" io.ringex.bench.gateway.AeronEchoBaseline client \
        --port "$echo_port" --reply-port $((echo_port + 1)) --rate "$rate" --seconds "$duration" --warmup "$warmup" \
        > "$log" 2>&1 || true
    # the echo server's CPU per message, as the venue's per order
    thread_ticks "$server" > "$log.threads-after"
    thread_report "$log.threads-before" "$log.threads-after" $((rate * (duration + warmup))) "$log.threads" >> "$log"
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    row echo "hops$hops" "$round" "$rate" "$before" "$log"
}

# venue_ticks: CPU time (user + system, clock ticks) of the venue's processes so far
venue_ticks()
{
    local total=0 pid
    for pid in "${pids[@]}"; do
        total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
    done
    echo "$total"
}

# thread_ticks PID...: "pid/tid name ticks" for every thread of the processes (the name as Linux keeps it, 15
# characters, spaces made '_'; the fields after the ')' that ends it, so that a name with spaces cannot shift them)
thread_ticks()
{
    local pid task name
    for pid in "$@"; do
        for task in /proc/"$pid"/task/*; do
            name="$(tr ' ' '_' < "$task/comm" 2>/dev/null)" || continue
            sed 's/.*) //' "$task/stat" 2>/dev/null | awk -v id="$pid/${task##*/}" -v name="$name" \
                '{print id, name, $12 + $13}' || true
        done
    done
}

# thread_report BEFORE AFTER ORDERS OUT: each venue thread's CPU per order over the run (threads with the same name
# summed, busiest first) into OUT; prints the RESULT line of the venue's total
thread_report()
{
    local hz
    hz="$(getconf CLK_TCK)"
    awk -v orders="$3" -v hz="$hz" 'NR == FNR { before[$1] = $3; next }
        { d = $3 - before[$1]; if (d > 0) { by[$2] += d; total += d } }
        END {
            printf "# thread, CPU microseconds per order (%d orders)\n", orders
            for (n in by) printf "%s %.2f\n", n, by[n] * 1e6 / hz / orders | "sort -k2 -n -r"
            close("sort -k2 -n -r")
            printf "RESULT venueCpuUsPerOrder=%.2f\n", total * 1e6 / hz / orders
        }' "$1" "$2" > "$4"
    grep '^RESULT' "$4"
}

load_run()
{
    local path="$1" round="$2" rate="$3" port="$4" before ticks start transport=sbe
    local log="$out/$1-$2-$3${variant_name:+-$variant_name}-$kind.log" via
    [ "$path" = fix ] && transport=fix
    [ "$path" = rest ] && transport=rest
    [ "$path" = rest-ws ] && transport=rest-ws
    case "$transport" in
        rest|rest-ws) via=(--web-port "$port" --api-keys "$out/allinone-data/api-keys") ;;
        *) via=("--$transport-port" "$port") ;;
    esac
    before="$(load1)"
    ticks="$(venue_ticks)"
    thread_ticks "${pids[@]}" > "$log.threads-before"
    start="$(date +%s%N)"
    "$here/ringex" loadgen --transport "$transport" "${via[@]}" --rate "$rate" --duration "$duration" \
        --warmup "$warmup" --orders "$kind" "${loadgen_venue[@]}" > "$log" 2>&1 || true
    # the venue's CPU while the generator ran (its start-up included), in % of one core, and per order sent
    echo "RESULT venueCpuPct=$(( ($(venue_ticks) - ticks) * 100 * 10000000 / ($(date +%s%N) - start) ))" >> "$log"
    thread_ticks "${pids[@]}" > "$log.threads-after"
    thread_report "$log.threads-before" "$log.threads-after" $((rate * (duration + warmup))) "$log.threads" >> "$log"
    local detail="${profile:-default}${variant_name:+/$variant_name}"
    [ "$kind" = cross ] || detail="$detail/$kind"
    row "$path" "$detail" "$round" "$rate" "$before" "$log"
}

start_allinone()
{
    local extra=()
    [ -n "$profile" ] && extra+=("--ringex.engine.threading=$profile")
    rm -rf "$out/allinone-data"
    RINGEX_JAVA_OPTS="-Xms2g -Xmx2g ${VENUE_OPTS:-} $variant_opts" "$here/ringex" demo --data="$out/allinone-data" \
        --sbe-port=$aio_sbe --fix-port=$aio_fix --web-port=$aio_web --server.port=$aio_http \
        --ringex.gateway.throttle.messages.per.second=1000000 \
        "${extra[@]}" > "$out/allinone.log" 2>&1 &
    pids+=($!)
    wait_for "$out/allinone.log" "RINGEX READY" $!
}

# A key that may trade for each user the load generator logs on as (the demo's traders, then its market makers).
rest_keys()
{
    local user
    for user in trader1 trader2 fixtrader maker1 maker2; do
        "$here/ringex" admin apikey create --file "$out/allinone-data/api-keys" --key-id "rk-bench-$user" \
            --username "$user" --trade > /dev/null
    done
    sleep 2 # the gateway reads a changed keys file within a second
}

# colocated: the distributed path's two processes on one host as they should be deployed there, sharing the engine's
# media driver: engine and gateway talk over IPC, the clients over UDP
start_distributed()
{
    local dir="$out/distributed" engine_aeron="/dev/shm/ringex-e2e-engine-$base"
    local outbound="aeron:udp?endpoint=localhost:0|control=localhost:$control_port|control-mode=dynamic"
    local ingress="aeron:udp?endpoint=localhost:$ingress_port"
    local engine_outbound="aeron:udp?control=localhost:$control_port|control-mode=dynamic"
    local colocated="${1:-}"
    if [ -n "$colocated" ]; then
        ingress="aeron:ipc"; outbound="aeron:ipc"; engine_outbound="aeron:ipc"
    fi
    rm -rf "$dir" "$engine_aeron" "/dev/shm/ringex-e2e-gateway-$base"
    mkdir -p "$dir"
    # the engine takes admin commands signed with this key only; ./ringex admin apply below signs with it
    "$here/ringex" admin keygen --file "$dir/admin.keys" --name e2e-bench > "$out/keygen.log" 2>&1
    {
        echo "ringex.engine.node.id=1"
        echo "ringex.engine.aeron.embedded=true"
        echo "ringex.engine.aeron.dir=$engine_aeron"
        echo "ringex.engine.ingress.channel=$ingress"
        echo "ringex.engine.outbound.channel=$engine_outbound"
        echo "ringex.engine.replication.mode=OFF"
        echo "ringex.engine.journal.dir=$dir/journal"
        echo "ringex.engine.snapshot.dir=$dir/snapshots"
        echo "ringex.engine.journal.durability=PROCESS"
        echo "ringex.engine.admin.keys.file=$dir/admin.keys"
        echo "ringex.engine.marketdata.request.channel=aeron:udp?endpoint=localhost:$md_request_port"
        [ -n "$profile" ] && echo "ringex.engine.threading=$profile"
    } > "$dir/engine.properties"
    {
        echo "ringex.gateway.id=1"
        if [ -n "$colocated" ]; then
            echo "ringex.gateway.embedded.driver=false"
            echo "ringex.gateway.aeron.dir=$engine_aeron"
        else
            echo "ringex.gateway.embedded.driver=true"
            echo "ringex.gateway.aeron.dir=/dev/shm/ringex-e2e-gateway-$base"
        fi
        echo "ringex.gateway.archive.dir=$dir/archive"
        echo "ringex.gateway.client.channel=aeron:udp?endpoint=localhost:$dist_sbe"
        echo "ringex.gateway.engine.ingress.channel=$ingress"
        echo "ringex.gateway.engine.egress.channel=$outbound"
        echo "ringex.gateway.engine.marketdata.channel=$outbound"
        echo "ringex.gateway.fix.enabled=false"
        echo "ringex.gateway.throttle.messages.per.second=1000000"
    } > "$dir/gateway.properties"
    RINGEX_JAVA_OPTS="-Xms1g -Xmx1g ${VENUE_OPTS:-} $variant_opts" "$here/ringex" engine "$dir/engine.properties" \
        > "$out/engine.log" 2>&1 &
    pids+=($!)
    wait_for "$out/engine.log" "RINGEX ENGINE READY" $!
    "$here/ringex" admin apply "$reference_data" --operator e2e-bench \
        --reason "benchmark venue" --aeron-dir "$engine_aeron" --key-file "$dir/admin.keys" \
        --ingress "$ingress" --outbound "$outbound" > "$out/admin.log" 2>&1
    RINGEX_JAVA_OPTS="-Xms1g -Xmx1g ${VENUE_OPTS:-}" "$here/ringex" gateway "$dir/gateway.properties" \
        > "$out/gateway.log" 2>&1 &
    pids+=($!)
    wait_for "$out/gateway.log" "up: SBE" $!
}

start_cluster()
{
    local dir="$out/cluster" members="" n gateway_engines=""
    rm -rf "$dir" /dev/shm/ringex-e2e-member-"$base"-* "/dev/shm/ringex-e2e-cgateway-$base"
    mkdir -p "$dir"
    "$here/ringex" admin keygen --file "$dir/admin.keys" --name e2e-bench > "$out/keygen.log" 2>&1
    for n in 1 2 3; do
        members="$members${members:+,}$n=localhost:$((base + 20 + 10 * n))"
    done
    for n in 1 2 3; do
        local ingress=$((base + 60 + n)) control=$((base + 63 + n)) request=$((base + 66 + n))
        {
            echo "ringex.engine.node.id=$n"
            echo "ringex.engine.replication.mode=CLUSTER"
            echo "ringex.engine.cluster.members=$members"
            echo "ringex.engine.cluster.secret=the benchmark cluster's secret"
            echo "ringex.engine.cluster.dir=$dir/member$n/cluster"
            echo "ringex.engine.aeron.embedded=true"
            echo "ringex.engine.aeron.dir=/dev/shm/ringex-e2e-member-$base-$n"
            echo "ringex.engine.ingress.channel=aeron:udp?endpoint=localhost:$ingress"
            echo "ringex.engine.outbound.channel=aeron:udp?control=localhost:$control|control-mode=dynamic"
            echo "ringex.engine.journal.dir=$dir/member$n/journal"
            echo "ringex.engine.snapshot.dir=$dir/member$n/snapshots"
            echo "ringex.engine.journal.durability=PROCESS"
            echo "ringex.engine.admin.keys.file=$dir/admin.keys"
            echo "ringex.engine.marketdata.request.channel=aeron:udp?endpoint=localhost:$request"
            [ -n "$profile" ] && echo "ringex.engine.threading=$profile"
        } > "$dir/member$n.properties"
        local prefix="ringex.gateway.engine.$n."
        gateway_engines="$gateway_engines${prefix}ingress.channel=aeron:udp?endpoint=localhost:$ingress
${prefix}egress.channel=aeron:udp?endpoint=localhost:0|control=localhost:$control|control-mode=dynamic
"
        RINGEX_JAVA_OPTS="-Xms512m -Xmx512m ${VENUE_OPTS:-} $variant_opts" "$here/ringex" engine \
            "$dir/member$n.properties" > "$out/member$n.log" 2>&1 &
        pids+=($!)
    done
    for n in 1 2 3; do
        wait_for "$out/member$n.log" "RINGEX ENGINE READY" "${pids[$((n - 1))]}"
    done
    # only the leader takes commands; a follower says so at once
    local applied=""
    for _ in 1 2 3 4 5 6; do
        for n in 1 2 3; do
            if "$here/ringex" admin apply "$reference_data" \
                --operator e2e-bench --reason "benchmark venue" --embedded-driver --key-file "$dir/admin.keys" \
                --ingress "aeron:udp?endpoint=localhost:$((base + 60 + n))" \
                --outbound "aeron:udp?endpoint=localhost:0|control=localhost:$((base + 63 + n))|control-mode=dynamic" \
                --timeout-ms 15000 >> "$out/admin.log" 2>&1; then
                applied=yes
                break 2
            fi
        done
        sleep 1
    done
    [ -n "$applied" ] || { echo "the reference data was not applied: $out/admin.log" >&2; return 1; }
    {
        echo "ringex.gateway.id=1"
        echo "ringex.gateway.embedded.driver=true"
        echo "ringex.gateway.aeron.dir=/dev/shm/ringex-e2e-cgateway-$base"
        echo "ringex.gateway.archive.dir=$dir/archive"
        echo "ringex.gateway.client.channel=aeron:udp?endpoint=localhost:$dist_sbe"
        printf '%s' "$gateway_engines"
        echo "ringex.gateway.fix.enabled=false"
        echo "ringex.gateway.throttle.messages.per.second=1000000"
    } > "$dir/gateway.properties"
    RINGEX_JAVA_OPTS="-Xms1g -Xmx1g ${VENUE_OPTS:-}" "$here/ringex" gateway "$dir/gateway.properties" \
        > "$out/gateway.log" 2>&1 &
    pids+=($!)
    wait_for "$out/gateway.log" "up: SBE" $!
}

{
    echo "# $(date -u +%FT%TZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
    echo "# $(java -version 2>&1 | head -1)"
    echo "# rounds=$rounds rates=$rates paths=$paths profile=${profile:-default} duration=${duration}s" \
        "warmup=${warmup}s sweep=$sweep variants=$variants orders=$orders instruments=$instruments" \
        "reference-data=$(basename "$reference_data")"
    echo "# columns: path,detail,round,rate,load1_before,load1_after,key=value results"
} | tee "$csv"

stop_venue()
{
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    pids=()
}

case " $paths " in *" echo "*) echo_run warmup 50000 4 ;; esac
for round in $(seq 1 "$rounds"); do
    for path in $paths; do
        if [ "$path" = echo ]; then
            for rate in $rates; do
                echo_run "$round" "$rate" 0
                echo_run "$round" "$rate" 4
            done
            continue
        fi
        for variant in $variants; do
            variant_name="${variant%%=*}"
            variant_opts="${variant#*=}"
            variant_opts="${variant_opts//,/ }"
            # each venue alone on the machine: started fresh for the round, warmed up, stopped after its rates
            case "$path" in
                allinone) start_allinone; port=$aio_sbe ;;
                fix) start_allinone; port=$aio_fix ;;
                rest|rest-ws) start_allinone; port=$aio_web; rest_keys ;;
                distributed) start_distributed; port=$dist_sbe ;;
                colocated) start_distributed colocated; port=$dist_sbe ;;
                cluster) start_cluster; port=$dist_sbe ;;
                *) echo "unknown path $path" >&2; exit 2 ;;
            esac
            # FIX warms up at 5K/s: at 20K/s a cold venue's FIX sessions get more reports waiting than the gateway
            # holds for a session and are disconnected (docs/benchmarks.md, "A FIX client faster than the venue")
            warm="${WARM_RATE:-20000}"; [ "$path" = fix ] || [ "${path%-ws}" = rest ] && warm="${WARM_RATE:-5000}"
            for kind in $orders; do
                load_run "$path" "warmup$round" "$warm" "$port"
            done
            for rate in $rates; do
                for kind in $orders; do
                    load_run "$path" "$round" "$rate" "$port"
                done
            done
            kind=cross
            case "$path" in
                allinone|distributed|colocated)
                    if [ "$round" = "$rounds" ]; then
                        for rate in $sweep; do
                            load_run "sweep-$path" sweep "$rate" "$port"
                        done
                    fi ;;
            esac
            stop_venue
        done
    done
done
echo "# done $(date -u +%FT%TZ); results in $csv"
