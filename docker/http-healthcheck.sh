#!/bin/bash
# HTTP health check without curl or wget in the image: healthy when GET http://127.0.0.1:<port><path> answers 200.
# usage: http-healthcheck.sh [port] [path]     (defaults: $SERVER_PORT or 8080, /actuator/health)
set -euo pipefail
port="${1:-${SERVER_PORT:-8080}}"
path="${2:-/actuator/health}"
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' "$path" >&3
read -r status_line <&3
exec 3<&-
echo "$path: $status_line"
case "$status_line" in
    "HTTP/1."?" 200"*) exit 0 ;;
    *) exit 1 ;;
esac
