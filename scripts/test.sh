#!/usr/bin/env bash
# The one command that tests Kiosk (README, and .ci/run on a clean clone): installs what it needs,
# checks the code rules, measures the parser on the shared corpus, runs every Swift test, then
# the browser tests against the real server in demo mode.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

echo "== code rules (Tools/CodeRules, swift-syntax)"
swift test --package-path Tools/CodeRules --disable-xctest 2>&1 | tail -n 1
scripts/check-code-rules.sh

echo "== build"
swift build --build-tests

echo "== feed corpus agreement"
scripts/corpus-check.sh "$(swift build --show-bin-path)/kiosk"

echo "== tests (the store's contract also on PostgreSQL: a private server, stopped at the end)"
pg_dir="$(mktemp -d /tmp/kiosk-test-pg.XXXXXX)"
pg_port="${KIOSK_TEST_PG_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
trap 'scripts/postgres.sh stop "$pg_dir" >/dev/null 2>&1 || true; rm -rf "$pg_dir"' EXIT
pg_url="$(scripts/postgres.sh start "$pg_dir" "$pg_port" | tail -n 1)"
export KIOSK_TEST_DATABASE_URL="$pg_url"
swift test --skip-build --disable-xctest

echo "== fuzzing (libFuzzer + AddressSanitizer, 15 s per parser; scripts/fuzz.sh TARGET SECONDS for longer)"
scripts/fuzz.sh all 15

echo "== browser tests"
KIOSK_BIN="$(swift build --show-bin-path)/kiosk" scripts/e2e.sh
