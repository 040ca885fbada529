"""A Kiosk without accounts behind a plain reverse proxy on the same machine: haproxy in HTTP mode
without `forwardfor`, and nginx's default `proxy_pass`, which add no X-Forwarded-For and send the
backend's own address as Host. On main the network got the owner's reader through them (200 on
/reader and /settings, 303 on POST /reader/subscribe). Now the owner proves it with the link
printed at start; demo mode alone trusts loopback, and says so.

Real parts: `kiosk` (not demo) reading the sample sources from `kiosk demo-sources`, Debian's
haproxy and nginx, each started here and stopped by PID."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest

import harness
from harness import find, free_port, http, wait_until


class Process:
    """A program started for these tests, stopped by its PID (and its process group)."""

    def __init__(self, name: str, command: list[str], workdir: Path):
        self.name = name
        self.log_path = workdir / f"{name}.log"
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=workdir,
                start_new_session=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for(self, url: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}:\n{self.log()[-3000:]}")
            try:
                if http("GET", url, timeout=2).status < 500:
                    return
            except OSError:
                pass
            time.sleep(0.25)
        raise RuntimeError(f"{self.name} did not answer {url} within {timeout:.0f} s:\n{self.log()[-3000:]}")

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


class Installation:
    def __init__(self, kiosk: Process, port: int, link: str, proxies: dict[str, int]):
        self.kiosk = kiosk
        self.port = port
        self.link = link
        self.proxies = proxies

    def direct(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


def _haproxy_config(port: int, backend: int) -> str:
    # The defaults of `mode http`: no `option forwardfor`, the client's Host passed on.
    return f"""global
    maxconn 200
defaults
    mode http
    timeout connect 5s
    timeout client 30s
    timeout server 30s
frontend kiosk
    bind 127.0.0.1:{port}
    default_backend kiosk
backend kiosk
    server kiosk 127.0.0.1:{backend}
"""


def _nginx_config(port: int, backend: int, folder: Path) -> str:
    # A bare `proxy_pass`, as the guides begin: Host is the backend's address, no forwarded headers.
    return f"""daemon off;
master_process off;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://127.0.0.1:{backend};
        }}
    }}
}}
"""


@pytest.fixture(scope="module")
def installation(workdir: Path) -> Iterator[Installation]:
    for program in ("haproxy", "nginx"):
        if not (shutil.which(program) or Path(f"/usr/sbin/{program}").exists()):
            pytest.fail(f"{program} is not installed: run scripts/install-deps.sh")
    binary = str(harness.kiosk_binary())
    folder = Path(tempfile.mkdtemp(prefix="owner-proxy-", dir=workdir))
    folder.chmod(0o755)
    started: list[Process] = []
    try:
        sample_port = free_port()
        sample = Process("owner-proxy-sources", [binary, "demo-sources", "--port", str(sample_port)], folder)
        started.append(sample)
        sample.wait_for(f"http://127.0.0.1:{sample_port}/_demo/stats")
        base = f"http://127.0.0.1:{sample_port}"
        config = {"sources": {
            "feeds": [{"id": name, "url": f"{base}/reuters/{name}.xml"}
                      for name in ("business", "entertainment", "environment")],
            "factsURL": f"{base}/facts.json",
            "albumsURL": f"{base}/apple/v2/us/music/most-played/100/albums.json",
            "newsAPIBaseURL": f"{base}/newsapi/v2",
            "jokesURL": f"{base}/switter/api/joke",
        }}
        (folder / "config.json").write_text(json.dumps(config))
        port = free_port()
        kiosk = Process("owner-proxy-kiosk", [
            binary, "--host", "127.0.0.1", "--port", str(port), "--data-directory", str(folder / "data"),
            "--config", str(folder / "config.json")], folder)
        started.append(kiosk)
        kiosk.wait_for(f"http://127.0.0.1:{port}/healthz")
        found = re.search(r"open=(http://\S+/owner\?token=[0-9a-f]+)", kiosk.log())
        assert found, "the start-up log gives no owner link:\n" + kiosk.log()[-2000:]

        proxies = {"haproxy": free_port(), "nginx": free_port()}
        (folder / "haproxy.cfg").write_text(_haproxy_config(proxies["haproxy"], port))
        haproxy = Process("owner-proxy-haproxy", ["haproxy", "-f", str(folder / "haproxy.cfg"), "-db"], folder)
        started.append(haproxy)
        for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (folder / sub).mkdir(mode=0o777)
            (folder / sub).chmod(0o777)  # nginx's workers may run as nobody
        (folder / "nginx.conf").write_text(_nginx_config(proxies["nginx"], port, folder))
        nginx_binary = shutil.which("nginx") or "/usr/sbin/nginx"
        nginx = Process("owner-proxy-nginx", [
            nginx_binary, "-e", str(folder / "nginx-error.log"), "-p", str(folder), "-c", str(folder / "nginx.conf")], folder)
        started.append(nginx)
        haproxy.wait_for(f"http://127.0.0.1:{proxies['haproxy']}/healthz")
        nginx.wait_for(f"http://127.0.0.1:{proxies['nginx']}/healthz")
        yield Installation(kiosk, port, found.group(1), proxies)
    finally:
        for process in reversed(started):
            process.stop()


@pytest.mark.parametrize("proxy", ["haproxy", "nginx"])
def test_a_plain_reverse_proxy_does_not_give_the_network_the_owners_reader(installation, proxy):
    base = f"http://127.0.0.1:{installation.proxies[proxy]}"
    for path in ("/reader", "/settings", "/", "/reader/all"):
        reply = http("GET", base + path)
        assert reply.status == 401, f"{proxy} {path}: {reply.status}"
        assert 'data-page="owner-link"' in reply.text, f"{proxy} {path}"
        assert "reader-entry" not in reply.text and "app-password" not in reply.text, f"{proxy} {path}"
    subscribe = http("POST", base + "/reader/subscribe")
    assert subscribe.status in (401, 403), f"{proxy} POST /reader/subscribe: {subscribe.status}"
    # A made-up token is nothing.
    assert http("GET", base + "/owner?token=" + "0" * 64).status == 401


def test_the_owner_opens_kiosk_with_the_printed_link_and_stays_in(phone, installation):
    phone.get(installation.direct("/reader"))
    wait_until(phone, lambda d: harness.page_of(d) == "owner-link", "the page that asks for the link")
    assert "link Kiosk printed" in find(phone, "#owner-link").text
    phone.get(installation.link)
    wait_until(phone, lambda d: harness.page_of(d) == "home", "home, through the link")
    phone.get(installation.direct("/reader"))
    wait_until(phone, lambda d: (harness.page_of(d) or "").startswith("reader"), "the owner's reader")
    cookie = phone.get_cookie("kiosk_owner")
    assert cookie and cookie["httpOnly"] and cookie.get("sameSite") == "Lax"
    # Another browser (no cookie) is still asked for the link.
    assert http("GET", installation.direct("/reader")).status == 401


def test_demo_mode_says_it_trusts_loopback(kiosk):
    log = kiosk.log_path.read_text(errors="replace")
    assert "demo mode: anyone on this machine (loopback) is the owner" in log
    assert "/owner?token=" not in log
