#!/usr/bin/env bash
# Runs QuoteBenchmark (market-maker quote updates against the equivalent cancel/replace orders, through the
# business-logic processor alone) once per instrument count, each in one JVM whose variants alternate round by round.
# `uptime` and `nproc` are logged before and after each JVM.
#
#   bench/quote-bench.sh INSTRUMENTS... [-- extra QuoteBenchmark args...]
#
# Build first: mvn -B -o -q -pl bench/ringex -am package -DskipTests
# Env: OUT (a log file, default /tmp/eng-bench/quote-bench.txt), HEAP (default -Xms1g -Xmx1g).
set -euo pipefail
cd "$(dirname "$0")/.."
counts=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    counts+=("$1")
    shift
done
[ $# -gt 0 ] && shift
args=("$@")
out="${OUT:-/tmp/eng-bench/quote-bench.txt}"
heap="${HEAP:--Xms1g -Xmx1g}"
mkdir -p "$(dirname "$out")"

cp_file=bench/ringex/target/engine-bench.classpath
if [ ! -s "$cp_file" ]; then
    mvn -B -o -q -pl bench/ringex dependency:build-classpath -DexcludeGroupIds=io.ringex \
        -Dmdep.outputFile="$PWD/$cp_file" >/dev/null
fi
cp="bench/ringex/target/classes:engine/target/classes:journal/target/classes:client/target/classes"
cp="$cp:protocol/target/classes:common/target/classes:$(cat "$cp_file")"
read -r -a jvm_flags < protocol/target/classes/ringex-jvm.flags
read -r -a engine_flags <<< "$(cat protocol/target/classes/ringex-engine-jvm.flags)"
jvm_flags+=("${engine_flags[@]}")

echo "# QuoteBenchmark: nproc=$(nproc) $(java -version 2>&1 | head -1) flags: ${jvm_flags[*]} $heap" | tee -a "$out"
for n in "${counts[@]}"; do
    echo "## instruments=$n before: uptime $(uptime | sed 's/.*load average: //')" | tee -a "$out"
    # shellcheck disable=SC2086
    java "${jvm_flags[@]}" $heap -cp "$cp" io.ringex.bench.engine.QuoteBenchmark --instruments "$n" "${args[@]}" \
        2>&1 | tee -a "$out"
    echo "## instruments=$n after: uptime $(uptime | sed 's/.*load average: //')" | tee -a "$out"
done
