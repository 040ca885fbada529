#!/usr/bin/env python3
"""Warm start benchmark: time from process start to the first full News page, with a populated
database, while the sources are still slow to answer.

    swift build -c release --product kiosk
    scripts/bench-startup.py [--binary .build/release/kiosk] [--runs 7]

It populates a fresh data directory with `kiosk --demo` (the three sample feeds, plus 300
entries added through the sample server, which the store keeps while they are in a feed), stops
it, then starts it again `--runs` times and measures, from just before the process starts:
  - healthz:    the first answer of GET /healthz (the server is listening);
  - first page: the first GET /news?feed=entertainment-environment that lists the stored entries.
The restarts run with the sample feeds at their realistic latencies (hundreds of ms), so a page
that lists entries before they answer shows the store at work, not the sources.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(url: str, timeout: float = 5.0) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:
            return reply.read().decode("utf-8", "replace")
    except OSError:
        return None


def post(url: str) -> None:
    urllib.request.urlopen(urllib.request.Request(url, method="POST", data=b""), timeout=10).read()


def start(binary: str, data: Path, port: int, demo_port: int, log: Path) -> subprocess.Popen[bytes]:
    command = [binary, "--demo", "--demo-frozen", "--port", str(port), "--demo-port", str(demo_port),
               "--data-directory", str(data)]
    with open(log, "ab") as output:
        return subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)


def stop(process: subprocess.Popen[bytes]) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=30)


def entry_count(html: str | None) -> int:
    return len(re.findall(r'class="entry"', html or ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=".build/release/kiosk")
    parser.add_argument("--runs", type=int, default=7)
    arguments = parser.parse_args()
    if not os.access(arguments.binary, os.X_OK):
        print(f"no kiosk binary at {arguments.binary}: swift build -c release --product kiosk", file=sys.stderr)
        return 1
    work = Path(tempfile.mkdtemp(prefix="kiosk-startup-"))
    data, log = work / "data", work / "kiosk.log"
    port, demo_port = free_port(), free_port()
    base, demo = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{demo_port}"
    merged = f"{base}/news?feed=entertainment-environment"

    # Populate.
    process = start(arguments.binary, data, port, demo_port, log)
    try:
        deadline = time.monotonic() + 60
        while entry_count(get(merged)) < 40:
            if time.monotonic() > deadline:
                raise SystemExit("the demo never listed its entries; see " + str(log))
            time.sleep(0.2)
        for index in range(100):
            for feed in ("business", "entertainment", "environment"):
                post(f"{demo}/_demo/advance?source={feed}&title=Stored%20entry%20{index}")
        time.sleep(7)  # one more poll of each feed, written through the store
        expected = entry_count(get(merged))
    finally:
        stop(process)
    size = sum(path.stat().st_size for path in data.rglob("kiosk.sqlite*"))
    print(f"populated: {expected} entries on the merged list, database {size / 1024:.0f} KiB")

    healthz, first_page = [], []
    for _ in range(arguments.runs):
        began = time.monotonic()
        process = start(arguments.binary, data, port, demo_port, log)
        try:
            listening = None
            while True:
                if listening is None and get(f"{base}/healthz", timeout=1) is not None:
                    listening = time.monotonic() - began
                if listening is not None and entry_count(get(merged)) >= expected:
                    first_page.append(time.monotonic() - began)
                    healthz.append(listening)
                    break
                if time.monotonic() - began > 60:
                    raise SystemExit("no full page within 60 s; see " + str(log))
                time.sleep(0.002)
        finally:
            stop(process)

    def line(name: str, values: list[float]) -> str:
        milliseconds = sorted(value * 1000 for value in values)
        return (f"{name:<12} median {statistics.median(milliseconds):7.1f} ms   "
                f"min {milliseconds[0]:7.1f} ms   max {milliseconds[-1]:7.1f} ms")

    print(f"runs: {arguments.runs}")
    print(line("healthz", healthz))
    print(line("first page", first_page))
    print(json.dumps({"entries": expected, "healthz_ms": [round(v * 1000, 1) for v in healthz],
                      "first_page_ms": [round(v * 1000, 1) for v in first_page]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
