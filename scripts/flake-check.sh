#!/usr/bin/env bash
# Runs the Swift suite (scripts/swift-tests.sh: the parallel bulk, then the real-time suites) N
# times, and with --browser the browser tests too, then lists every test that failed at least
# once, with how often. Builds first (debug, tests included); the browser tests need
# scripts/install-deps.sh to have run.
#
# Usage: scripts/flake-check.sh N [--browser] [--burn]
#   --browser  also run e2e (pytest + Chromium) each round
#   --burn     keep both cores busy meanwhile (one CPU burner per core, normal priority), to see
#              what a loaded machine does to the suite
# Exits 0 when every round passed, 1 when any test failed.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${1:-}"
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || {
    sed -n '6,10p' "$0" >&2
    exit 2
}
shift
browser=false
burn=false
for argument in "$@"; do
    case "$argument" in
        --browser) browser=true ;;
        --burn) burn=true ;;
        *)
            sed -n '6,10p' "$0" >&2
            exit 2
            ;;
    esac
done

swift build --build-tests
results="$(mktemp -d /tmp/kiosk-flake.XXXXXX)"
burners=()
cleanup() {
    for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -n "${pg_dir:-}" ] && { scripts/postgres.sh stop "$pg_dir" >/dev/null 2>&1 || true; rm -rf "$pg_dir"; }
}
trap cleanup EXIT

# One PostgreSQL server for every round.
if [ -z "${KIOSK_TEST_DATABASE_URL:-}" ]; then
    pg_dir="$(mktemp -d /tmp/kiosk-test-pg.XXXXXX)"
    pg_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    KIOSK_TEST_DATABASE_URL="$(scripts/postgres.sh start "$pg_dir" "$pg_port" | tail -n 1)"
    export KIOSK_TEST_DATABASE_URL
fi

if $burn; then
    for _ in $(seq "$(nproc)"); do
        python3 -c 'while True: pass' &
        burners+=("$!")
    done
    echo "flake-check: ${#burners[@]} CPU burners running (PIDs ${burners[*]})"
fi

failed_rounds=0
for round in $(seq "$rounds"); do
    echo "== flake-check round $round of $rounds"
    round_ok=true
    scripts/swift-tests.sh --xunit "$results/$round" >"$results/$round-swift.log" 2>&1 || round_ok=false
    grep -E "Test run with" "$results/$round-swift.log" || true
    if $browser; then
        KIOSK_BIN="$(swift build --show-bin-path)/kiosk" scripts/e2e.sh --junitxml "$results/$round/browser.xml" \
            >"$results/$round-browser.log" 2>&1 || round_ok=false
        tail -n 1 "$results/$round-browser.log"
    fi
    $round_ok || failed_rounds=$((failed_rounds + 1))
done

python3 - "$results" "$rounds" <<'EOF'
import collections, glob, os, sys
import xml.etree.ElementTree as ET

folder, rounds = sys.argv[1], int(sys.argv[2])
failures = collections.Counter()
ran = collections.Counter()
for path in glob.glob(os.path.join(folder, "*", "*.xml")):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as error:
        failures[f"(unreadable results: {os.path.relpath(path, folder)}: {error})"] += 1
        continue
    for case in root.iter("testcase"):
        name = f'{case.get("classname")}/{case.get("name")}'
        ran[name] += 1
        if case.find("failure") is not None or case.find("error") is not None:
            failures[name] += 1
print(f"flake-check: {rounds} rounds, {sum(ran.values())} test runs, {len(ran)} distinct tests")
if failures:
    print("failed at least once (count of rounds):")
    for name, count in failures.most_common():
        print(f"  {count}/{rounds}  {name}")
else:
    print("no test failed in any round")
EOF
echo "flake-check: logs and results in $results"
[ "$failed_rounds" -eq 0 ]
