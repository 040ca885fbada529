"""Home `/`: the owner's name, a live clock, and the last opened headline, live in every tab.

Runs on a server of its own (`fresh_kiosk`), so no other test has opened a headline before.
"""

import re
import time

from harness import (
    LIVE_WAIT, OWNER_NAME, find, find_all, js, mark_document, open_page, same_document, tap_when, text_of,
    wait_live, wait_until,
)


def test_owner_name_is_shown(phone, fresh_kiosk, no_console_errors):
    open_page(phone, fresh_kiosk, "/", "home")
    assert text_of(phone, "#owner-name") == OWNER_NAME
    no_console_errors(phone, "on Home")


def test_clock_shows_date_and_time_and_ticks(phone, fresh_kiosk):
    open_page(phone, fresh_kiosk, "/", "home")
    clock = find(phone, "#clock")
    assert clock.tag_name == "time"
    wait_until(phone, lambda d: text_of(d, "#clock"), "#clock stays empty")
    text = text_of(phone, "#clock")
    assert re.search(r"\d{1,2}[:.]\d{2}", text), f"no time of day in #clock: {text!r}"
    day = js(phone, "return new Date().getDate()")
    without_time = re.sub(r"\d{1,2}[:.]\d{2}([:.]\d{2})?", " ", text)
    months = js(phone, """
        return [0,1,2,3,4,5,6,7,8,9,10,11].map(m => new Date(2020, m, 1).toLocaleString(undefined, {month: 'short'}));
    """)
    assert re.search(rf"\b0?{day}\b", without_time) or any(m in text for m in months), \
        f"no date in #clock: {text!r}"
    datetime = clock.get_attribute("datetime") or ""
    assert re.match(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}", datetime), f"#clock[datetime] is {datetime!r}"

    before = (text, datetime)
    wait_until(phone, lambda d: (text_of(d, "#clock"), find(d, "#clock").get_attribute("datetime")) != before,
               "#clock did not change within 3 s", timeout=3.0)


def test_last_opened_is_empty_then_follows_the_opened_headline_in_every_tab(phone, fresh_kiosk):
    open_page(phone, fresh_kiosk, "/", "home")
    assert find_all(phone, "#last-opened"), "no #last-opened on Home"
    assert text_of(phone, "#last-opened") == "", "#last-opened is not empty before any headline was opened"
    wait_live(phone)
    home_tab = phone.current_window_handle
    mark_document(phone)

    phone.switch_to.new_window("tab")
    open_page(phone, fresh_kiosk, "/news", "news")
    tap_when(phone, lambda d: find_all(d, "#news-list li.entry a.entry-link"), "no News entries")
    wait_until(phone, lambda d: js(d, "return document.body.dataset.page") == "news-detail", "detail did not open")
    title = text_of(phone, "#entry-title")
    assert title

    phone.switch_to.window(home_tab)
    started = time.monotonic()
    wait_until(phone, lambda d: text_of(d, "#last-opened") == title,
               f"the already-open Home tab never showed {title!r} (shows {text_of(phone, '#last-opened')!r})",
               timeout=LIVE_WAIT)
    assert same_document(phone), "Home was reloaded instead of updated live"
    assert time.monotonic() - started < LIVE_WAIT

    # A Home opened afterwards shows it too.
    phone.switch_to.new_window("tab")
    open_page(phone, fresh_kiosk, "/", "home")
    assert text_of(phone, "#last-opened") == title
