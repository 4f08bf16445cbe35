#!/bin/sh
# Engine container health: PID 1 is the engine's JVM, and the node's counters file (counters.dat, next to the
# journal directory, recreated by every node start) was written by THIS start, i.e. the node got past launching its
# media driver and Aeron client. It does not prove that recovery has finished or that commands flow: readers of the
# counters (ring sequences, replication acks) are the next step, see docs/docker.md.
set -eu
data="${RINGEX_DATA:-/var/lib/ringex}"
mark="${TMPDIR:-/tmp}/ringex.started"
pid="${RINGEX_PID:-1}"
counters="$data/counters.dat"

tr '\0' ' ' < /proc/$pid/cmdline | grep -q 'io.ringex.engine.node.EngineMain' || { echo "engine JVM is not PID $pid"; exit 1; }
[ -f "$counters" ] || { echo "no $counters yet"; exit 1; }
[ -n "$(find "$counters" -newer "$mark" 2>/dev/null)" ] || { echo "$counters is from an earlier start"; exit 1; }
echo "engine up: $counters"
