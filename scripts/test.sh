#!/usr/bin/env bash
# The one command that tests Kiosk (README, and .ci/run on a clean clone): installs what it needs,
# checks the code rules and the package's layout, measures the parser on the shared corpus, runs every Swift test (the
# bulk in parallel, then the real-time suites one at a time: scripts/swift-tests.sh), guards the
# peak memory of the reader view on 10 MB pages (scripts/extract-memory-check.py) and per open
# event stream (kiosk-bench sse), fuzzes,
# then runs the browser tests against the real server in demo mode.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

echo "== code rules (Tools/CodeRules, swift-syntax)"
swift test --package-path Tools/CodeRules --disable-xctest 2>&1 | tail -n 1
scripts/check-code-rules.sh

echo "== build"
swift build --build-tests

echo "== layout: declared dependencies imported, no paths differing by case, docs/ARCHITECTURE.md's tables true"
scripts/check-layout.py "$(swift build --show-bin-path)"

echo "== corpus agreement: feeds (kiosk parse) and the reader view (kiosk extract)"
scripts/corpus-check.sh "$(swift build --show-bin-path)/kiosk"

echo "== peak memory of the reader view: pages up to the 10 MB limit, each under 100 MB (debug build)"
scripts/extract-memory-check.py "$(swift build --show-bin-path)/kiosk" --limit-mb 100

echo "== Swift tests: the parallel bulk, then the real-time suites alone (the store's contract also on PostgreSQL: a private server, stopped at the end)"
scripts/swift-tests.sh

echo "== memory per open page: 1,000 event streams (debug build; 36 KiB each measured, 67 before the child-task responder)"
"$(swift build --show-bin-path)/kiosk-bench" sse --clients 1000 --rounds 1 --max-kib-per-client 45 | grep -E "KiB per client|guard"

echo "== fuzzing (libFuzzer + AddressSanitizer, 15 s per parser; scripts/fuzz.sh TARGET SECONDS for longer)"
scripts/fuzz.sh all 15

echo "== browser tests"
KIOSK_BIN="$(swift build --show-bin-path)/kiosk" scripts/e2e.sh
