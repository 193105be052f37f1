#!/usr/bin/env bash
# The README's test command: installs what the tests need (Debian Chromium for browser tests,
# Debian redis-server for the scale-out tests, pnpm 12.4.2), installs from the lockfile, then
# typechecks, lints and runs every test.
set -euo pipefail
export TURBO_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."

chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium_path" ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "Installing Debian chromium for the browser tests…"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  elif command -v sudo >/dev/null 2>&1; then
    sudo DEBIAN_FRONTEND=noninteractive apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Browser tests need Chromium: install the Debian package 'chromium' or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi

redis_path="${REDIS_SERVER_PATH:-/usr/bin/redis-server}"
if [ ! -x "$redis_path" ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "Installing Debian redis-server for the scale-out tests…"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  elif command -v sudo >/dev/null 2>&1; then
    sudo DEBIAN_FRONTEND=noninteractive apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  else
    echo "Scale-out tests need Redis: install the Debian package 'redis-server' or set REDIS_SERVER_PATH." >&2
    exit 1
  fi
fi

if command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version)" = "12.4.2" ]; then
  pnpm() { command pnpm "$@"; }
else
  pnpm() { npx --yes pnpm@12.4.2 "$@"; }
fi

pnpm install --frozen-lockfile
pnpm run typecheck
pnpm run lint
mkdir -p artifacts
rm -f artifacts/vitest-results.json artifacts/vitest-react18-results.json
status=0
# The React renderer's jsdom suite once more against React 18 (a supported peer).
pnpm --filter @a2ui-ts/react-renderer test:react18 --reporter=default --reporter=json \
  --outputFile.json="$PWD/artifacts/vitest-react18-results.json" || status=$?
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json=artifacts/vitest-results.json || status=$?
# One plain closing line that any CI can read: "tests: N passed, N failed", over both runs. A run
# that wrote no results (it crashed before reporting) counts as one failure.
node -e '
  const fs = require("fs");
  let passed = 0, failed = 0, skipped = 0;
  for (const file of ["artifacts/vitest-react18-results.json", "artifacts/vitest-results.json"]) {
    if (!fs.existsSync(file)) { failed += 1; continue; }
    const r = JSON.parse(fs.readFileSync(file, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests;
  }
  console.log(`tests: ${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' || true
exit "$status"
