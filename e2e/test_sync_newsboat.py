"""newsboat (Debian's package), a real Google Reader API client, syncing with Kiosk.

newsboat's `urls-source "feedhq"` backend signs in with ClientLogin, lists the subscriptions,
reads each feed as Atom (`/reader/atom/feed%2F...`) with read state as category labels, and
sends `edit-tag` / `mark-all-as-read` when the user reads. These tests run it for real: the
account is added with `kiosk user add` while the server runs, newsboat's unread count must match
the API's, and read state set on either side must show on the other. The interactive part is
driven through tmux, as a person would use newsboat in a terminal.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.keys import Keys

import harness
from harness import KioskServer

NAME = "reader"
PASSWORD = "correct horse battery"

pytestmark = pytest.mark.skipif(
    shutil.which("newsboat") is None or shutil.which("tmux") is None,
    reason="newsboat and tmux are installed by scripts/install-deps.sh",
)


class GoogleReader:
    """A small client of Kiosk's Google Reader API (what the assertions compare with)."""

    def __init__(self, base: str, name: str, password: str):
        self.base = base
        reply = self._request("POST", "/accounts/ClientLogin", {"Email": name, "Passwd": password}, auth=False)
        self.auth = next(line[5:] for line in reply.splitlines() if line.startswith("Auth="))
        self.token = self._request("GET", "/reader/api/0/token")

    def _request(self, method: str, path: str, fields: dict[str, str] | None = None, auth: bool = True) -> str:
        data = urllib.parse.urlencode(fields or {}).encode() if method == "POST" else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if auth:
            request.add_header("Authorization", f"GoogleLogin auth={self.auth}")
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.read().decode()

    def unread(self) -> int:
        counts = json.loads(self._request("GET", "/reader/api/0/unread-count?output=json"))["unreadcounts"]
        return next(row["count"] for row in counts if row["id"] == "user/-/state/com.google/reading-list")

    def contents(self, stream: str, count: int = 40) -> list[dict]:
        path = f"/reader/api/0/stream/contents/{urllib.parse.quote(stream, safe='')}?n={count}&output=json"
        return json.loads(self._request("GET", path))["items"]

    def mark_feed_read(self, stream: str) -> None:
        assert self._request("POST", "/reader/api/0/mark-all-as-read", {"s": stream, "T": self.token}) == "OK"

    def tags(self) -> list[dict]:
        return json.loads(self._request("GET", "/reader/api/0/tag/list?output=json"))["tags"]

    def add_tag(self, item: str, tag: str) -> None:
        assert self._request("POST", "/reader/api/0/edit-tag", {"i": item, "a": tag, "T": self.token}) == "OK"


@pytest.fixture(scope="module")
def synced(workdir: Path):
    # Frozen sample feeds: nothing new arrives while the two sides are compared.
    server = harness.start_server("sync-newsboat", workdir, frozen=True)
    try:
        # Added while the server runs, with the same flags, so it finds the same database.
        add = subprocess.run(
            [str(harness.kiosk_binary()), "user", "add", NAME, "--password-stdin", "--demo",
             "--data-directory", str(workdir / "data-sync-newsboat")],
            input=(PASSWORD + "\n").encode(), capture_output=True, timeout=60)
        assert add.returncode == 0, add.stderr.decode()
        home = workdir / "newsboat-home"
        home.mkdir(exist_ok=True)
        (home / "password").write_text(PASSWORD + "\n")
        (home / "urls").write_text("")
        (home / "config").write_text(
            f'urls-source "feedhq"\n'
            f'feedhq-url "{server.base_url}/api/greader"\n'
            f'feedhq-login "{NAME}"\n'
            f'feedhq-passwordfile "{home / "password"}"\n'
            "feedhq-show-special-feeds no\n"
            "feedhq-min-items 100\n")
        # Within a second the running server knows the account exists.
        deadline = time.monotonic() + harness.WAIT
        while True:
            try:
                api = GoogleReader(server.base_url + "/api/greader", NAME, PASSWORD)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        # Every sample feed checked once, so both sides count the same entries.
        deadline = time.monotonic() + harness.LIVE_WAIT
        while api.unread() < 60 and time.monotonic() < deadline:
            time.sleep(0.5)
        yield server, api, home
    finally:
        server.stop()


def newsboat_unread(home: Path) -> int:
    """`newsboat -x reload print-unread`: sync, then say how many are unread."""
    result = subprocess.run(
        ["newsboat", "-C", str(home / "config"), "-u", str(home / "urls"), "-c", str(home / "cache.db"),
         "-x", "reload", "print-unread"],
        capture_output=True, timeout=120, env={"HOME": str(home), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr.decode() + result.stdout.decode()
    line = result.stdout.decode().strip().splitlines()[-1]
    assert line.endswith("unread articles"), line
    return int(line.split()[0])


def test_newsboat_counts_what_the_api_counts(synced):
    _, api, home = synced
    assert api.unread() == 60
    assert newsboat_unread(home) == api.unread()


def test_a_feed_marked_read_through_the_api_is_read_in_newsboat(synced):
    _, api, home = synced
    before = newsboat_unread(home)
    api.mark_feed_read("feed/entertainment")
    assert api.unread() == before - 20
    assert newsboat_unread(home) == before - 20


def test_an_article_read_in_newsboat_is_read_on_the_server(synced):
    _, api, home = synced
    newsboat_unread(home)
    before = api.unread()
    session = f"kiosk-newsboat-{int(time.time())}"
    command = (
        f"HOME={home} TERM=xterm newsboat -C {home / 'config'} -u {home / 'urls'} -c {home / 'cache.db'}")
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40", command], check=True)
    try:
        screen = wait_for_screen(session, "Your feeds")
        assert "Business" in screen
        send(session, "Enter")  # open the first feed (Business)
        wait_for_screen(session, "Articles in feed")
        send(session, "Enter")  # open its first article: newsboat marks it read and tells the server
        wait_for_screen(session, "Article '")
        # Back out and quit: newsboat sends what was read (edit-tag) by the time it exits.
        for _ in range(3):
            send(session, "q")
            time.sleep(0.3)
        deadline = time.monotonic() + harness.WAIT
        while api.unread() != before - 1 and time.monotonic() < deadline:
            time.sleep(0.25)
        assert api.unread() == before - 1
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


# Subheadings only the demo's business article pages hold (DemoArticleText), never a summary.
ARTICLE_ONLY = ("What analysts expect", "A test for the board", "The numbers behind it")


def sign_in(driver, server: KioskServer, path: str, page: str) -> None:
    """Opens `path` in `driver` as the account's owner, through the sign-in page."""
    driver.delete_all_cookies()
    driver.get(server.url(path))
    harness.wait_until(driver, lambda d: harness.page_of(d) == "login", "the sign-in page")
    harness.find(driver, "#login-name").send_keys(NAME)
    harness.find(driver, "#login-password").send_keys(PASSWORD)
    harness.tap(driver, harness.find(driver, "#login-submit"))
    harness.wait_until(driver, lambda d: harness.page_of(d) == page, f"{path} after signing in")


def test_show_full_articles_set_in_the_browser_reaches_the_api_and_newsboat(synced, phone):
    server, api, home = synced
    assert not any(mark in item["summary"]["content"] for item in api.contents("feed/business") for mark in ARTICLE_ONLY)

    # The feed's setting, ticked in Chromium by the account's owner.
    sign_in(phone, server, "/reader/feed/business/settings", "reader-settings")
    box = harness.find(phone, "#feed-full-articles")
    assert not box.is_selected()
    harness.tap(phone, box)
    harness.tap(phone, harness.find(phone, "#save-settings"))
    harness.wait_until(phone, lambda d: "saved=1" in d.current_url, "the setting was not saved")
    assert harness.find(phone, "#feed-full-articles").is_selected()

    # The background pass fetches the articles at once (not at the next minute): the API serves
    # the whole article as the items' content...
    def full_items() -> list[dict]:
        return [item for item in api.contents("feed/business")
                if any(mark in item["summary"]["content"] for mark in ARTICLE_ONLY)]
    deadline = time.monotonic() + harness.LIVE_WAIT
    while len(full_items()) < 5 and time.monotonic() < deadline:
        time.sleep(0.5)
    assert len(full_items()) >= 5, "the API does not serve the full articles"
    item = full_items()[0]
    assert "Advertisement" not in item["summary"]["content"] and "Sign in to comment" not in item["summary"]["content"]

    # ... a real client shows it (newsboat keeps what it shows in its cache) ...
    newsboat_unread(home)
    with sqlite3.connect(home / "cache.db") as cache:
        contents = [row[0] or "" for row in cache.execute("SELECT content FROM rss_item")]
    assert any(mark in content for content in contents for mark in ARTICLE_ONLY), "newsboat did not get the article"

    # ... and the browser opens the feed's entries on their article.
    harness.open_page(phone, server, "/reader/feed/business", "reader-list")
    harness.tap(phone, harness.find(phone, "#reader-list li.reader-entry a.entry-link"))
    harness.wait_until(phone, lambda d: harness.find_all(d, "#entry-article"), "the entry does not open on its article")
    assert harness.find(phone, "#article-toggle").text.strip() == "Summary"


def test_a_label_put_on_in_the_browser_is_an_item_tag_for_a_sync_client_and_back(synced, phone):
    server, api, _ = synced
    sign_in(phone, server, "/reader/feed/environment?show=all", "reader-list")
    harness.wait_live(phone)
    row = harness.find(phone, "#reader-list > li.reader-entry")
    entry_id, title = row.get_attribute("data-id"), harness.text_of(phone, "#reader-list > li.reader-entry .entry-title")
    label = f"Keep {harness.token()[:4]}"
    harness.tap(phone, row.find_element("css selector", "[data-label-ask]"))
    harness.wait_until(phone, lambda d: harness.is_shown(d, "#label-dialog"), "the label dialog did not open")
    harness.find(phone, "#label-dialog-form-name").send_keys(label + Keys.ENTER)
    chips = f'ul.label-chips[data-labels-for="{entry_id}"] .label-chip'
    harness.wait_until(phone, lambda d: [c.get_attribute("data-label") for c in harness.find_all(d, chips)] == [label],
                       "the label was not put on")

    # The client lists it as a tag (not a folder), its stream has the entry, the item carries it.
    tag = f"user/-/label/{label}"
    assert {"id": tag, "type": "tag"} in [{"id": t["id"], "type": t.get("type")} for t in api.tags()], api.tags()
    items = api.contents(tag)
    assert [item["title"] for item in items] == [title], items
    assert tag in items[0]["categories"], items[0]["categories"]

    # A tag the client adds shows on the open page, live.
    api.add_tag(items[0]["id"], "user/-/label/From the app")
    harness.wait_until(phone, lambda d: {c.get_attribute("data-label") for c in harness.find_all(d, chips)}
                       == {label, "From the app"}, "the client's tag never showed in the browser", harness.LIVE_WAIT)


def send(session: str, key: str) -> None:
    subprocess.run(["tmux", "send-keys", "-t", session, key], check=True)


def wait_for_screen(session: str, text: str) -> str:
    deadline = time.monotonic() + harness.WAIT
    screen = ""
    while time.monotonic() < deadline:
        screen = subprocess.run(
            ["tmux", "capture-pane", "-t", session, "-p"], capture_output=True, check=True).stdout.decode()
        if text in screen:
            return screen
        time.sleep(0.25)
    raise AssertionError(f"newsboat never showed {text!r}; the screen was:\n{screen}")
