#!/usr/bin/env python3
"""The media proxy's throughput ("Load media through Kiosk") against nginx serving the same file.

Usage: KIOSK_BIN=PATH/TO/kiosk .venv-e2e/bin/python scripts/bench-media-proxy.py [MIB] [ROUNDS]
(builds nothing: give it a release build; MIB of file, 200 by default; ROUNDS, 5)

Starts nginx on loopback serving one file of random bytes, and `kiosk --demo` through the browser
tests' harness with nginx's address configured as a source (so the guard lets it through, as it
does a configured feed's), then downloads the file with curl straight from nginx and through
`/media` (signed with the data directory's key, as the player's page would be), alternating, one
stream at a time and four at once. Prints the median throughput of each and their ratio.
Figures: docs/PERFORMANCE.md.
"""
import hashlib
import hmac
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))
import harness  # noqa: E402

mib = int(sys.argv[1]) if len(sys.argv) > 1 else 200
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def curl(url: str, headers: dict[str, str]) -> tuple[float, int]:
    """Seconds and bytes of one download of `url`."""
    command = ["curl", "-s", "-o", "/dev/null", "-w", "%{time_total} %{size_download} %{http_code}"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    seconds, size, status = subprocess.run(command + [url], capture_output=True, text=True, check=True).stdout.split()
    if status not in ("200", "206"):
        raise RuntimeError(f"{url}: HTTP {status}")
    return float(seconds), int(size)


def throughput(url: str, headers: dict[str, str], streams: int) -> float:
    """MiB/s of `streams` downloads of `url` at once, all bytes over the wall time."""
    start = time.monotonic()
    with ThreadPoolExecutor(streams) as pool:
        results = list(pool.map(lambda _: curl(url, headers), range(streams)))
    elapsed = time.monotonic() - start
    return sum(size for _, size in results) / elapsed / (1 << 20)


work = Path(tempfile.mkdtemp(prefix="kiosk-bench-media-"))
os.chmod(work, 0o755)
www = work / "www"
www.mkdir()
os.chmod(www, 0o755)
with open(www / "episode.mp3", "wb") as file:
    for _ in range(mib):
        file.write(os.urandom(1 << 20))
os.chmod(www / "episode.mp3", 0o644)

nginx_port = free_port()
(work / "nginx.conf").write_text(f"""
{"user root;" if os.geteuid() == 0 else ""}
daemon off; worker_processes 1; pid {work}/nginx.pid; error_log {work}/nginx-error.log;
events {{ worker_connections 64; }}
http {{
  access_log off; sendfile on; types {{ audio/mpeg mp3; }}
  server {{ listen 127.0.0.1:{nginx_port}; root {www}; }}
}}
""")
nginx = subprocess.Popen(["nginx", "-p", str(work), "-c", str(work / "nginx.conf")])
direct = f"http://127.0.0.1:{nginx_port}/episode.mp3"
server = None
try:
    for _ in range(100):
        try:
            curl(direct, {"Range": "bytes=0-0"})
            break
        except (subprocess.CalledProcessError, RuntimeError):
            time.sleep(0.1)
    server = harness.start_server(
        "media-bench", work, sources={"feeds": [{"id": "bench-media", "url": f"http://127.0.0.1:{nginx_port}/feed.xml"}]})
    key = next((work / "data-media-bench").rglob("image-proxy.key")).read_bytes()
    signature = hmac.new(key, b"media\n" + direct.encode(), hashlib.sha256).hexdigest()
    proxied = server.url("/media?" + urllib.parse.urlencode({"u": direct, "s": signature}))
    cookie = {"Cookie": server.cookie} if server.cookie else {}
    assert curl(proxied, cookie)[1] == mib << 20, "the proxy did not pass the whole file"

    figures: dict[str, dict[str, float]] = {}
    for streams in (1, 4):
        nginx_runs, kiosk_runs = [], []
        for _ in range(rounds):
            nginx_runs.append(throughput(direct, {}, streams))
            kiosk_runs.append(throughput(proxied, cookie, streams))
        figures[f"{streams} stream{'s' if streams > 1 else ''}"] = {
            "nginx_MiB_s": round(statistics.median(nginx_runs), 1),
            "kiosk_MiB_s": round(statistics.median(kiosk_runs), 1),
            "kiosk_over_nginx": round(statistics.median(kiosk_runs) / statistics.median(nginx_runs), 3),
        }
    print(json.dumps({"file_MiB": mib, "rounds": rounds, **figures}, indent=1))
finally:
    if server is not None:
        server.stop()
    nginx.terminate()
    nginx.wait(10)
