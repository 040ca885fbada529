"""The store loses nothing: kill -9 the server while its sources change every second, restart it,
and every entry that was announced to clients before the kill is still there; SQLite's
integrity check says ok; the last opened headline survives too.

No browser here: an SSE client (urllib) records what was announced, as a page would."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import harness

FEEDS = ("business", "entertainment", "environment")
LISTS = {"business": "business", "entertainment+environment": "entertainment-environment"}


class Announcements:
    """Reads `/events` in a thread and keeps, per list, the keys of the list the last `changed`
    event leads to."""

    def __init__(self, url: str):
        self.lists: dict[str, set[str]] = {}
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, args=(url,), daemon=True)
        self.thread.start()

    def _read(self, url: str) -> None:
        event = None
        try:
            with urllib.request.urlopen(url, timeout=120) as stream:
                for raw in stream:
                    line = raw.decode("utf-8", "replace").rstrip("\n")
                    if line.startswith("event: "):
                        event = line[len("event: "):]
                    elif line.startswith("data: ") and event == "changed":
                        message = json.loads(line[len("data: "):])
                        if message.get("diff") is not None:
                            # A change is sent as a diff whose `order` is every key of the new list.
                            keys = {key for key in message["diff"]["order"] if re.fullmatch(r"[0-9a-f]+", key)}
                            with self.lock:
                                self.lists[message["source"]] = keys
        except OSError:
            pass  # the server was killed

    def snapshot(self) -> dict[str, set[str]]:
        with self.lock:
            return {source: set(keys) for source, keys in self.lists.items()}


def test_kill_9_loses_no_announced_entry(workdir: Path) -> None:
    server = harness.start_server("crash", workdir, frozen=True)
    data = workdir / "data-crash" / "demo"  # demo mode keeps its data in <data-directory>/demo
    try:
        announcements = Announcements(server.url("/events?since=0"))
        # Something to remember as "last opened".
        wait_for(lambda: "data-key=" in server.get("/news").text, "the first Business list")
        first = re.search(r'href="(/news/business/[0-9a-f]+)"', server.get("/news").text)
        assert first, "no Business entry link"
        detail = server.get(first.group(1))
        assert detail.status == 200
        opened_title = re.search(r'<h1 id="entry-title">(.*?)</h1>', detail.text).group(1)
        # What the page's script sends once it is open (the GET itself records nothing).
        request = urllib.request.Request(
            server.url("/opened"), method="POST", data=("path=" + first.group(1)).encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded"})
        with urllib.request.urlopen(request, timeout=30) as reply:
            assert reply.status == 204

        # Sources change every second while clients are told.
        for second in range(10):
            for feed in FEEDS:
                server.advance(feed, title=f"Crash test {feed} {second}")
            time.sleep(1)
        announced = announcements.snapshot()
        assert set(LISTS) <= set(announced), f"announced lists: {sorted(announced)}"
        assert any(len(keys) > 20 for keys in announced.values()), "the new entries were never announced"
    finally:
        process = server.process
        assert process is not None
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        server.process = None

    with sqlite3.connect(data / "kiosk.sqlite") as database:
        assert database.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    # Restart over the same data, its sources unreachable: what it shows comes from the store alone.
    restarted = _restart_offline(workdir, data)
    try:
        for source, feed in LISTS.items():
            page = restarted.get(f"/news?feed={feed}").text
            shown = set(re.findall(r'data-key="([0-9a-f]+)"', page))
            missing = announced[source] - shown
            assert not missing, f"{source}: {len(missing)} announced entries lost: {sorted(missing)[:5]}"
        home = restarted.get("/").text
        assert f'id="last-opened" href="{first.group(1)}" aria-live="polite">{opened_title}<' in home
    finally:
        restarted.stop()


def _restart_offline(workdir: Path, data: Path) -> harness.KioskServer:
    """`kiosk` (not demo) on the same data directory, every feed pointing at a closed port."""
    dead = f"http://127.0.0.1:{harness.free_port()}"
    config = {
        "ownerName": harness.OWNER_NAME,
        "sources": {"feeds": [{"id": feed, "url": f"{dead}/{feed}.xml"} for feed in FEEDS]},
    }
    server = harness.KioskServer("crash-restarted", workdir, config)
    config_path = workdir / "config-crash-restarted.json"
    config_path.write_text(json.dumps(config))
    command = [
        str(harness.kiosk_binary()), "--host", "127.0.0.1", "--port", str(server.port),
        "--data-directory", str(data), "--config", str(config_path),
    ]
    with open(server.log_path, "wb") as log:
        server.process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    wait_for(lambda: _answers(server), "the restarted server's /healthz", timeout=60)
    server.open_as_owner()  # not demo: the owner comes in by the link it printed
    return server


def wait_for(condition, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def _answers(server: harness.KioskServer) -> bool:
    try:
        return server.get("/healthz").status == 200
    except OSError:
        return False
