"""Top Albums `/albums` and `/albums/<id>`: 100 albums, lazy thumbnails, the detail page and the
placement of its Apple Music button at every size."""

import re
import time

import pytest

from harness import (
    SIZE_NAMES, count, find, find_all, http, js, open_page, resource_names, tap, text_of, wait_until,
)

CHART_PATH = "/apple/v2/us/music/most-played/100/albums.json"


def album_links(driver):
    return js(driver, "return [...document.querySelectorAll('#albums li.album a[href^=\"/albums/\"]')]"
                      ".map(a => a.getAttribute('href'))")


def album_url(server, album_id):
    """The album's URL in the demo chart the server reads."""
    chart = http("GET", server.demo_url + CHART_PATH).json()
    for album in chart["feed"]["results"]:
        if str(album.get("id")) == album_id:
            return album["url"]
    raise AssertionError(f"album {album_id} is not in the chart")


def test_one_hundred_albums_with_name_artist_and_link(tablet, kiosk, no_console_errors):
    open_page(tablet, kiosk, "/albums", "albums")
    assert count(tablet, "#albums li.album") == 100
    assert count(tablet, "#albums li.album img.album-thumb") == 100
    for css in (".album-name", ".album-artist"):
        assert count(tablet, f"#albums li.album {css}") == 100
    links = album_links(tablet)
    assert len(set(links)) == 100 and all(re.fullmatch(r"/albums/[^/]+", link) for link in links)
    no_console_errors(tablet, "on Top Albums")


def test_a_phone_loads_few_thumbnails_before_scrolling(phone, kiosk):
    open_page(phone, kiosk, "/albums", "albums")
    wait_until(phone, lambda d: js(d, "return document.readyState") == "complete", "page never loaded")
    time.sleep(2)
    loaded = resource_names(phone, "/img?")
    assert 1 <= len(loaded) <= 12, f"{len(loaded)} image requests before scrolling"


def test_detail_shows_the_album(phone, kiosk, no_console_errors):
    open_page(phone, kiosk, "/albums", "albums")
    href = album_links(phone)[0]
    tap(phone, find(phone, f'#albums a[href="{href}"]'))
    wait_until(phone, lambda d: js(d, "return document.body.dataset.page") == "album-detail", "no detail page")
    for css in ("#album-name", "#album-artist", "#album-genres", "#album-release", "#album-copyright"):
        assert text_of(phone, css), f"{css} is empty"
    artwork = find(phone, "img#album-artwork")
    assert js(phone, "return new URL(arguments[0].currentSrc || arguments[0].src).origin === location.origin", artwork)
    wait_until(phone, lambda d: js(d, "return arguments[0].complete && arguments[0].naturalWidth > 0", artwork),
               "the artwork did not load")
    assert find(phone, "a#apple-music").get_attribute("href") == album_url(kiosk, href.rsplit("/", 1)[1])
    assert find_all(phone, "a.back")
    no_console_errors(phone, "on an album's page")


@pytest.mark.parametrize("size", SIZE_NAMES)
def test_apple_music_button_is_centred_20px_from_main_edges_and_the_bottom(browser, kiosk, size):
    driver = browser(size)
    open_page(driver, kiosk, "/albums", "albums")
    href = album_links(driver)[3]
    open_page(driver, kiosk, href, "album-detail")
    time.sleep(0.3)
    geometry = js(driver, """
        const box = e => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, bottom: r.bottom}; };
        return {r: box(document.getElementById('apple-music')), m: box(document.querySelector('main')),
                innerHeight: innerHeight};
    """)
    r, m = geometry["r"], geometry["m"]
    detail = f"{size}: button {r}, main {m}, innerHeight {geometry['innerHeight']}"
    assert abs((r["left"] + r["right"]) / 2 - (m["left"] + m["right"]) / 2) <= 1, "not centred in main: " + detail
    assert abs(r["left"] - m["left"] - 20) <= 1, "not 20 px from main's leading edge: " + detail
    assert abs(m["right"] - r["right"] - 20) <= 1, "not 20 px from main's trailing edge: " + detail
    assert abs(geometry["innerHeight"] - r["bottom"] - 20) <= 1, "not 20 px from the viewport's bottom: " + detail
    assert find(driver, "a#apple-music").get_attribute("href") == album_url(kiosk, href.rsplit("/", 1)[1])
    if size == "phone":
        assert not js(driver, """
            const n = document.querySelector('nav.tabs');
            if (!n) return false;
            const s = getComputedStyle(n), r = n.getBoundingClientRect();
            return s.display !== 'none' && s.visibility !== 'hidden' && r.height > 0 && r.top < innerHeight;
        """), "the tab bar shows on a phone's album page"
