#!/usr/bin/env python3
"""Benchmarks Kiosk as a cluster on this machine (scripts/cluster.sh: PostgreSQL, three replicas,
haproxy, one sample-sources server), and prints figures for docs/PERFORMANCE.md:

  polling  FEEDS sample feeds at INTERVAL across the replicas: checks/s achieved against the
           goal (FEEDS / INTERVAL), CPU of each replica and of PostgreSQL, the database's
           transactions/s
  fanout   PAGES event streams spread evenly over the replicas: the time from a change entering
           the live log until every page has it
  fanout-nio  the same with SwiftNIO clients (`kiosk-bench sse-clients`, KIOSK_BENCH names the
           binary, a release build)
  burst    RECORDS changes of feeds no open page's user follows appended to the live log at once
           (as a burst of first checks appends them), then one change of Business: how long each
           replica takes to read the burst, and the time from that change entering the log until
           an open page on every replica has it

Usage: scripts/bench-cluster.py [--feeds 100000] [--interval 300] [--seconds 300] [--pages 10000]
                               [--records 100000] [--only polling|fanout|fanout-nio|burst]
KIOSK_BIN names the kiosk binary (build a release one: swift build -c release --product kiosk
--scratch-path .build-bench); the cluster lives in /tmp/kiosk-bench-cluster and is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DIR = Path("/tmp/kiosk-bench-cluster")
PORT, DB_PORT, DEMO_PORT = 18080, 55450, 18090
DB_URL = ""  # with its password, once the cluster runs
TICKS = os.sysconf("SC_CLK_TCK")


def cluster(*args: str) -> None:
    subprocess.run([str(REPO / "scripts/cluster.sh"), *args, "--dir", str(DIR)], check=True, cwd=REPO)


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as reply:
        return reply.read()


def database_url() -> str:
    return subprocess.run([str(REPO / "scripts/postgres.sh"), "url", str(DIR / "pg")], capture_output=True, text=True,
                          check=True).stdout.strip()


def sql(query: str) -> str:
    return subprocess.run(["psql", DB_URL, "-tAc", query], capture_output=True, text=True, check=True).stdout.strip()


def pids() -> dict[str, int]:
    found = {}
    for line in (DIR / "pids").read_text().splitlines():
        name, pid = line.split()
        found[name] = int(pid)
    return found


def postgres_pids() -> list[int]:
    """Every process of the bench's PostgreSQL (its postmaster and backends)."""
    master = int((DIR / "pg/data/postmaster.pid").read_text().split()[0])
    result = [master]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == master:
                    result.append(int(entry.name))
            except (OSError, ValueError, IndexError):
                pass
    return result


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except OSError:
        return 0.0


def samples_checked() -> int:
    stats = json.loads(get(f"http://127.0.0.1:{DEMO_PORT}/_demo/stats"))
    return int(stats["sources"].get("samples", 0))


def polling(feeds: int, interval: int, seconds: int) -> None:
    print(f"== polling: {feeds} feeds every {interval} s across 3 replicas (goal {feeds / interval:.0f} checks/s)")
    # Past the start: every feed's first check, which is the start's work, not the steady state.
    deadline = time.monotonic() + 1800
    while time.monotonic() < deadline:
        done = int(sql("SELECT count(*) FROM feed_leases WHERE checks > 0") or 0)
        if done >= feeds:
            break
        print(f"   first checks: {done}/{feeds}", flush=True)
        time.sleep(10)
    processes = pids()
    watched = {name: pid for name, pid in processes.items() if name.startswith("replica")}
    pg = postgres_pids()
    before = {name: cpu_seconds(pid) for name, pid in watched.items()}
    pg_before = sum(cpu_seconds(pid) for pid in pg)
    commits_before = int(sql("SELECT xact_commit FROM pg_stat_database WHERE datname = 'kiosk'"))
    checks_before = samples_checked()
    started = time.monotonic()
    time.sleep(seconds)
    elapsed = time.monotonic() - started
    checks = samples_checked() - checks_before
    commits = int(sql("SELECT xact_commit FROM pg_stat_database WHERE datname = 'kiosk'")) - commits_before
    pg_now = postgres_pids()
    pg_cpu = sum(cpu_seconds(pid) for pid in pg_now) - pg_before
    print(f"   checks: {checks / elapsed:.0f}/s over {elapsed:.0f} s (goal {feeds / interval:.0f}/s)")
    for name, pid in watched.items():
        print(f"   {name}: CPU {100 * (cpu_seconds(pid) - before[name]) / elapsed:.0f}% of a core")
    print(f"   PostgreSQL: CPU {100 * pg_cpu / elapsed:.0f}% of a core, {commits / elapsed:.0f} transactions/s")
    samples = "feed ~ '^s[0-9]+$'"
    late = sql(f"SELECT count(*) FROM feed_leases WHERE {samples} AND next_due < extract(epoch FROM now()) - 30")
    print(f"   sample feeds overdue by more than 30 s at the end: {late}")
    shares = sql(f"SELECT string_agg(checked_by || ' ' || n, ', ') FROM (SELECT checked_by, count(*) AS n "
                 f"FROM feed_leases WHERE {samples} GROUP BY 1 ORDER BY 1) AS s")
    print(f"   last checked by: {shares}")


async def fanout(pages: int) -> None:
    print(f"== fan-out: one change to {pages} pages spread evenly over 3 replicas")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    title = f"Fanout {time.time_ns()}"
    needle = title.encode()
    arrived: list[float] = []
    connected = 0
    ready = asyncio.Event()

    async def page(port: int) -> None:
        nonlocal connected
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        await writer.drain()
        buffer = b""
        counted = False
        try:
            while True:
                chunk = await reader.read(65536)
                if not chunk:
                    return
                if not counted and b"retry:" in chunk:
                    counted = True
                    connected += 1
                    if connected == pages:
                        ready.set()
                buffer = (buffer + chunk)[-(len(needle) + 65536):]
                if needle in buffer:
                    arrived.append(time.time())
                    return
        finally:
            writer.close()

    # Every replica has read the log to its end (after a burst of first checks that takes a while).
    newest = int(sql("SELECT COALESCE(max(id), 0) FROM live_log"))
    started = time.monotonic()
    for replica in (1, 2, 3):
        while time.monotonic() - started < 900:
            seq = re.search(rb'data-seq="(\d+)"', get(f"http://127.0.0.1:{PORT + replica}/news"))
            if seq and int(seq.group(1)) >= newest:
                break
            time.sleep(1)
    print(f"   replicas read the log to its end (id {newest}) after {time.monotonic() - started:.0f} s")
    tasks = []
    for number in range(pages):
        tasks.append(asyncio.create_task(page(PORT + 1 + number % 3)))
        if len(tasks) % 500 == 0:
            await asyncio.sleep(0.05)
    try:
        await asyncio.wait_for(ready.wait(), 300)
    except asyncio.TimeoutError:
        print(f"   only {connected} of {pages} pages connected")
    print(f"   {connected} pages connected")
    req = urllib.request.Request(
        f"http://127.0.0.1:{DEMO_PORT}/_demo/advance?source=business&title={title.replace(' ', '%20')}", method="POST")
    urllib.request.urlopen(req, timeout=10).read()
    done, pending = await asyncio.wait(tasks, timeout=120)
    for task in pending:
        task.cancel()
    logged = float(sql(
        f"SELECT at FROM live_log WHERE kind = 'changed' AND source = 'business' ORDER BY id DESC LIMIT 1") or 0)
    if not arrived:
        print("   no page got the change")
        return
    delays = sorted(t - logged for t in arrived)
    print(f"   {len(arrived)}/{connected} pages got it; after it was logged: first {delays[0] * 1000:.0f} ms, "
          f"median {delays[len(delays) // 2] * 1000:.0f} ms, last {delays[-1] * 1000:.0f} ms")


def fanout_nio(pages: int) -> None:
    """The fan-out with SwiftNIO clients (`kiosk-bench sse-clients`, a process of its own, the
    streams spread over the three replicas): the time from the change's log row to each page."""
    print(f"== fan-out (NIO clients): one change to {pages} pages spread evenly over 3 replicas")
    # Past the start's first checks (each tells the owner's pages of a feed): every replica has
    # read the log to its end, and it stays put.
    started = time.monotonic()
    newest = -1
    while time.monotonic() - started < 900:
        now = int(sql("SELECT COALESCE(max(id), 0) FROM live_log"))
        if now == newest and all(log_reached(replica, now) for replica in (1, 2, 3)):
            break
        newest = now
        time.sleep(3)
    bench = os.environ.get("KIOSK_BENCH", str(REPO / ".build/release/kiosk-bench"))
    folder = DIR / "nio-clients"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    ports = ",".join(str(PORT + replica) for replica in (1, 2, 3))
    clients = subprocess.Popen([bench, "sse-clients", "--port", str(PORT + 1), "--ports", ports, "--clients", str(pages),
                                "--rounds", "1", "--directory", str(folder), "--timeout", "300"])
    try:
        deadline = time.monotonic() + 600
        while not (folder / "ready.json").exists() and time.monotonic() < deadline and clients.poll() is None:
            time.sleep(0.5)
        time.sleep(0.5)  # written whole
        ready = json.loads((folder / "ready.json").read_text())
        print(f"   {ready['subscribed']} pages connected in {ready['connectSeconds']:.1f} s"
              + (f" ({ready['error']})" if ready.get("error") else ""))
        title = f"Fanout NIO {time.time_ns()}"
        req = urllib.request.Request(
            f"http://127.0.0.1:{DEMO_PORT}/_demo/advance?source=business&title={title.replace(' ', '%20')}", method="POST")
        urllib.request.urlopen(req, timeout=10).read()
        while not (folder / "round-0.json").exists() and time.monotonic() < deadline and clients.poll() is None:
            time.sleep(0.5)
        time.sleep(0.5)
        arrivals = [a for a in json.loads((folder / "round-0.json").read_text())["arrivals"] if a]
        # The clients stamp CLOCK_MONOTONIC, the log row the wall clock: one offset relates them.
        offset = time.time() - time.monotonic()
        logged = float(sql(
            f"SELECT at FROM live_log WHERE kind = 'changed' AND source = 'business' ORDER BY id DESC LIMIT 1") or 0)
        delays = sorted(a / 1e9 + offset - logged for a in arrivals)
        if not delays:
            print("   no page got the change")
            return
        print(f"   {len(delays)}/{ready['subscribed']} pages got it; after it was logged: first {delays[0] * 1000:.0f} ms, "
              f"median {delays[len(delays) // 2] * 1000:.0f} ms, p99 {delays[int(len(delays) * 0.99)] * 1000:.0f} ms, "
              f"last {delays[-1] * 1000:.0f} ms")
    finally:
        clients.terminate()
        clients.wait(timeout=30)


def log_reached(replica: int, newest: int) -> bool:
    seq = re.search(rb'data-seq="(\d+)"', get(f"http://127.0.0.1:{PORT + replica}/news"))
    return bool(seq) and int(seq.group(1)) >= newest


def burst(records: int) -> None:
    print(f"== burst: {records} records appended to the live log at once, then one change of Business")
    newest = int(sql("SELECT COALESCE(max(id), 0) FROM live_log"))
    started = time.monotonic()
    for replica in (1, 2, 3):
        while not log_reached(replica, newest) and time.monotonic() - started < 900:
            time.sleep(1)
    title = f"After the burst {time.time_ns()}"
    needle = title.encode()
    arrived: dict[int, float] = {}
    opened = threading.Barrier(4)

    def page(replica: int) -> None:
        # One open page per replica, straight to it: reads its event stream until the title.
        connection = http.client.HTTPConnection("127.0.0.1", PORT + replica, timeout=900)
        connection.request("GET", "/events", headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        opened.wait()
        tail = b""
        while True:
            chunk = response.read1(65536)
            if not chunk:
                return
            tail = (tail + chunk)[-(len(needle) + 65536):]
            if needle in tail:
                arrived[replica] = time.time()
                return

    readers = [threading.Thread(target=page, args=(replica,), daemon=True) for replica in (1, 2, 3)]
    for reader in readers:
        reader.start()
    opened.wait()
    # Feeds only other users follow (none of the open pages' user), as a burst of first checks
    # of a large installation mostly is; each record says how many entries were new.
    sql(f"INSERT INTO live_log (at, origin, kind, source, json) SELECT extract(epoch FROM now()), 'bench', "
        f"'changed', 'burst-' || g, '{{\"added\":5}}' FROM generate_series(1, {records}) g")
    sql("SELECT pg_notify('kiosk_live', '')")
    appended = time.monotonic()
    burst_end = int(sql("SELECT max(id) FROM live_log"))
    req = urllib.request.Request(
        f"http://127.0.0.1:{DEMO_PORT}/_demo/advance?source=business&title={title.replace(' ', '%20')}", method="POST")
    urllib.request.urlopen(req, timeout=10).read()
    drained: dict[int, float] = {}
    while len(drained) < 3 and time.monotonic() - appended < 900:
        for replica in (1, 2, 3):
            if replica not in drained and log_reached(replica, burst_end):
                drained[replica] = time.monotonic() - appended
        time.sleep(0.2)
    for reader in readers:
        reader.join(timeout=max(1, 900 - (time.monotonic() - appended)))
    logged = float(sql(
        f"SELECT at FROM live_log WHERE kind = 'changed' AND source = 'business' ORDER BY id DESC LIMIT 1") or 0)
    for replica in (1, 2, 3):
        read = f"{drained[replica]:.1f} s" if replica in drained else "not within 900 s"
        got = f"{(arrived[replica] - logged) * 1000:.0f} ms" if replica in arrived else "never"
        print(f"   replica-{replica}: read the burst in {read}; its page had the change {got} after it was logged")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--feeds", type=int, default=100_000)
    parser.add_argument("--interval", type=int, default=300)
    parser.add_argument("--seconds", type=int, default=300)
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--only", choices=["polling", "fanout", "fanout-nio", "burst"])
    args = parser.parse_args()
    if "KIOSK_BIN" not in os.environ:
        sys.exit("set KIOSK_BIN to a release kiosk binary (swift build -c release --product kiosk --scratch-path .build-bench)")
    if (DIR / "pids").exists():
        cluster("stop")
    shutil.rmtree(DIR, ignore_errors=True)  # a fresh database every run
    DIR.mkdir(parents=True, exist_ok=True)
    config = DIR / "feeds.json"
    feeds = [{"id": f"s{n}", "name": f"Sample {n}", "url": f"http://127.0.0.1:{DEMO_PORT}/samples/{n}.xml",
              "intervalSeconds": args.interval} for n in range(args.feeds)]
    config.write_text(json.dumps({"ownerName": "Bench", "sources": {"feeds": feeds}}))
    started = time.monotonic()
    # Every sample feed is on one host, where real feeds are spread over thousands: the per-host
    # cap (32 checks in flight, as one Kiosk) is raised to what the three replicas can run at once.
    cluster("start", "--port", str(PORT), "--db-port", str(DB_PORT), "--demo-port", str(DEMO_PORT),
            "--config", str(config), "--frozen", "--checks-per-host", "192")
    print(f"cluster up in {time.monotonic() - started:.0f} s")
    global DB_URL
    DB_URL = database_url()
    try:
        if args.only in (None, "polling"):
            polling(args.feeds, args.interval, args.seconds)
        if args.only in (None, "fanout"):
            asyncio.run(fanout(args.pages))
        if args.only in (None, "fanout-nio"):
            fanout_nio(args.pages)
        if args.only in (None, "burst"):
            burst(args.records)
    finally:
        cluster("stop")


if __name__ == "__main__":
    main()
