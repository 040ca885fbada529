"""Facts `/facts`: the feed's title, rows sized to their content, lazy images with reserved space,
broken images marked, refresh."""

import json
import time

from harness import (
    REPO, count, find, find_all, is_shown, js, mark_items, marked_items_left, open_page, scroll_to, tap, text_of,
    wait_until,
)


def fixture():
    raw = (REPO / "Sources" / "KioskDemo" / "Resources" / "facts.json").read_bytes()
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return json.loads(raw.decode("latin-1"))


FACTS = fixture()
ROWS = [r for r in FACTS["rows"] if any(r.get(k) for k in ("title", "description", "imageHref"))]
WITHOUT_IMAGE = {r["title"] for r in ROWS if not r.get("imageHref")}

ROW_GEOMETRY = """
    return [...document.querySelectorAll('#facts li.fact')].map(li => {
        const r = li.getBoundingClientRect();
        let bottom = r.top;
        for (const c of li.querySelectorAll('*')) {
            const q = c.getBoundingClientRect();
            if (q.width > 0 && q.height > 0) bottom = Math.max(bottom, q.bottom);
        }
        const t = li.querySelector('.fact-title');
        return {title: t ? t.innerText.trim() : '', height: r.height, content: bottom - r.top,
                images: li.querySelectorAll('img').length, factImages: li.querySelectorAll('img.fact-image').length};
    });
"""

IMAGES_SETTLED = """
    return [...document.querySelectorAll('img.fact-image')].every(i =>
        i.classList.contains('is-broken') || (i.getAttribute('src') && i.complete && i.naturalWidth > 0));
"""


def last_row_top(driver):
    return js(driver, "const l = [...document.querySelectorAll('#facts li.fact')].pop(); "
                      "return l.getBoundingClientRect().top + scrollY")


def scroll_through(driver):
    height = js(driver, "return document.documentElement.scrollHeight")
    step = js(driver, "return innerHeight") // 2
    for y in range(0, height + step, step):
        scroll_to(driver, y)
        time.sleep(0.15)


def test_title_comes_from_the_feed(phone, kiosk, no_console_errors):
    open_page(phone, kiosk, "/facts", "facts")
    assert text_of(phone, "h1#facts-title") == FACTS["title"] == "About Canada"
    assert count(phone, "#facts li.fact") == len(ROWS) == 13
    no_console_errors(phone, "on Facts", allow_broken_images=True)


def test_rows_are_as_tall_as_their_content_and_images_only_where_the_row_has_one(tablet, kiosk):
    open_page(tablet, kiosk, "/facts", "facts")
    rows = js(tablet, ROW_GEOMETRY)
    assert rows
    for row in rows:
        assert row["height"] <= row["content"] + 40, f"row {row['title']!r}: {row['height']:.0f} px tall for " \
                                                      f"{row['content']:.0f} px of content"
        if row["title"] in WITHOUT_IMAGE:
            assert row["images"] == 0, f"row {row['title']!r} has no image in the feed but shows one"
        else:
            assert row["factImages"] == 1, f"row {row['title']!r} should have one img.fact-image"
    assert {r["title"] for r in rows} >= {r["title"] for r in ROWS if r.get("title")}


def test_images_below_the_fold_wait_with_data_src(phone, kiosk):
    open_page(phone, kiosk, "/facts", "facts")
    time.sleep(1)
    images = js(phone, """
        return [...document.querySelectorAll('img.fact-image')].map(i => ({
            top: i.getBoundingClientRect().top, src: i.getAttribute('src'), dataSrc: i.getAttribute('data-src')}));
    """)
    far = [i for i in images if i["top"] > js(phone, "return innerHeight") + 300]
    assert far, "no image far below the fold on a phone: nothing to check"
    for image in far:
        assert not image["src"] and image["dataSrc"], f"image {image} loads before it is near the viewport"
        assert image["dataSrc"].startswith("/img?"), image


def test_images_have_reserved_space_and_broken_ones_are_marked(phone, kiosk):
    open_page(phone, kiosk, "/facts", "facts")
    before = last_row_top(phone)
    sizes = js(phone, "return [...document.querySelectorAll('img.fact-image')].map(i => [i.offsetWidth, i.offsetHeight])")
    assert all(w > 0 and h > 0 for w, h in sizes), f"images without a reserved box before loading: {sizes}"
    scroll_through(phone)
    wait_until(phone, lambda d: js(d, IMAGES_SETTLED), "images neither loaded nor marked broken", timeout=30)
    assert count(phone, "img.fact-image.is-broken") >= 1, "no image was marked is-broken"
    scroll_to(phone, 0)
    assert abs(last_row_top(phone) - before) <= 1, f"the last row moved from {before} to {last_row_top(phone)}"
    for image in js(phone, "return [...document.querySelectorAll('img')].map(i => i.src).filter(Boolean)"):
        assert js(phone, "return new URL(arguments[0]).origin === location.origin", image), image


def test_refresh_fetches_the_facts_again(phone, kiosk):
    open_page(phone, kiosk, "/facts", "facts")
    before = kiosk.source_count("facts")
    mark_items(phone, "#facts li.fact")
    tap(phone, find(phone, "button#refresh"))
    wait_until(phone, lambda d: kiosk.source_count("facts") > before, "refresh did not fetch the facts feed")
    wait_until(phone, lambda d: not marked_items_left(d, "#facts li.fact") and count(d, "#facts li.fact") == len(ROWS),
               "the list was not reloaded")
    assert text_of(phone, "h1#facts-title") == "About Canada"
    assert find_all(phone, "button#refresh")


def test_a_slow_refresh_shows_the_last_copy_at_once_and_its_outcome_when_it_lands(phone, kiosk):
    open_page(phone, kiosk, "/facts", "facts")
    wait_until(phone, lambda d: count(d, "#facts li.fact") == len(ROWS), "no facts")
    kiosk.latency("facts", 8000)  # the source takes 8 s to answer
    before = kiosk.source_count("facts")
    # Asked directly, the page answers with the last copy long before the source does.
    started = time.monotonic()
    reply = kiosk.get("/facts?refresh=1")
    assert reply.status == 200 and "Refreshing" in reply.text and "About Canada" in reply.text
    assert time.monotonic() - started < 6, "the page waited for the slow source"
    # In the browser: the button keeps the facts on screen, says a refresh is under way, and
    # draws the outcome when it lands (the refresh asked for above, which the tap joins).
    tap(phone, find(phone, "button#refresh"))
    wait_until(phone, lambda d: is_shown(d, "#refresh-status"), "no word of the refresh under way", 6)
    assert count(phone, "#facts li.fact") == len(ROWS)
    wait_until(phone, lambda d: not is_shown(d, "#refresh-status") and kiosk.source_count("facts") > before,
               "the outcome never landed", 30)
    assert count(phone, "#facts li.fact") == len(ROWS)


def test_pulling_facts_down_shows_a_spinner_until_the_refresh_lands(phone, kiosk):
    from harness import cdp, scroll_to

    def spinner_shown(driver):
        return js(driver, "const e = document.querySelector('.pull-indicator'); "
                          "return !!e && e.getBoundingClientRect().height > 20")

    open_page(phone, kiosk, "/facts", "facts")
    wait_until(phone, lambda d: count(d, "#facts li.fact") > 0, "no facts")
    kiosk.latency("facts", 2500)  # a slow source: the refresh takes seconds
    scroll_to(phone, 0)
    time.sleep(0.3)
    x = 195
    cdp(phone, "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": 160}]})
    for y in range(170, 520, 25):
        cdp(phone, "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        time.sleep(0.03)
    assert spinner_shown(phone), "no indicator while pulling"
    cdp(phone, "Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    time.sleep(0.5)
    assert spinner_shown(phone), "the indicator went before the refresh landed"
    wait_until(phone, lambda d: not spinner_shown(d), "the indicator never went", 20)
    assert count(phone, "#facts li.fact") > 0
