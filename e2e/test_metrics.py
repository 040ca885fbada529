"""`/metrics` (`kiosk --metrics-port PORT`): Prometheus text on a loopback listener of its own,
with the checks per source, pages by route and status, open event streams and store writes.
Not on the app's port."""

import re
import socket
import subprocess
import time

import pytest

import harness
from harness import KioskServer, free_port, http, open_page, wait_live


@pytest.fixture(scope="module")
def metered(workdir):
    port = free_port()
    settings = {"ownerName": harness.OWNER_NAME, "newsAPIKey": None}
    server = KioskServer("metrics", workdir, settings, ("--metrics-port", str(port))).start()
    server.metrics_url = f"http://127.0.0.1:{port}/metrics"
    server.metrics_port = port
    try:
        yield server
    finally:
        server.stop()


def sample(text, name, **labels):
    """The value of `name{labels…}` (labels in any order), or None."""
    for line in text.splitlines():
        if not (line.startswith(name + "{") or line.startswith(name + " ")):
            continue
        head, _, value = line.rpartition(" ")
        if all(f'{key}="{want}"' in head for key, want in labels.items()):
            return float(value)
    return None


def scrape(server):
    reply = http("GET", server.metrics_url)
    assert reply.status == 200, f"/metrics: HTTP {reply.status}"
    assert reply.headers.get("Content-Type", "").startswith("text/plain; version=0.0.4")
    return reply.text


def test_metrics_count_checks_pages_streams_and_store_writes(metered, phone):
    for _ in range(3):
        assert metered.get("/news").status == 200
    assert metered.get("/no-such-page").status == 404
    open_page(phone, metered, "/news", "news")
    wait_live(phone)
    # The News sources are checked every 5 s: two checks of Business within 30 s at worst.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text = scrape(metered)
        checks = sum(sample(text, "kiosk_source_checks_total", source="business", outcome=o) or 0
                     for o in ("changed", "unchanged", "failed"))
        if checks >= 2:
            break
        time.sleep(1)
    assert checks >= 2, f"Business checks counted: {checks}\n{text}"
    assert (sample(text, "kiosk_source_check_duration_seconds_count", source="business") or 0) >= 2
    assert (sample(text, "kiosk_http_requests_total", route="/news", method="GET", status="200") or 0) >= 4
    assert sample(text, "kiosk_http_requests_total", route="NotFound", status="404") == 1
    assert "no-such-page" not in text, "a path became a label"
    assert (sample(text, "kiosk_sse_clients") or 0) >= 1, "the open page's event stream is not counted"
    assert (sample(text, "kiosk_store_write_duration_seconds_count") or 0) >= 1


def test_metrics_are_not_on_the_apps_port(metered):
    assert metered.get("/metrics").status == 404


def _other_address():
    """An address of this machine that is not loopback, or None."""
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    for address in out.split():
        if re.fullmatch(r"\d+\.\d+\.\d+\.\d+", address) and not address.startswith("127."):
            return address
    return None


def test_metrics_listen_on_loopback_only(metered):
    address = _other_address()
    if address is None:
        pytest.skip("this machine has no address beyond loopback")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(3)
        assert s.connect_ex((address, metered.metrics_port)) != 0, \
            f"/metrics answers on {address}: it must listen on 127.0.0.1 only"
