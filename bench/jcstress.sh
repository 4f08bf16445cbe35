#!/usr/bin/env bash
# jcstress tests of the ring's claim/publish protocol (bench/ringex/src/jcstress/java; docs/benchmarks-ring.md,
# "The claim/publish protocol under jcstress"). Builds bench/ringex with this tree's engine, then runs jcstress 0.16
# and keeps its raw output (every test's outcomes and counts, the machine, the load) in bench/results/.
#
# usage: bench/jcstress.sh [ring|full|sanity|broken] [OUT_FILE]
#   ring   (default) the real tests, jcstress's quick preset in its 8 JVM modes (interpreter, C1, C2, C2 with the
#          instruction-scheduling randomizers; each with and without biased locking), split compilation off:
#          72 forks, 6 min 42 s here (2 cores) under a load average of 12-17 from other builds
#   full   the same with split per-actor compilation on (one actor interpreted, the other compiled...): about 250
#          forks, for a quiet machine
#   sanity what `mvn verify` runs in CI: one JVM mode (C2 with the randomizers), one 200 ms iteration per test
#          (18 forks: jcstress pairs each mode with and without biased locking), about 90 s under that load
#   broken the deliberately broken copies of the protocol (package .broken); it SUCCEEDS when jcstress saw their
#          FORBIDDEN outcomes, i.e. when the tests can fail
#   env: BUILD (1: build first; 0 reuses bench/ringex/target), TIMEOUT (1800 s for the whole jcstress run),
#        MVN_OPTS_EXTRA (e.g. empty instead of the default -o to let Maven download)
# Exit status: jcstress's (non-zero on a FORBIDDEN outcome, a fork error or a timeout), inverted for `broken`.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
mode="${1:-ring}"
out="$(realpath -m "${2:-$here/bench/results/jcstress-$mode.txt}")"
timeout_s="${TIMEOUT:-1800}"

# Keep these in step with the jcstress properties of bench/ringex/pom.xml (the Maven runs use those).
options=(-sc false -spinStyle THREAD_YIELD -af NONE -v)
tests='io\.ringex\.bench\.jcstress\.[A-Z]'
case "$mode" in
    ring) options+=(-m quick) ;;
    full) options=(-m quick -spinStyle THREAD_YIELD -af NONE -v) ;;
    sanity) options+=(-m quick -iters 1
        -jvmArgs "-XX:-TieredCompilation -XX:+UnlockDiagnosticVMOptions -XX:+StressLCM -XX:+StressGCM") ;;
    broken) options+=(-m quick); tests='io\.ringex\.bench\.jcstress\.broken\.' ;;
    *) echo "unknown mode: $mode (ring, full, sanity or broken)" >&2; exit 2 ;;
esac

if [ "${BUILD:-1}" = 1 ]; then
    # package, not install: the shared local repository keeps other builds' snapshots
    (cd "$here" && mvn -B -q ${MVN_OPTS_EXTRA--o} package -pl bench/ringex -am -DskipTests)
fi

read -r -a jvm_flags < "$here/protocol/target/classes/ringex-jvm.flags"
cp="$here/bench/ringex/target/classes:$(cat "$here/bench/ringex/target/classpath.txt")"
report="$here/bench/ringex/target/jcstress-$mode"
mkdir -p "$(dirname "$out")" "$report"

{
    echo "# bench/jcstress.sh $mode"
    echo "# machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
    echo "# java: $(java -version 2>&1 | head -1)"
    echo "# jcstress options: ${options[*]} -t $tests"
    echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out"

start=$(date +%s)
set +e
# The host passes its JVM options to every fork: the exports Agrona needs, and its heap (jcstress's default, 256 MB).
# jcstress's stdin is closed: the "non-interactive" progress output goes to the file.
# It writes its result blob into the working directory: the report's.
(cd "$report" && timeout "$timeout_s" java "${jvm_flags[@]}" -Xmx256m -cp "$cp" org.openjdk.jcstress.Main \
    "${options[@]}" -t "$tests" -r "$report" < /dev/null >> "$out" 2>&1)
status=$?
set -e
{
    echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# wall time: $(( $(date +%s) - start )) s, jcstress exit status $status"
} >> "$out"

# The summary: every test's verdict and its outcomes across all JVM modes.
sed -n '/^RUN RESULTS:/,$p' "$out" | grep -v -e '--add-' | head -400
echo "raw output: $out; HTML report: $report/index.html"

if [ "$mode" = broken ]; then
    failed=$(grep '\[FAILED\]' "$out" | awk '{print $NF}' | sort -u | wc -l)
    echo "broken copies that jcstress caught (FORBIDDEN outcome seen): $failed"
    [ "$failed" -gt 0 ]
    exit $?
fi
exit "$status"
