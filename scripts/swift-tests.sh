#!/usr/bin/env bash
# Runs every Swift test (built already: `swift build --build-tests`), in two stages, so that no
# test depends on how fast a loaded 2-core machine is:
#   1. the bulk, in parallel (Swift Testing's default): parsers, stores, routes, everything whose
#      outcome does not depend on real time;
#   2. the real-time suites, one test at a time, with the machine to themselves: those that need
#      real sockets and real seconds (a fetch timing out, a source's latency, an engine polling a
#      loopback server on ContinuousClock). Run in the bulk, 2 cores shared with the store's
#      contract, PostgreSQL and the hostile-input parsers starved them past their bounds.
# Time logic that can run on an injected clock (KioskTesting's ManualClock) belongs in the bulk.
#
# The store's contract also runs on PostgreSQL: a private server is started here (and stopped at
# the end) unless KIOSK_TEST_DATABASE_URL names one already.
#
# Usage: scripts/swift-tests.sh [--xunit DIR]   (DIR gets bulk.xml and realtime.xml, as
#        Swift Testing writes them: *-swift-testing.xml)
set -euo pipefail
cd "$(dirname "$0")/.."

xunit_dir=""
if [ "${1:-}" = "--xunit" ]; then
    xunit_dir="${2:?--xunit needs a folder}"
    mkdir -p "$xunit_dir"
fi

# The real-time suites, by Swift Testing's id (Module.Suite). Each names why it needs real time.
realtime_suites=(
    KioskSourcesTests.HTTPFetcherTests       # timeouts, trickling bodies, cancellation over sockets
    KioskSourcesTests.DestinationGuardTests  # redirects followed over loopback within a timeout
    KioskSourcesTests.ConnectGuardTests      # connect-time refusals over real sockets
    KioskSourcesTests.SampleServerFaultTests # every sample-server fault through the real fetcher
    KioskSourcesTests.EngineTests            # the engine polling on ContinuousClock
    KioskSourcesTests.EngineSubscriptionTests
    KioskSourcesTests.EngineFreshnessTests
    KioskSourcesTests.LiveEngineTests        # the engine against the demo server's latencies
    KioskSourcesTests.OnDemandTests          # on-demand sources' deadlines
    KioskDemoTests.FaultTests                # never-answer, slow body: the client's deadlines
    KioskDemoTests.LatencyTests              # the sample sources' latencies themselves
    KioskDemoTests.ControlTests              # latency overrides
    KioskStoreTests.EngineStoreTests         # an engine on 30-50 ms intervals, saving to disk
    KioskClusterTests.SharedEngineTests      # three engines sharing leases on a 1 s interval
    KioskClusterTests.FeedLeasesTests        # lease expiry in database time
    KioskWebTests.LiveBroadcasterTests       # live pages told of changes as they happen
    KioskWebTests.EventStreamTests           # server-sent events over real connections
    KioskWebTests.NewsRouteTests             # News pages following three sources live
    KioskWebTests.RequestDeadlineTests       # slow clients cut off by the request deadline
    KioskWebTests.ConnectionLimitsTests      # the connection cap and the idle timeout over sockets
)
realtime_regex="^($(IFS='|'; echo "${realtime_suites[*]}" | sed 's/\./\\./g'))/"

# A suite renamed or removed would silently fall back into the bulk: refuse that.
listed="$(swift test list --skip-build --disable-xctest 2>/dev/null)"
for suite in "${realtime_suites[@]}"; do
    if ! grep -q "^${suite}/" <<<"$listed"; then
        echo "swift-tests: the real-time suite $suite no longer exists; update scripts/swift-tests.sh" >&2
        exit 2
    fi
done

if [ -z "${KIOSK_TEST_DATABASE_URL:-}" ]; then
    pg_dir="$(mktemp -d /tmp/kiosk-test-pg.XXXXXX)"
    pg_port="${KIOSK_TEST_PG_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
    trap 'scripts/postgres.sh stop "$pg_dir" >/dev/null 2>&1 || true; rm -rf "$pg_dir"' EXIT
    KIOSK_TEST_DATABASE_URL="$(scripts/postgres.sh start "$pg_dir" "$pg_port" | tail -n 1)"
    export KIOSK_TEST_DATABASE_URL
fi

xunit() {  # stage name
    [ -n "$xunit_dir" ] && echo "--xunit-output $xunit_dir/$1.xml"
    return 0
}

# A stage that hangs (seen once: the bulk idle at 0 % CPU, its tests started and never ended)
# fails after 15 minutes instead of stalling CI; each stage takes 1 to 2 minutes on 2 cores.
# Before it is stopped, every thread of the test process is printed, so the hang can be read.
stage_limit="${KIOSK_TEST_STAGE_LIMIT:-900}"

descendants() {  # pid: its children, grandchildren...
    local child
    for child in $(pgrep -P "$1" || true); do
        echo "$child"
        descendants "$child"
    done
}

watchdog() {  # pid label: after stage_limit seconds, print the threads of pid's tree and stop it
    local waited=0 p
    while kill -0 "$1" 2>/dev/null; do
        if [ "$waited" -ge "$stage_limit" ]; then
            echo "swift-tests: the $2 stage still runs after $stage_limit s; the threads of its processes:" >&2
            for p in $(descendants "$1"); do
                echo "--- process $p: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-200)" >&2
                timeout 120 gdb -p "$p" -batch -ex "thread apply all bt 25" 2>&1 \
                    | grep -E '^Thread |^#' | swift demangle --simplified | cut -c1-220 >&2 || true
            done
            for p in $(descendants "$1") "$1"; do kill -TERM "$p" 2>/dev/null || true; done
            sleep 30
            for p in $(descendants "$1") "$1"; do kill -KILL "$p" 2>/dev/null || true; done
            return 0
        fi
        sleep 1
        waited=$((waited + 1))
    done
}

run_stage() {  # label, then swift test's arguments
    local label="$1" pid dog rc=0
    shift
    swift test "$@" &
    pid=$!
    watchdog "$pid" "$label" &
    dog=$!
    wait "$pid" || rc=$?
    wait "$dog" || true
    return "$rc"
}

status=0
echo "== Swift tests, stage 1 of 2: the bulk, in parallel"
# shellcheck disable=SC2046
run_stage bulk --skip-build --disable-xctest --skip "$realtime_regex" $(xunit bulk) || status=$?

echo "== Swift tests, stage 2 of 2: the ${#realtime_suites[@]} real-time suites, one test at a time"
# shellcheck disable=SC2046
run_stage real-time --skip-build --disable-xctest --no-parallel --filter "$realtime_regex" $(xunit realtime) || status=$?
exit "$status"
