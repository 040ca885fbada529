#!/usr/bin/env bash
# A private PostgreSQL server on loopback, Debian's own binaries, for the tests, the benchmarks
# and scripts/cluster.sh. Nothing system-wide is touched: the cluster lives in DIR, listens on
# 127.0.0.1:PORT and on a socket in DIR, and is stopped by its PID. Over TCP every role needs a
# password (scram-sha-256; the role "kiosk" gets a random one, kept in DIR/password and put in
# the URL); only the socket, in the private DIR, is trusted, for this script's own setup.
#
# Usage:
#   scripts/postgres.sh start DIR PORT   initdb DIR if new, start, create role+database "kiosk";
#                                        prints the database URL on its last line
#   scripts/postgres.sh stop DIR         fast shutdown (the PID in DIR/postmaster.pid)
#   scripts/postgres.sh kill DIR         SIGKILL, as a crash would (the fault tests)
#   scripts/postgres.sh url DIR          the URL again
# Installs Debian's postgresql when missing (root or sudo). As root, the server runs as the
# "postgres" user that package creates (PostgreSQL refuses to run as root).
set -euo pipefail

command="${1:-}"
dir="${2:-}"
[ -n "$command" ] && [ -n "$dir" ] || {
    sed -n '5,11p' "$0" >&2
    exit 2
}

bindir() {
    local found
    found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    [ -n "$found" ] || return 1
    echo "$found"
}

ensure_installed() {
    bindir >/dev/null 2>&1 && return 0
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing: postgresql" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends postgresql >&2
}

as_owner() {  # runs a command as the cluster's owner
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

url() { echo "postgres://kiosk:$(cat "$dir/password")@127.0.0.1:$(cat "$dir/port")/kiosk"; }

case "$command" in
    start)
        port="${3:?usage: $0 start DIR PORT}"
        ensure_installed
        bin="$(bindir)"
        mkdir -p "$dir"
        dir="$(cd "$dir" && pwd)"
        [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
        chmod 700 "$dir"
        if ! as_owner test -x "$dir"; then
            echo "postgres.sh: the postgres user cannot reach $dir (a folder above it is private); use a folder it can, e.g. under /tmp" >&2
            exit 1
        fi
        if [ ! -f "$dir/data/PG_VERSION" ]; then
            as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
                -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || {
                cat "$dir/initdb.log" >&2
                exit 1
            }
        fi
        echo "$port" >"$dir/port"
        # Sized for a test machine: many replicas' pools and listeners, little memory. Already
        # running (a second start): only the role and the URL again.
        as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1 || as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
            -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=128MB -c fsync=on -c synchronous_commit=on" \
            start >/dev/null
        for _ in $(seq 1 60); do
            as_owner "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" && break
            sleep 0.5
        done
        psql() { as_owner "$bin/psql" -q -h "$dir" -p "$port" -U postgres -v ON_ERROR_STOP=1 "$@"; }
        if [ ! -s "$dir/password" ]; then
            (umask 077 && head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$dir/password")
        fi
        if [ "$(psql -tAc "SELECT 1 FROM pg_roles WHERE rolname = 'kiosk'" postgres)" != 1 ]; then
            psql -c "CREATE ROLE kiosk LOGIN CREATEDB" postgres
        fi
        psql -c "ALTER ROLE kiosk PASSWORD '$(cat "$dir/password")'" postgres >/dev/null
        if [ "$(psql -tAc "SELECT 1 FROM pg_database WHERE datname = 'kiosk'" postgres)" != 1 ]; then
            psql -c "CREATE DATABASE kiosk OWNER kiosk" postgres
        fi
        url
        ;;
    stop)
        [ -f "$dir/data/postmaster.pid" ] || exit 0
        as_owner "$(bindir)/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null || true
        ;;
    kill)
        [ -f "$dir/data/postmaster.pid" ] || exit 0
        kill -9 "$(head -n 1 "$dir/data/postmaster.pid")" 2>/dev/null || true
        ;;
    url) url ;;
    *)
        sed -n '5,11p' "$0" >&2
        exit 2
        ;;
esac
