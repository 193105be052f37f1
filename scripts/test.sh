#!/usr/bin/env bash
# The README's test command: installs what the tests need (Debian Chromium for browser tests,
# curl for the REST walkthrough, Debian redis-server for the scale-out tests, pnpm 12.4.2),
# installs from the lockfile, then typechecks, lints and runs every test.
set -euo pipefail
export TURBO_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."

# Installs a Debian package the tests need (as root, or with sudo), or says why they cannot run.
install_debian_package() {
  local package=$1 needed_by=$2 otherwise=$3
  local run_as=()
  if [ "$(id -u)" != 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "$needed_by: install the Debian package '$package'$otherwise." >&2
      exit 1
    fi
    run_as=(sudo)
  fi
  echo "Installing Debian $package ($needed_by)…"
  "${run_as[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${run_as[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null
}

chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium_path" ]; then
  install_debian_package chromium "Browser tests need Chromium" " or set CHROMIUM_PATH"
fi
# The REST package's README walkthrough runs as printed, with curl.
if ! command -v curl >/dev/null 2>&1; then
  install_debian_package curl "The REST walkthrough test needs curl" ""
fi

redis_path="${REDIS_SERVER_PATH:-/usr/bin/redis-server}"
if [ ! -x "$redis_path" ]; then
  install_debian_package redis-server "Scale-out tests need Redis" " or set REDIS_SERVER_PATH"
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
