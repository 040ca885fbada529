"""Screenshots of every screen on a phone and a tablet (run by scripts/screenshots.sh).

Starts `kiosk --demo --demo-frozen` through the test harness (the sample feeds never change by
themselves), makes every sample source answer at once (so pages are complete when shot), and
writes `<device>-<screen>.png` into docs/screenshots/. Only Home's clock differs between runs.
"""

from __future__ import annotations

import argparse
import re
import sys
import urllib.request
import tempfile
import time
from pathlib import Path

import harness
from harness import KioskServer, WebDriver, find_all, js, open_page, wait_until

VISIBLE_IMAGES_SETTLED = """
    return [...document.images].filter(i => {
        const r = i.getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight && r.width > 0;
    }).every(i => i.classList.contains('is-broken') || (i.complete && (!i.getAttribute('src') || i.naturalWidth > 0)));
"""


def first_href(driver: WebDriver, server: KioskServer, path: str, page: str, css: str) -> str:
    open_page(driver, server, path, page)
    return wait_until(driver, lambda d: js(d, "const a = document.querySelector(arguments[0]); "
                                              "return a ? a.getAttribute('href') : null", css), f"no {css}")


def screens(driver: WebDriver, server: KioskServer) -> list[tuple[str, str, str]]:
    """(file name part, path, data-page) of every screen."""
    news = first_href(driver, server, "/news", "news", "#news-list a.entry-link")
    article = first_href(driver, server, "/discover", "discover", "#articles a.article-link")
    album = first_href(driver, server, "/albums", "albums", "#albums li.album a[href^='/albums/']")
    entry = first_href(driver, server, "/reader/feed/business", "reader-list", "#reader-list a.entry-link")
    episode = first_href(driver, server, "/reader/folder/Podcasts", "reader-list", "#reader-list a.entry-link")
    return [
        ("reader", "/reader", "reader"),
        ("reader-folder", "/reader/folder/News", "reader-list"),
        ("reader-entry", entry, "reader-entry"),
        ("reader-article", entry + "/article", "reader-entry"),
        ("reader-episode", episode, "reader-entry"),
        # The same episode playing on in the dock, over Reader's list (see main()).
        ("reader-dock", episode, "reader-entry"),
        ("reader-add", "/reader/add", "reader-add"),
        ("reader-settings", "/reader/feed/business/settings", "reader-settings"),
        ("reader-opml", "/reader/opml", "reader-opml"),
        ("reader-rules", "/reader/rules", "reader-rules"),
        ("reader-rule-form", "/reader/rules/new?query=storm+OR+flooding+-sport&scope=all&star=on&label=Weather&notify=on",
         "reader-rule-form"),
        ("home", "/", "home"),
        ("news", "/news", "news"),
        ("news-merged", "/news?feed=entertainment-environment", "news"),
        ("news-detail", news, "news-detail"),
        ("discover", "/discover", "discover"),
        ("discover-detail", article, "discover-detail"),
        ("facts", "/facts", "facts"),
        ("jokes", "/jokes", "jokes"),
        ("albums", "/albums", "albums"),
        ("albums-detail", album, "album-detail"),
        ("offline", "/offline", "offline"),
        ("not-found", "/no-such-page", "not-found"),
    ]


READER_OPML = """<?xml version="1.0"?><opml version="2.0"><head><title>Mine</title></head><body>
<outline text="Tech"><outline text="Wire: business" xmlUrl="{demo}/reuters/business.xml?shot=1"/>
<outline text="Wire: culture" xmlUrl="{demo}/reuters/entertainment.xml?shot=1"/></outline>
<outline text="Planet"><outline text="Climate desk" xmlUrl="{demo}/reuters/environment.xml?shot=1"/></outline>
<outline text="Podcasts"><outline text="Kiosk Demo Podcast" xmlUrl="{demo}/podcasts/kiosk-demo.xml"/></outline>
</body></opml>"""


def post(server: KioskServer, path: str, body: bytes, content_type: str) -> None:
    request = urllib.request.Request(server.url(path), data=body, method="POST",
                                     headers={"Content-Type": content_type, "Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        reply.read()


def prepare_reader(server: KioskServer) -> None:
    """Folders from an OPML file, a few entries read and one starred, two rules, as a reader's would be."""
    post(server, "/reader/import", READER_OPML.format(demo=server.demo_url).encode(), "text/x-opml")
    deadline = time.monotonic() + 30
    ids: list[str] = []
    while time.monotonic() < deadline and len(ids) < 4:
        ids = re.findall(r'data-id="(\d+)"', server.get("/reader/feed/business").text)
        time.sleep(0.5)
    if len(ids) >= 4:
        post(server, "/reader/read", f"ids={ids[1]},{ids[3]}&read=true".encode(), "application/x-www-form-urlencoded")
        post(server, "/reader/star", f"ids={ids[2]}&starred=true".encode(), "application/x-www-form-urlencoded")
    # Two rules, one of them paused.
    post(server, "/reader/rules", b"name=Storms+and+floods&query=storm+OR+flooding&scope=all&star=on",
         "application/x-www-form-urlencoded")
    post(server, "/reader/rules", b"name=No+awards+gossip&query=intitle%3A%2F%28Grammy%7COscar%29%2F&scope=all&read=on&paused=on",
         "application/x-www-form-urlencoded")
    time.sleep(2)  # the imported feeds' first checks


def settle(driver: WebDriver, page: str) -> None:
    """Waits until the screen is complete: live stream open, a joke told, visible images in."""
    if page in ("home", "news", "news-detail"):
        try:
            harness.wait_live(driver, timeout=10)
        except AssertionError:
            pass
    if driver.find_elements("css selector", "#player-play"):
        # An episode playing: the Pause button and the time left (the clock differs between runs).
        driver.find_element("css selector", "#player-play").click()
        wait_until(driver, lambda d: js(d, "return document.getElementById('player-media').currentTime > 2"),
                   "the episode did not play", timeout=15)
    if page == "jokes":
        buttons = find_all(driver, "#joke-button")
        if buttons:
            buttons[0].click()
            wait_until(driver, lambda d: harness.text_of(d, "#joke-text"), "no joke", timeout=15)
    time.sleep(0.4)  # lazy images start once they are observed in view
    try:
        wait_until(driver, lambda d: js(d, VISIBLE_IMAGES_SETTLED), "images", timeout=10)
    except AssertionError:
        pass
    time.sleep(0.3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=str(harness.REPO / "docs" / "screenshots"))
    parser.add_argument("--devices", default="phone,tablet", help="comma-separated, from " + ", ".join(harness.SIZES))
    parser.add_argument("--scale", type=float, default=1.0, help="device pixel ratio of the PNGs")
    arguments = parser.parse_args()
    out = Path(arguments.out)
    out.mkdir(parents=True, exist_ok=True)

    with tempfile.TemporaryDirectory(prefix="kiosk-shots-") as work:
        server = harness.start_server("screenshots", Path(work), frozen=True)
        try:
            server.quick(0)
            prepare_reader(server)
            for device in arguments.devices.split(","):
                driver = harness.make_driver(device, scale=arguments.scale)
                try:
                    for name, path, page in screens(driver, server):
                        open_page(driver, server, path, page)
                        if name == "reader-add":
                            field = driver.find_element("css selector", "#address")
                            field.send_keys(f"{server.demo_url}/sites/reuters/")
                            driver.find_element("css selector", "#find-feeds").click()
                            wait_until(driver, lambda d: find_all(d, "#candidates article"), "no candidates", timeout=20)
                        settle(driver, page)
                        if name == "reader-dock":
                            driver.find_element("css selector", 'nav.tabs a[data-tab="reader"]').click()
                            wait_until(driver, lambda d: js(d, "return document.body.dataset.page") == "reader"
                                       and js(d, "return !!document.getElementById('dock')"), "no dock over Reader")
                            time.sleep(0.5)
                        target = out / f"{device}-{name}.png"
                        driver.save_screenshot(str(target))
                        print(target)
                finally:
                    driver.quit()
        except Exception:
            print(server.log_tail(), file=sys.stderr)
            raise
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
