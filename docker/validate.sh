#!/usr/bin/env bash
# Fast checks of the docker/ directory that need no Docker engine (a few seconds; CI runs it from .ci/run):
#  1. docker/compose.yml is valid (`docker-compose config`, Debian's docker-compose package, or `docker compose`),
#     with placeholder values for the required credentials;
#  2. without those values it is refused (no default passwords);
#  3. the Dockerfiles copy only files that exist, name their entrypoint scripts, and re-type no JVM flag
#     (the flag list comes from the build's ringex-jvm.flags);
#  4. the container scripts parse (sh -n / bash -n);
#  5. the reference data the venue applies at start (docker/config/reference-data.yml) is the file compose mounts, and
#     is valid by the admin tool's validator when the build is there (./ringex admin validate); without a build (CI
#     runs this before mvn) the unit test ShippedReferenceDataTest validates it in `mvn verify`.
# It does not build images or start containers.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
compose_file="$here/compose.yml"

if command -v docker-compose >/dev/null 2>&1; then
    compose=(docker-compose)
elif docker compose version >/dev/null 2>&1; then
    compose=(docker compose)
else
    echo "validate.sh: needs docker-compose (apt-get install -y docker-compose) or the docker compose plugin" >&2
    exit 2
fi

fail() { echo "validate.sh: FAIL: $*" >&2; exit 1; }

# A developer's docker/.env must not make the result depend on the machine: use an empty env file.
empty_env="$(mktemp)"
trap 'rm -f "$empty_env"' EXIT
required=(RINGEX_RISK_OFFICER_BCRYPT RINGEX_RISK_VIEWER_BCRYPT RINGEX_GATEWAY_USERS_FILE RINGEX_ADMIN_KEYS_FILE
    RINGEX_CLUSTER_SECRET_FILE RINGEX_API_KEYS_FILE)

# 1. valid with placeholders (syntactically bcrypt-shaped; not the hash of anything anyone should use)
placeholder='$2a$10$validateOnlyNotARealHashXXXXXXXXXXXXXXXXXXXXXXXXXXXXX'
export RINGEX_RISK_OFFICER_BCRYPT="$placeholder" RINGEX_RISK_VIEWER_BCRYPT="$placeholder"
export RINGEX_GATEWAY_USERS_FILE="$here/config/gateway-users.example.properties"
export RINGEX_CLUSTER_SECRET_FILE="$here/config/cluster-secret.example.properties"
# a path only: config reads no mounted file
export RINGEX_ADMIN_KEYS_FILE="$here/config/admin.keys.placeholder"
export RINGEX_API_KEYS_FILE="$here/config/api-keys.placeholder"
"${compose[@]}" --env-file "$empty_env" -f "$compose_file" config -q \
    || fail "${compose[*]} -f docker/compose.yml config"
echo "compose: ${compose_file#"$root"/} is valid"

# 2. refused without each required value
for name in "${required[@]}"; do
    if env -u "$name" "${compose[@]}" --env-file "$empty_env" -f "$compose_file" config -q >/dev/null 2>&1; then
        fail "compose.yml accepted a missing $name: it must have no default"
    fi
done
echo "compose: refused without ${required[*]}"

# 3. Dockerfiles
for dockerfile in "$here"/*.Dockerfile; do
    name="${dockerfile#"$root"/}"
    # COPY <repo paths>... <dest> (not COPY --from=..., not COPY . .)
    while read -r -a words; do
        [ "${#words[@]}" -gt 2 ] && [ "${words[0]}" = COPY ] || continue
        case "${words[1]}" in --from=*) continue ;; esac
        for src in "${words[@]:1:${#words[@]}-2}"; do
            [ "$src" = . ] && continue
            [ -e "$root/$src" ] || fail "$name copies $src, which does not exist"
        done
    done < "$dockerfile"
    grep -q '^FROM maven:3.9-eclipse-temurin-17 AS build' "$dockerfile" || fail "$name: no maven build stage"
    grep -q '^FROM eclipse-temurin:17-jre' "$dockerfile" || fail "$name: no eclipse-temurin:17-jre runtime stage"
    grep -q '^USER ringex' "$dockerfile" || fail "$name: does not run as the ringex user"
    grep -q '^HEALTHCHECK' "$dockerfile" || fail "$name: no HEALTHCHECK"
    grep -q 'ringex-jvm.flags' "$dockerfile" || fail "$name: does not take the build's ringex-jvm.flags"
done
grep -q 'ringex-engine-jvm.flags' "$here/engine.Dockerfile" ||
    fail "engine.Dockerfile: does not take the build's ringex-engine-jvm.flags (the engine's collector)"
if grep -n -e '--add-opens' -e '--add-exports' "$here"/*.Dockerfile "$here"/ringex-entrypoint.sh \
    "$here"/engine-healthcheck.sh "$here"/http-healthcheck.sh "$compose_file" "$here"/config/*; then
    fail "JVM flags re-typed above: they live only in the parent pom (ringex.jvm.flags)"
fi
echo "dockerfiles: $(cd "$here" && echo *.Dockerfile)"

# 4. scripts
for script in "$here"/ringex-entrypoint.sh "$here"/engine-healthcheck.sh; do
    sh -n "$script" || fail "$script does not parse"
    [ -x "$script" ] || fail "$script is not executable"
done
bash -n "$here/http-healthcheck.sh" && [ -x "$here/http-healthcheck.sh" ] || fail "http-healthcheck.sh"
echo "scripts: ok"

# 5. reference data
reference_data="$here/config/reference-data.yml"
[ -f "$reference_data" ] || fail "docker/config/reference-data.yml is missing"
grep -q 'RINGEX_REFERENCE_DATA_FILE:-./config/reference-data.yml}:/etc/ringex/reference-data.yml' "$compose_file" ||
    fail "compose.yml does not mount docker/config/reference-data.yml for the reference-data service"
if [ -f "$root/app/target/ringex.jar" ] && [ -f "$root/protocol/target/classes/ringex-jvm.flags" ]; then
    "$root/ringex" admin validate "$reference_data" || fail "docker/config/reference-data.yml is not valid"
else
    echo "reference data: not validated here (no build); ShippedReferenceDataTest validates it in mvn verify"
fi
echo "validate.sh: OK"
