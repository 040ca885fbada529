#!/usr/bin/env bash
# Runs the browser tests (e2e, pytest + Selenium + headless Chromium) against the real
# `kiosk --demo` server. Builds nothing: build first (scripts/test.sh does), or point KIOSK_BIN at
# a binary. Needs `scripts/install-deps.sh` (chromium, chromium-driver, .venv-e2e/).
#
# Usage: scripts/e2e.sh [pytest arguments, e.g. -k news -x]
set -euo pipefail
cd "$(dirname "$0")/.."

KIOSK_BIN="${KIOSK_BIN:-$(swift build --show-bin-path)/kiosk}"
export KIOSK_BIN
export SE_OFFLINE=true  # Selenium Manager never goes online; the driver path is given explicitly
if [ ! -x .venv-e2e/bin/python ]; then
    echo "e2e: no .venv-e2e/ here; run scripts/install-deps.sh first" >&2
    exit 2
fi
if [ ! -x "$KIOSK_BIN" ]; then
    echo "e2e: no kiosk binary at $KIOSK_BIN; build it first (swift build) or set KIOSK_BIN" >&2
    exit 2
fi
echo "== browser tests (KIOSK_BIN=$KIOSK_BIN)"
exec .venv-e2e/bin/python -m pytest e2e -q "$@"
