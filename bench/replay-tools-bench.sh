#!/usr/bin/env bash
# The replay tools on a large demo journal (docs/benchmarks.md, "Replay tools"): writes DIR/journal (10M commands,
# a snapshot every 1M) unless it exists, then times `./ringex journal state` (a cold JVM each time) at growing
# distances from the nearest snapshot, `journal audit` of orders and of an account window, and `journal replay`.
# Then the warm, in-process figures (as the risk service answers): ReplayToolsBenchmark on the same journal.
# Usage: bench/replay-tools-bench.sh [DIR] [COMMANDS] [EVERY]      (build first: mvn -B -q package -DskipTests)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-/tmp/replay-bench}"
commands="${2:-10000000}"
every="${3:-1000000}"
ringex="$here/ringex"
export RINGEX_JAVA_OPTS="${RINGEX_JAVA_OPTS:--Dlogging.level.root=WARN}"

echo "# $(date -u +%FT%TZ) $(uname -n) load: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ ! -d "$dir/journal" ]; then
    "$ringex" journal synth "$dir/journal" --commands "$commands" --snapshots "$dir/snapshots" \
        --snapshot-every "$every"
fi
du -sh "$dir/journal" "$dir/snapshots" | sed 's/^/# /'

base=$(( (commands / every - 1) * every ))
echo
echo "## ./ringex journal state --at SEQ --format json (cold JVM): wall s, and the tool's own 'rebuilt in'"
for distance in 0 1 $((every / 4)) $((every / 2)) $((3 * every / 4)) $((every - 1)); do
    seq=$((base + distance))
    start=$(date +%s.%N)
    rebuilt=$("$ringex" journal state "$dir/journal" --snapshots "$dir/snapshots" --at "$seq" --format json \
        2>&1 >/dev/null | grep '^rebuilt' || true)
    end=$(date +%s.%N)
    printf "at %d (distance %d): wall %.2f s; %s\n" "$seq" "$distance" "$(echo "$end - $start" | bc)" "$rebuilt"
done

echo
echo "## ./ringex journal audit (cold JVM): wall s"
last_order=$("$ringex" journal state "$dir/journal" --snapshots "$dir/snapshots" --at "$commands" --format json \
    2>/dev/null | grep -m1 '"lastOrderId"' | tr -dc '0-9')
for order in $((last_order * 905 / 1000)) $((last_order * 999 / 1000)); do
    start=$(date +%s.%N)
    lines=$("$ringex" journal audit "$dir/journal" --snapshots "$dir/snapshots" --order "$order" 2>/dev/null | wc -l)
    end=$(date +%s.%N)
    printf "order %d: wall %.2f s, %d lines\n" "$order" "$(echo "$end - $start" | bc)" "$lines"
done

echo
echo "## ./ringex journal replay (cold JVM, whole journal, no snapshot)"
"$ringex" journal replay "$dir/journal" 2>/dev/null | tail -2

echo
echo "## warm, in process (ReplayToolsBenchmark)"
cp="$here/bench/ringex/target/classes:$here/replay/target/classes:$(cat "$here/replay/target/classpath.txt")"
read -r -a flags < "$here/protocol/target/classes/ringex-jvm.flags"
java "${flags[@]}" -XX:+UseParallelGC -Xmx2g -Dlogging.level.root=WARN -cp "$cp" \
    io.ringex.bench.replay.ReplayToolsBenchmark --dir "$dir" --commands "$commands" --every "$every" --rounds 3
