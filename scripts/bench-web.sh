#!/usr/bin/env bash
# Web benchmark (docs/PERFORMANCE.md, "Web"): pages per second of the server-rendered routes
# against the trivial /healthz, with wrk, in one run.
#
# Builds release, starts `kiosk --demo --demo-frozen` on free loopback ports with a temporary data
# directory, waits until /healthz answers and both News lists and the Top Albums chart are loaded,
# warms every route up, then runs `wrk -t2 -c32 -d15s --latency` on each route in turn and prints
# requests/s and p50/p99 latency. The server is stopped (and its data directory removed) on exit.
#
# wrk and the server share the machine's cores (2 here): the figures are for both together.
#
# Usage: scripts/bench-web.sh
# Environment: SCRATCH (build directory, default .build-bench), DURATION (default 15s),
#   CONNECTIONS (default 32), THREADS (default 2), SKIP_BUILD=1 to use the existing build.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${SCRATCH:-.build-bench}"
duration="${DURATION:-15s}"
connections="${CONNECTIONS:-32}"
threads="${THREADS:-2}"

for tool in wrk curl; do
    command -v "$tool" >/dev/null || { echo "bench-web: $tool is required (apt-get install $tool)" >&2; exit 2; }
done

if [ "${SKIP_BUILD:-0}" != 1 ]; then
    echo "==> swift build -c release --scratch-path $scratch" >&2
    swift build -c release --scratch-path "$scratch" >&2
fi
kiosk="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/kiosk"
[ -x "$kiosk" ] || { echo "bench-web: no $kiosk (build first)" >&2; exit 2; }

# A port nobody listens on, below the ephemeral range so wrk's own connections never take it.
free_port() {
    local port
    for _ in $(seq 1 200); do
        port=$((20000 + RANDOM % 12000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
    echo "bench-web: no free port found" >&2
    exit 1
}

port="$(free_port)"
demo_port="$(free_port)"
while [ "$demo_port" = "$port" ]; do demo_port="$(free_port)"; done
data_dir="$(mktemp -d "${TMPDIR:-/tmp}/kiosk-bench-web.XXXXXX")"
server_pid=""

cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$data_dir"
}
trap cleanup EXIT

base="http://127.0.0.1:$port"
echo "==> kiosk --demo --demo-frozen on $base (sample sources on :$demo_port, data in $data_dir)" >&2
"$kiosk" --demo --demo-frozen --port "$port" --demo-port "$demo_port" --data-directory "$data_dir" \
    >"$data_dir/server.log" 2>&1 &
server_pid=$!

# Counts `needle` in the body of `path` (0 when the request fails).
count_in() {
    local body
    body="$(curl -fsS --max-time 5 "$base$1" 2>/dev/null)" || { echo 0; return; }
    { grep -o "$2" <<<"$body" || true; } | wc -l
}

wait_for() {
    local what="$1" path="$2" needle="$3" minimum="$4"
    for _ in $(seq 1 300); do
        kill -0 "$server_pid" 2>/dev/null || { echo "bench-web: the server exited:" >&2; cat "$data_dir/server.log" >&2; exit 1; }
        local found
        found="$(count_in "$path" "$needle")"
        if [ "$found" -ge "$minimum" ]; then
            echo "    $what: $found" >&2
            return
        fi
        sleep 0.2
    done
    echo "bench-web: timed out waiting for $what ($path)" >&2
    cat "$data_dir/server.log" >&2
    exit 1
}

wait_for "healthz" "/healthz" "ok" 1
wait_for "Business entries" "/news" 'class="entry"' 1
wait_for "Entertainment + Environment entries" "/news?feed=entertainment-environment" 'class="entry"' 1
wait_for "albums" "/albums" 'class="album"' 1

routes=("/healthz" "/news" "/news?feed=entertainment-environment" "/albums")

echo "==> warm-up: wrk -t$threads -c$connections -d3s on each route" >&2
for route in "${routes[@]}"; do
    wrk -t"$threads" -c"$connections" -d3s "$base$route" >/dev/null
done

# "Latency Distribution" lines look like "     50%  1.23ms"; print the value in milliseconds.
percentile_ms() {
    awk -v p="$1" '$1 == p {
        v = $2; unit = v; sub(/[0-9.]+/, "", unit); sub(/[a-z]+$/, "", v)
        if (unit == "us") v /= 1000; else if (unit == "s") v *= 1000; else if (unit == "m") v *= 60000
        printf "%.2f", v; exit }'
}

cores="$(nproc)"
echo
echo "wrk -t$threads -c$connections -d$duration --latency, kiosk --demo --demo-frozen (release), $cores cores shared by wrk and the server"
printf '%-38s %9s %10s %10s %10s %8s\n' "route" "bytes" "req/s" "p50 ms" "p99 ms" "errors"
printf '%-38s %9s %10s %10s %10s %8s\n' "-----" "-----" "-----" "------" "------" "------"
for route in "${routes[@]}"; do
    bytes="$(curl -fsS --max-time 5 -o /dev/null -w '%{size_download}' "$base$route")"
    out="$(wrk -t"$threads" -c"$connections" -d"$duration" --latency "$base$route")"
    rps="$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' <<<"$out")"
    p50="$(percentile_ms 50% <<<"$out")"
    p99="$(percentile_ms 99% <<<"$out")"
    non2xx="$(awk '/Non-2xx or 3xx responses:/ { print $NF }' <<<"$out")"
    socket="$(awk '/Socket errors:/ { gsub(",", ""); print $4 + $6 + $8 + $10 }' <<<"$out")"
    errors=$(( ${non2xx:-0} + ${socket:-0} ))
    printf '%-38s %9s %10s %10s %10s %8s\n' "$route" "$bytes" "$rps" "$p50" "$p99" "$errors"
done
echo "(bytes: one response body; errors: non-2xx answers plus socket errors)"
