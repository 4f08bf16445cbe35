#!/usr/bin/env bash
# The risk dashboard fed by the SYNTHETIC engine (a test-scope stand-in), for looking at it by hand.
# usage: risk/src/test/browser/demo.sh [port]      (build first: mvn -B -q install -DskipTests -pl protocol,risk -am)
set -euo pipefail
risk="$(cd "$(dirname "$0")/../../.." && pwd)"
root="$(cd "$risk/.." && pwd)"
read -r -a jvm_flags < "$root/protocol/target/classes/ringex-jvm.flags"
cp_file="$risk/target/test-classpath.txt"
if [ ! -f "$cp_file" ]; then
    (cd "$root" && mvn -B -q -pl risk dependency:build-classpath -Dmdep.includeScope=test \
        -Dmdep.outputFile="$cp_file")
fi
(cd "$root" && mvn -B -q -pl risk test-compile -Dcheckstyle.skip)
exec java "${jvm_flags[@]}" -cp "$risk/target/test-classes:$risk/target/classes:$(cat "$cp_file")" \
    io.ringex.risk.synthetic.DemoMain "${1:-8080}"
