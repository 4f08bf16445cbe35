#!/usr/bin/env bash
# Installs the browser harness's one npm dependency (playwright-core, no browser download) under risk/target.
# Chromium comes from Debian: apt-get update && apt-get install -y chromium   (gives /usr/bin/chromium)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="$here/../../../target/browser-node"
mkdir -p "$dest"
cp "$here/package.json" "$here/dashboard.mjs" "$here/cluster.mjs" "$dest/"
cd "$dest"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error
echo "installed in $dest"
