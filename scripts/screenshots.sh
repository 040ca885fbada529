#!/usr/bin/env bash
# Writes a PNG of every screen on a phone (390x844) and a tablet (820x1180) into docs/screenshots/
# (phone-home.png, tablet-albums-detail.png...), using the browser tests' harness against the real
# `kiosk --demo` server with every sample source answering at once. Builds nothing.
#
# Usage: scripts/screenshots.sh [--out DIR] [--scale 2] [--devices phone,tablet]
set -euo pipefail
cd "$(dirname "$0")/.."

KIOSK_BIN="${KIOSK_BIN:-$(swift build --show-bin-path)/kiosk}"
export KIOSK_BIN
export SE_OFFLINE=true
if [ ! -x .venv-e2e/bin/python ]; then
    echo "screenshots: no .venv-e2e/ here; run scripts/install-deps.sh first" >&2
    exit 2
fi
exec .venv-e2e/bin/python e2e/screenshots.py "$@"
