#!/bin/sh
# Starts a Ringex JVM in a container with the JVM flags the build wrote from the parent pom
# (protocol/target/classes/ringex-jvm.flags, copied to $RINGEX_HOME/ringex-jvm.flags). The flags are never re-typed
# here: java reads the file itself as an argument file (java @file).
#
#   RINGEX_MAIN    main class, run on the classpath $RINGEX_HOME/lib/*        (engine, gateway)
#   RINGEX_JAR     executable jar, run with java -jar                         (risk service, all-in-one)
#   RINGEX_LOADER_MAIN  optional, with RINGEX_JAR (a Spring Boot jar): run this main class of the jar instead of
#                  its own, through Boot's PropertiesLauncher (the all-in-one image's admin tool:
#                  io.ringex.app.admin.AdminCli, what ./ringex admin runs)
#   RINGEX_CONFIG  optional: space-separated properties files, merged in order (a later file's key wins, as it
#                  would were they given to EngineMain or GatewayMain one by one) into one file that is passed as the
#                  first argument
#   $RINGEX_HOME/ringex-engine-jvm.flags, if the image has it (the engine's collector): read after the flag list;
#   RINGEX_ENGINE_JVM_FLAGS, if set (even empty), replaces it, in any image (only one collector may be named per JVM)
#   JAVA_OPTS      extra JVM options after the flag lists (JAVA_TOOL_OPTIONS is read by the JVM itself, before it)
#   "$@"           passed on to the main class / jar
set -eu
home="${RINGEX_HOME:-/opt/ringex}"
flags="$home/ringex-jvm.flags"
java_cmd="${JAVA_HOME:+$JAVA_HOME/bin/}java"
# Options are split on spaces, never globbed (a flag like -Xlog:gc* stays as written).
set -f
engine_flags_file=""
engine_flags=""
if [ -n "${RINGEX_ENGINE_JVM_FLAGS+set}" ]; then
    engine_flags="$RINGEX_ENGINE_JVM_FLAGS"
elif [ -r "$home/ringex-engine-jvm.flags" ]; then
    engine_flags_file="$home/ringex-engine-jvm.flags"
fi

if [ ! -r "$flags" ]; then
    echo "ringex-entrypoint: $flags is missing: the image was not built from a Ringex build" >&2
    exit 2
fi

if [ -n "${RINGEX_CONFIG:-}" ]; then
    merged="${TMPDIR:-/tmp}/ringex-$$.properties"
    : > "$merged"
    for file in $RINGEX_CONFIG; do
        if [ ! -f "$file" ] || [ ! -r "$file" ]; then
            echo "ringex-entrypoint: config file $file is missing or unreadable (RINGEX_CONFIG=$RINGEX_CONFIG)" >&2
            exit 2
        fi
        cat "$file" >> "$merged"
        echo >> "$merged"
    done
    set -- "$merged" "$@"
fi

# The engine's health check compares the node's counters file against this mark: written by this start.
touch "${TMPDIR:-/tmp}/ringex.started"

if [ -n "${RINGEX_MAIN:-}" ]; then
    # shellcheck disable=SC2086 # JAVA_OPTS and engine_flags are lists of options
    exec "$java_cmd" "@$flags" ${engine_flags_file:+"@$engine_flags_file"} $engine_flags ${JAVA_OPTS:-} \
        -cp "$home/lib/*" "$RINGEX_MAIN" "$@"
elif [ -n "${RINGEX_JAR:-}" ] && [ -n "${RINGEX_LOADER_MAIN:-}" ]; then
    # shellcheck disable=SC2086
    exec "$java_cmd" "@$flags" ${engine_flags_file:+"@$engine_flags_file"} $engine_flags ${JAVA_OPTS:-} \
        -Dloader.main="$RINGEX_LOADER_MAIN" -cp "$RINGEX_JAR" \
        org.springframework.boot.loader.launch.PropertiesLauncher "$@"
elif [ -n "${RINGEX_JAR:-}" ]; then
    # shellcheck disable=SC2086
    exec "$java_cmd" "@$flags" ${engine_flags_file:+"@$engine_flags_file"} $engine_flags ${JAVA_OPTS:-} \
        -jar "$RINGEX_JAR" "$@"
fi
echo "ringex-entrypoint: set RINGEX_MAIN or RINGEX_JAR" >&2
exit 2
