#!/usr/bin/env bash
# Kiosk as a cluster on this machine, all on loopback: Debian's PostgreSQL (scripts/postgres.sh),
# one sample-sources server, N replicas of Kiosk sharing the database, and Debian's haproxy in
# front (health-checked on /readyz, event streams kept open). Stopped by the PIDs it recorded.
#
# Usage:
#   scripts/cluster.sh start [options]   start everything; prints the URL to open
#   scripts/cluster.sh stop [--dir DIR]  stop everything it started
# Options (start):
#   --dir DIR            where the cluster keeps its state and logs (default .cluster/)
#   --replicas N         replicas (default 3)
#   --port P             haproxy's port, the one to open (default 8080); replicas use P+1..P+N
#   --db-port P          PostgreSQL's port (default 55440)
#   --db-dir DIR         PostgreSQL's folder (default DIR/pg; as root, the postgres user must reach it)
#   --demo-port P        the sample sources' port (default 8090)
#   --config FILE        a config file every replica reads (e.g. extra feeds)
#   --lease-seconds S    how long a replica holds a feed it checks (default 30)
#   --checks-per-host N  checks of one host in flight across the replicas (default 32)
#   --frozen             the sample feeds change only when told to (POST /_demo/advance)
# KIOSK_BIN names the kiosk binary; otherwise it is built (swift build --product kiosk).
set -euo pipefail
cd "$(dirname "$0")/.."

command="${1:-}"
shift || true
dir=".cluster"
replicas=3
port=8080
db_port=55440
demo_port=8090
config=""
lease=""
db_dir=""
frozen=()
per_host=""
while [ $# -gt 0 ]; do
    case "$1" in
        --dir) dir="$2"; shift 2 ;;
        --replicas) replicas="$2"; shift 2 ;;
        --port) port="$2"; shift 2 ;;
        --db-port) db_port="$2"; shift 2 ;;
        --db-dir) db_dir="$2"; shift 2 ;;
        --demo-port) demo_port="$2"; shift 2 ;;
        --config) config="$2"; shift 2 ;;
        --lease-seconds) lease="$2"; shift 2 ;;
        --frozen) frozen=(--frozen); shift ;;
        --checks-per-host) per_host="$2"; shift 2 ;;
        *) echo "cluster: unknown option $1" >&2; exit 2 ;;
    esac
done

db_dir="${db_dir:-$dir/pg}"

stop() {
    if [ -f "$dir/pids" ]; then
        # Only processes that are still ours (a PID from before a reboot may be anybody's now).
        ours() { grep -qE 'kiosk|haproxy' "/proc/$1/cmdline" 2>/dev/null; }
        while read -r name pid; do
            ours "$pid" && kill "$pid" 2>/dev/null && echo "stopped $name ($pid)" || true
        done <"$dir/pids"
        # Give them a moment to end their streams and leases, then make sure.
        sleep 1
        while read -r _ pid; do ours "$pid" && kill -9 "$pid" 2>/dev/null || true; done <"$dir/pids"
        rm -f "$dir/pids"
    fi
    [ -d "$db_dir" ] && scripts/postgres.sh stop "$db_dir" && echo "stopped PostgreSQL"
    return 0
}

wait_for() {  # URL, what, PID
    for _ in $(seq 1 2400); do
        curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
        if ! kill -0 "$3" 2>/dev/null; then
            echo "cluster: $2 exited; see $dir/*.log" >&2
            return 1
        fi
        sleep 0.25
    done
    echo "cluster: $2 did not come up ($1); see $dir/*.log" >&2
    return 1
}

case "$command" in
    start)
        if ! command -v haproxy >/dev/null 2>&1; then
            sudo=""
            [ "$(id -u)" -eq 0 ] || sudo="sudo"
            echo "installing: haproxy"
            $sudo apt-get update -qq
            DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends haproxy
        fi
        bin="${KIOSK_BIN:-}"
        if [ -z "$bin" ]; then
            swift build --product kiosk
            bin="$(swift build --show-bin-path)/kiosk"
        fi
        mkdir -p "$dir"
        stop >/dev/null 2>&1 || true
        # A start that fails half-way stops what it started.
        trap 'status=$?; [ "$status" -eq 0 ] || stop >/dev/null 2>&1' EXIT
        # Every open page holds a connection on haproxy and one on a replica: take what the
        # system allows (root may raise the hard limit).
        ulimit -Hn 1048576 2>/dev/null || true
        ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
        maxconn=$((($(ulimit -n) - 1000) / 2))
        [ "$maxconn" -ge 256 ] || maxconn=256
        url="$(scripts/postgres.sh start "$db_dir" "$db_port" | tail -n 1)"
        echo "PostgreSQL: $url"

        "$bin" demo-sources --port "$demo_port" "${frozen[@]}" >"$dir/demo-sources.log" 2>&1 &
        demo_pid=$!
        echo "demo-sources $demo_pid" >>"$dir/pids"
        wait_for "http://127.0.0.1:$demo_port/_demo/stats" "the sample sources" "$demo_pid"

        extra=()
        [ -n "$config" ] && extra+=(--config "$config")
        [ -n "$lease" ] && extra+=(--lease-seconds "$lease")
        [ -n "$per_host" ] && extra+=(--checks-per-host "$per_host")
        servers=""
        replica_pids=()
        for i in $(seq 1 "$replicas"); do
            replica_port=$((port + i))
            log="$dir/replica-$i.log"
            rm -f "$dir/replica-$i.pid"
            # Each replica has a parent that outlives this script and writes how it ended (its
            # exit status, or 128 + the signal) into its log: a replica that vanishes says why.
            (
                KIOSK_DATABASE_URL="$url" "$bin" --port "$replica_port" --data-directory "$dir/replica-$i" \
                    --demo-sources "http://127.0.0.1:$demo_port/" --replica-name "replica-$i" "${extra[@]}" \
                    >"$log" 2>&1 &
                child=$!
                echo "$child" >"$dir/replica-$i.pid"
                status=0
                wait "$child" || status=$?
                echo "$(date -u +%Y-%m-%dT%H:%M:%S%z) cluster: replica-$i (pid $child) ended with status $status" >>"$log"
            ) </dev/null >/dev/null 2>&1 &
            for _ in $(seq 1 200); do [ -s "$dir/replica-$i.pid" ] && break; sleep 0.05; done
            if [ ! -s "$dir/replica-$i.pid" ]; then
                echo "cluster: replica $i did not start (no pid within 10 s); see $dir/*.log" >&2
                exit 1
            fi
            pid="$(cat "$dir/replica-$i.pid")"
            replica_pids+=("$pid")
            echo "replica-$i $pid" >>"$dir/pids"
            servers+="    server replica-$i 127.0.0.1:$replica_port check inter 1s fall 3 rise 1"$'\n'
        done
        for i in $(seq 1 "$replicas"); do
            wait_for "http://127.0.0.1:$((port + i))/readyz" "replica $i" "${replica_pids[$((i - 1))]}"
        done

        # The configuration to copy (docs/haproxy.cfg), with this cluster's port, limit and servers.
        PORT="$port" MAXCONN="$maxconn" SERVERS="$servers" awk '
            /^#/ { next }
            /@SERVERS@/ { printf "%s", ENVIRON["SERVERS"]; next }
            { gsub(/@PORT@/, ENVIRON["PORT"]); gsub(/@MAXCONN@/, ENVIRON["MAXCONN"]); print }
        ' docs/haproxy.cfg >"$dir/haproxy.cfg"
        haproxy -f "$dir/haproxy.cfg" -db >"$dir/haproxy.log" 2>&1 &
        haproxy_pid=$!
        echo "haproxy $haproxy_pid" >>"$dir/pids"
        wait_for "http://127.0.0.1:$port/readyz" "haproxy" "$haproxy_pid"
        echo "Kiosk cluster: http://127.0.0.1:$port/ ($replicas replicas on ports $((port + 1))-$((port + replicas)), sample sources on $demo_port)"
        echo "stop it with: scripts/cluster.sh stop --dir $dir --db-dir $db_dir"
        ;;
    stop) stop ;;
    *)
        sed -n '6,19p' "$0" >&2
        exit 2
        ;;
esac
