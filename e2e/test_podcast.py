"""Podcasts and video in the reader: the demo podcast and video feeds (`/sites/podcast/` on the
sample server) are added like any feed; an episode's page shows a player that plays the real
file, skips back 15 s and ahead 30 s, keeps the speed per feed on the device, says what the feed
says of the episode, and plays a file the feed wrote relative to itself; the sample server
answers byte ranges so a player can seek."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

import harness
from harness import TCPProxy, LIVE_WAIT, WAIT, count, find, find_all, http, js, open_page, tap, text_of, wait_until
from test_accessibility import describe, violations

SIZES = ["phone", "tablet"]


def subscribe(driver, server, title):
    """Opens the feed titled `title` from the demo podcast site, subscribing first if needed."""
    open_page(driver, server, "/reader", "reader")
    feeds = js(driver, "return [...document.querySelectorAll('main a.feed')].map(a => [a.innerText, a.href])")
    known = [href for text, href in feeds if text.startswith(title)]
    if known:
        driver.get(known[0])
    else:
        open_page(driver, server, "/reader/add", "reader-add")
        field = find(driver, "#address")
        field.clear()
        field.send_keys(f"{server.demo_url}/sites/podcast/")
        tap(driver, find(driver, "#find-feeds"))
        wait_until(driver, lambda d: count(d, "#candidates article.candidate") == 2, "the podcast site offered no feeds",
                   30)
        candidate = next(c for c in find_all(driver, "#candidates article.candidate")
                         if c.find_element("css selector", ".candidate-title").text == title)
        tap(driver, candidate.find_element("css selector", "button.subscribe"))
    wait_until(driver, lambda d: "/reader/feed/" in d.current_url, f"subscribing to {title} did not open it")
    wait_until(driver, lambda d: count(d, "#reader-list > li.reader-entry") > 0, f"{title} never showed entries",
               LIVE_WAIT)


def open_entry(driver, title):
    def link(d):
        for row in find_all(d, "#reader-list > li.reader-entry"):
            if title in row.find_element("css selector", ".entry-title").text:
                return row.find_element("css selector", "a.entry-link").get_attribute("href")
        return None
    href = wait_until(driver, link, f"no entry titled {title!r}")
    driver.get(href)
    wait_until(driver, lambda d: d.find_element("css selector", "body").get_attribute("data-page") == "reader-entry",
               "the entry page did not open")


def media(driver, script, *args):
    return js(driver, "const m = document.getElementById('player-media'); " + script, *args)


def from_the_start(driver):
    """The episode at 0:00 whatever place the account kept (these tests share one server)."""
    wait_until(driver, lambda d: media(d, "return m.readyState >= 1"), "the episode's length never loaded")
    js(driver, "document.getElementById('player').dataset.resume = '0'")
    media(driver, "m.currentTime = 0")


def start_playing(driver):
    """Taps Play and waits until the episode is heard moving (from wherever it resumes)."""
    start = media(driver, "return m.currentTime")
    tap(driver, find(driver, "#player-play"))
    wait_until(driver, lambda d: media(d, "return !m.paused && m.currentTime > arguments[0] + 0.5", start),
               "the episode never played", WAIT)
    wait_until(driver, lambda d: text_of(d, "#player-play") == "Pause", "Play did not become Pause")
    assert find(driver, "#player-play").get_attribute("aria-pressed") == "true"


@pytest.mark.parametrize("size", SIZES)
def test_an_episode_plays_skips_and_keeps_its_speed(browser, fresh_kiosk, size):
    driver = browser(size)
    subscribe(driver, fresh_kiosk, "Kiosk Demo Podcast")
    open_entry(driver, "Episode 1")

    assert media(driver, "return m.tagName") == "AUDIO"
    assert media(driver, "return m.currentSrc || m.src").endswith("/podcasts/media/episode-1.mp3")
    assert text_of(driver, "#player-facts") == "Season 1 · Episode 1 · 0:19"
    # The player comes before the text, as wide as the page's column.
    assert js(driver, "return document.getElementById('player').compareDocumentPosition("
                      "document.getElementById('entry-description')) & Node.DOCUMENT_POSITION_FOLLOWING") != 0

    found = violations(driver)
    assert not found, "the player's page has accessibility violations:\n" + describe(found)

    start_playing(driver)
    assert media(driver, "return m.duration") == pytest.approx(19.3, abs=0.6)

    media(driver, "m.pause(); m.currentTime = 5;")
    tap(driver, find(driver, "#player-ahead"))
    wait_until(driver, lambda d: media(d, "return m.currentTime") >= media(d, "return m.duration") - 0.3,
               "+30 s did not go to the end of a 19 s episode")
    tap(driver, find(driver, "#player-back"))
    assert media(driver, "return m.currentTime") == pytest.approx(media(driver, "return m.duration") - 15, abs=0.5)
    tap(driver, find(driver, "#player-back"))
    assert media(driver, "return m.currentTime") == pytest.approx(0, abs=0.3)  # not before the start

    js(driver, "const s = document.getElementById('player-speed'); s.value = '1.5';"
               "s.dispatchEvent(new Event('change', {bubbles: true}))")
    assert media(driver, "return m.playbackRate") == 1.5
    driver.refresh()
    wait_until(driver, lambda d: media(d, "return m.playbackRate") == 1.5, "the feed's speed was not kept")
    assert js(driver, "return document.getElementById('player-speed').value") == "1.5"

    # Episode 2's file is written relative to the feed; it plays from the sample server.
    driver.back()
    open_entry(driver, "Episode 2")
    assert media(driver, "return m.src") == f"{fresh_kiosk.demo_url}/podcasts/media/episode-2.opus"
    assert media(driver, "return m.playbackRate") == 1.5  # the same feed's speed
    start_playing(driver)


def test_a_video_plays_in_the_page(phone, fresh_kiosk):
    subscribe(phone, fresh_kiosk, "Kiosk Demo Video")
    open_entry(phone, "Clip 1")
    assert media(phone, "return m.tagName") == "VIDEO"
    assert media(phone, "return m.getAttribute('poster') || ''").startswith("/img?")
    start_playing(phone)
    assert media(phone, "return m.videoWidth") == 320
    width = js(phone, "return document.getElementById('player-media').getBoundingClientRect().width")
    assert 300 <= width <= 390, width


def test_episodes_without_a_player_show_none_and_media_is_served_in_ranges(phone, fresh_kiosk):
    # A News entry has no media: no player.
    open_page(phone, fresh_kiosk, "/reader/feed/business", "reader-list")
    wait_until(phone, lambda d: count(d, "#reader-list > li.reader-entry") > 0, "Business has no entries", LIVE_WAIT)
    phone.get(find_all(phone, "#reader-list > li.reader-entry a.entry-link")[0].get_attribute("href"))
    wait_until(phone, lambda d: count(d, "#entry-description") == 1, "the entry page did not open")
    assert count(phone, "#player") == 0

    url = f"{fresh_kiosk.demo_url}/podcasts/media/episode-1.mp3"
    whole = http("GET", url)
    assert whole.status == 200 and whole.headers.get("Accept-Ranges") == "bytes"
    size = len(whole.body)
    for asked, first, last in (("bytes=0-99", 0, 99), ("bytes=1000-1999", 1000, 1999), ("bytes=-500", size - 500, size - 1)):
        part = http("GET", url, headers={"Range": asked})
        assert part.status == 206, asked
        assert part.headers.get("Content-Range") == f"bytes {first}-{last}/{size}", asked
        assert part.body == whole.body[first:last + 1], asked
    assert http("GET", url, headers={"Range": f"bytes={size}-"}).status == 416


SCREENS = [("news", "news"), ("reader", "reader"), ("facts", "facts"), ("jokes", "jokes"), ("home", "home")]


def playing_state(driver):
    return js(driver, """
        const m = document.querySelector('#player-media');
        return m ? {time: m.currentTime, paused: m.paused, ended: m.ended, kept: m.__e2e === 'kept',
                    docked: !!m.closest('#dock'), same: window.__e2eDocument === 1} : null;""")


@pytest.mark.parametrize("size", SIZES)
def test_playback_goes_on_across_screens_and_back(browser, fresh_kiosk, size):
    driver = browser(size)
    subscribe(driver, fresh_kiosk, "Kiosk Demo Podcast")
    open_entry(driver, "Episode 1")
    js(driver, "const s = document.getElementById('player-speed'); s.value = '0.8';"
               "s.dispatchEvent(new Event('change', {bubbles: true}))")
    from_the_start(driver)
    start_playing(driver)
    js(driver, "window.__e2eDocument = 1; document.getElementById('player-media').__e2e = 'kept'")
    entry_url = driver.current_url

    last = playing_state(driver)["time"]
    advanced = 0
    for tab, page in SCREENS:
        tap(driver, find(driver, f'nav.tabs a[data-tab="{tab}"]'))
        wait_until(driver, lambda d: d.find_element("css selector", "body").get_attribute("data-page") == page,
                   f"the {tab} tab did not open")
        state = playing_state(driver)
        assert state and state["same"], f"{tab}: the document was replaced (the episode stopped)"
        assert state["kept"] and state["docked"], f"{tab}: the episode is not the one in the dock: {state}"
        assert state["ended"] or not state["paused"], f"{tab}: the episode paused: {state}"
        assert state["time"] >= last - 0.05, f"{tab}: the episode went back from {last} to {state['time']}"
        advanced += state["time"] > last
        last = state["time"]
        assert js(driver, "return document.querySelector('#dock .dock-title').textContent") == "Episode 1: A short tour"
        # The dock sits above the tab bar on a phone, in the sidebar on a tablet, over nothing it hides.
        dock = js(driver, "const r = document.getElementById('dock').getBoundingClientRect();"
                          "return [r.left, r.right, r.top, r.bottom, innerWidth, innerHeight]")
        assert 0 <= dock[0] and dock[1] <= dock[4] and dock[3] <= dock[5], dock
        if size == "phone":
            tabs_top = js(driver, "return document.querySelector('nav.tabs').getBoundingClientRect().top")
            assert dock[3] <= tabs_top, (dock, tabs_top)
        else:
            assert dock[1] <= 220, dock
    assert advanced >= 3, "the episode did not keep playing while screens changed"

    # Back goes to the screen before, in place; the episode plays on.
    driver.back()
    wait_until(driver, lambda d: d.find_element("css selector", "body").get_attribute("data-page") == "jokes",
               "Back did not show Jokes again")
    state = playing_state(driver)
    assert state["same"] and state["kept"] and state["time"] >= last - 0.05, state

    # The dock's title goes back to the episode: the same element, in its player again.
    tap(driver, find(driver, "#dock .dock-title"))
    wait_until(driver, lambda d: d.current_url == entry_url, "the dock's title did not open the episode")
    wait_until(driver, lambda d: count(d, "#dock") == 0, "the dock stayed over the episode's own page")
    state = playing_state(driver)
    assert state["same"] and state["kept"] and not state["docked"], state
    assert js(driver, "return document.querySelector('#player #player-media').__e2e") == "kept"

    # Stopped, the episode leaves the dock; links load pages as always.
    tap(driver, find(driver, 'nav.tabs a[data-tab="home"]'))
    wait_until(driver, lambda d: count(d, "#dock") == 1, "no dock on Home")
    tap(driver, find(driver, "#dock-stop"))
    assert count(driver, "#dock") == 0
    tap(driver, find(driver, 'nav.tabs a[data-tab="news"]'))
    wait_until(driver, lambda d: js(d, "return document.body.dataset.page") == "news" and
               js(d, "return window.__e2eDocument === undefined"), "with nothing playing, News was not a new page")


def test_an_episode_that_cannot_play_leaves_navigation_alone(phone, fresh_kiosk):
    subscribe(phone, fresh_kiosk, "Kiosk Demo Podcast")
    open_entry(phone, "Episode 1")
    # The publisher's file is gone.
    media(phone, "m.src = arguments[0]", f"{fresh_kiosk.demo_url}/podcasts/media/gone.mp3")
    tap(phone, find(phone, "#player-play"))
    wait_until(phone, lambda d: media(d, "return !!m.error"), "a missing file raised no error")
    wait_until(phone, lambda d: "cannot be played" in text_of(d, "#player-status"), "the failure was not said")
    js(phone, "window.__e2eDocument = 1")
    tap(phone, find(phone, 'nav.tabs a[data-tab="news"]'))
    wait_until(phone, lambda d: js(d, "return document.body.dataset.page") == "news" and
               js(d, "return window.__e2eDocument === undefined"), "a failed episode kept links in place")
    assert count(phone, "#dock") == 0


def test_chapters_list_jumps_and_follows_playback(phone, fresh_kiosk):
    subscribe(phone, fresh_kiosk, "Kiosk Demo Podcast")
    open_entry(phone, "Episode 1")
    wait_until(phone, lambda d: count(d, "#chapter-list button.chapter") == 3, "the chapters never showed")
    titles = js(phone, "return [...document.querySelectorAll('#chapter-list .chapter')].map(b => b.innerText.replace(/\\s+/g, ' ').trim())")
    assert titles == ["0:00 Welcome", "0:11 Skips and speed", "0:17 Goodbye"], titles
    tap(phone, find_all(phone, "#chapter-list button.chapter")[1])
    wait_until(phone, lambda d: media(d, "return !m.paused && m.currentTime >= 11"), "the chapter did not play from 0:11")
    wait_until(phone, lambda d: js(d, "return document.querySelector('#chapter-list [aria-current=true] .chapter-title')"
                                      "?.textContent") == "Skips and speed", "the playing chapter is not marked")
    # Episode 2 links no chapters: no list.
    phone.back()
    open_entry(phone, "Episode 2")
    assert count(phone, "#chapters") == 0


def test_the_transcript_follows_playback(tablet, fresh_kiosk):
    subscribe(tablet, fresh_kiosk, "Kiosk Demo Podcast")
    open_entry(tablet, "Episode 1")
    wait_until(tablet, lambda d: count(d, "#transcript-lines .transcript-line") == 5, "the transcript never showed")
    from_the_start(tablet)
    start_playing(tablet)
    wait_until(tablet, lambda d: text_of(d, "#transcript-lines [aria-current=true]").startswith("Welcome"),
               "the first line is not marked while it is said")
    tap(tablet, find_all(tablet, "#transcript-lines .transcript-line")[3])
    wait_until(tablet, lambda d: media(d, "return m.currentTime") >= 11, "a line did not seek to its time")
    wait_until(tablet, lambda d: text_of(d, "#transcript-lines [aria-current=true]").startswith("Chapter two"),
               "the marked line did not follow")


def test_an_episode_is_found_by_what_is_said_in_it(phone, fresh_kiosk):
    # "Fifteen" is said in episode 1 (its transcript) and written nowhere in the feed.
    subscribe(phone, fresh_kiosk, "Kiosk Demo Podcast")
    wait_until(None, lambda _: "Episode 1: A short tour" in fresh_kiosk.get("/discover/results?q=fifteen&scope=saved").text,
               "the transcript's words were never searchable", WAIT)
    open_page(phone, fresh_kiosk, "/discover?q=fifteen&scope=saved", "discover")
    wait_until(phone, lambda d: count(d, "li.article.saved") > 0, "the search found nothing")
    titles = [row.text for row in find_all(phone, "li.article.saved .article-title")]
    assert titles == ["Episode 1: A short tour"], titles
    tap(phone, find(phone, "li.article.saved a.article-link"))
    wait_until(phone, lambda d: "/reader/entry/" in d.current_url, "the episode did not open")
    wait_until(phone, lambda d: count(d, "#transcript-lines .transcript-line") == 5, "its transcript never showed")


@pytest.fixture(scope="module")
def proxied_kiosk(workdir: Path) -> Iterator[harness.KioskServer]:
    """A server whose episodes load through Kiosk ("mediaThroughKiosk": the owner follows it)."""
    server = harness.start_server("media-proxy", workdir, mediaThroughKiosk=True)
    try:
        yield server
    finally:
        server.stop()


def test_an_episode_plays_and_seeks_through_kiosk_when_media_loads_through_it(phone, proxied_kiosk):
    subscribe(phone, proxied_kiosk, "Kiosk Demo Podcast")
    open_entry(phone, "Episode 1")
    src = media(phone, "return m.getAttribute('src')")
    assert src.startswith("/media?u="), src
    assert proxied_kiosk.demo_url.split("//")[1] not in media(phone, "return m.currentSrc").split("?")[0]
    from_the_start(phone)
    start_playing(phone)
    # Seeking asks the proxy for a range of the file, which it passes on to the publisher.
    media(phone, "m.currentTime = m.duration - 2")
    wait_until(phone, lambda d: media(d, "return !m.seeking && m.currentTime >= m.duration - 2.2"),
               "seeking near the end through Kiosk did not land")
    wait_until(phone, lambda d: media(d, "return m.ended || (!m.paused && m.readyState >= 3)"),
               "the episode did not go on playing after the seek")

    direct = http("GET", f"{proxied_kiosk.demo_url}/podcasts/media/episode-1.mp3").body
    size = len(direct)
    for asked, first, last in (("bytes=0-99", 0, 99), ("bytes=1000-1999", 1000, 1999), ("bytes=-500", size - 500, size - 1)):
        part = http("GET", proxied_kiosk.url(src), headers={"Range": asked, **owner(proxied_kiosk)})
        assert part.status == 206, asked
        assert part.headers.get("Content-Range") == f"bytes {first}-{last}/{size}", asked
        assert part.body == direct[first:last + 1], asked
    # Not an open proxy: the same file with another signature is refused.
    assert http("GET", proxied_kiosk.url(src[:-4] + "0000"), headers=owner(proxied_kiosk)).status == 403


def owner(server) -> dict[str, str]:
    return {"Cookie": server.cookie} if server.cookie else {}


def saved_media(driver) -> list[str]:
    driver.set_script_timeout(30)
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        caches.open("kiosk-media-v1").then(c => c.keys()).then(keys => done(keys.map(k => k.url)), () => done([]));""")


def test_a_saved_episode_plays_and_seeks_without_the_network(phone, fresh_kiosk):
    from test_offline import controlled
    subscribe(phone, fresh_kiosk, "Kiosk Demo Podcast")
    open_entry(phone, "Episode 2")
    path = phone.current_url.replace(fresh_kiosk.url(""), "")
    # The app as installed from an address the test can cut.
    proxy = TCPProxy(fresh_kiosk.port)
    try:
        phone.get(proxy.url(path))
        controlled(phone)
        # Straight from the publisher by default; the saved copy comes through Kiosk.
        offline_src = js(phone, "return document.getElementById('player').dataset.offlineSrc")
        assert offline_src.startswith("/media?u=")
        assert media(phone, "return m.getAttribute('src')").startswith(fresh_kiosk.demo_url)
        button = wait_until(phone, lambda d: [b for b in find_all(d, "#player-offline") if b.is_displayed()],
                            "no Save for offline")[0]
        # More than the space Settings allows on this device: refused, saying why.
        js(phone, "localStorage.setItem('kiosk-media-limit-mb', '0.001')")
        tap(phone, button)
        wait_until(phone, lambda d: "Not enough room" in text_of(d, "#player-status"), "an episode over the limit was saved")
        assert saved_media(phone) == []
        js(phone, "localStorage.removeItem('kiosk-media-limit-mb')")
        tap(phone, button)
        wait_until(phone, lambda d: text_of(d, "#player-offline") == "Saved for offline", "the episode was not saved")
        assert find(phone, "#player-offline").get_attribute("aria-pressed") == "true"
        assert sorted(saved_media(phone)) == sorted([proxy.url(offline_src), proxy.url(path)])

        # Settings says what saved episodes take, of the space allowed.
        open_page(phone, proxy, "/settings", "settings")
        wait_until(phone, lambda d: text_of(d, "#media-used").startswith("Saved episodes on this device: 1 ("),
                   "Settings does not say what saved episodes take")
        assert text_of(phone, "#media-used").endswith("of 500 MB)")

        proxy.cut()
        phone.get(proxy.url(path))
        wait_until(phone, lambda d: media(d, "return m ? m.getAttribute('src') : ''") == offline_src,
                   "the saved episode's page did not play the copy on the device")
        from_the_start(phone)
        start_playing(phone)
        # Seeking asks a range of the copy, which the service worker answers.
        media(phone, "m.currentTime = m.duration - 2")
        wait_until(phone, lambda d: media(d, "return !m.seeking && m.currentTime >= m.duration - 2.2"),
                   "seeking without a network did not land")
        wait_until(phone, lambda d: media(d, "return m.ended || (!m.paused && m.currentTime > m.duration - 1.9)"),
                   "the episode did not play on after the seek without a network")
        assert media(phone, "return m.error") is None
        proxy.restore()

        # Tapping again removes it from the device.
        phone.get(proxy.url(path))
        button = wait_until(phone, lambda d: [b for b in find_all(d, "#player-offline") if b.is_displayed()],
                            "no Saved for offline")[0]
        wait_until(phone, lambda d: text_of(d, "#player-offline") == "Saved for offline", "not shown as saved")
        tap(phone, button)
        wait_until(phone, lambda d: text_of(d, "#player-offline") == "Save for offline", "the copy was not removed")
        assert saved_media(phone) == []
    finally:
        proxy.close()


def test_a_feed_keeps_its_next_unplayed_episodes_on_the_device(phone, workdir):
    server = harness.start_server("keep-episodes", workdir)
    try:
        subscribe(phone, server, "Kiosk Demo Podcast")
        feed_path = phone.current_url.replace(server.url(""), "")
        open_page(phone, server, feed_path + "/settings", "reader-settings")
        box = wait_until(phone, lambda d: [b for b in find_all(d, "#feed-keep-episodes") if b.is_displayed()],
                         "no Keep the next 3 unplayed episodes")[0]
        tap(phone, box)
        wait_until(phone, lambda d: text_of(d, "#keep-episodes-status") == "2 episodes kept on this device",
                   "the feed's unplayed episodes were not kept")
        kept = saved_media(phone)
        assert len([url for url in kept if "/media?" in url]) == 2, kept
        assert len([url for url in kept if "/reader/entry/" in url]) == 2, kept

        # Opening an episode reads it but does not play it: still kept. Marked played, it goes.
        phone.get(server.url(feed_path))
        open_entry(phone, "Episode 1")
        wait_until(phone, lambda d: text_of(d, "#toggle-read") == "Mark unread", "opening did not read the episode")
        assert len(http("GET", server.url(feed_path + "/episodes.json"), headers=owner(server)).json()["episodes"]) == 2
        tap(phone, find(phone, "#player-played"))
        wait_until(phone, lambda d: text_of(d, "#player-status") == "Marked as played", "Mark as played did not say so")
        wait_until(phone, lambda d: len(http("GET", server.url(feed_path + "/episodes.json"), headers=owner(server))
                                        .json()["episodes"]) == 1, "the played episode is still listed to keep")
        open_page(phone, server, feed_path + "/settings", "reader-settings")
        box = wait_until(phone, lambda d: [b for b in find_all(d, "#feed-keep-episodes") if b.is_displayed()],
                         "no Keep the next 3 unplayed episodes")[0]
        tap(phone, box)  # off: what it kept goes
        wait_until(phone, lambda d: text_of(d, "#keep-episodes-status") == "No episodes of this feed kept on this device",
                   "turning it off did not say so")
        assert saved_media(phone) == []
        tap(phone, box)
        wait_until(phone, lambda d: text_of(d, "#keep-episodes-status") == "1 episode kept on this device",
                   "the played episode was kept again")
    finally:
        server.stop()
