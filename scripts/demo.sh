#!/usr/bin/env bash
# The one command that starts Kiosk in demo mode (README): installs what building needs (SQLite's
# headers, for GRDB) when it is missing, then builds and serves the web app on
# http://127.0.0.1:8080/ against the embedded sample sources, offline. Extra flags go to `kiosk`
# (e.g. `scripts/demo.sh --port 9090`). Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh runtime
exec swift run kiosk --demo "$@"
