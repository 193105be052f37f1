#!/usr/bin/env bash
# The README's test command: installs what the tests need (Debian Chromium for browser tests,
# curl for the REST walkthrough, pnpm 12.4.2), installs from the lockfile, then typechecks, lints
# and runs every test.
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

if command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version)" = "12.4.2" ]; then
  pnpm() { command pnpm "$@"; }
else
  pnpm() { npx --yes pnpm@12.4.2 "$@"; }
fi

pnpm install --frozen-lockfile
pnpm run typecheck
pnpm run lint
# The React renderer's jsdom suite once more against React 18 (a supported peer).
pnpm --filter @a2ui-ts/react-renderer test:react18
mkdir -p artifacts
status=0
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json=artifacts/vitest-results.json || status=$?
# One plain closing line that any CI can read: "tests: N passed, N failed".
node -e '
  const r = JSON.parse(require("fs").readFileSync("artifacts/vitest-results.json", "utf8"));
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed` + (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));
' || true
exit "$status"
