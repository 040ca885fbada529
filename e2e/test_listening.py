"""Your place in an episode, everywhere: two devices of one account (a phone and a tablet, each
its own browser) open the same demo podcast episode; what one plays and pauses, the other shows
live ("Paused at 0:07 on Android phone") and resumes from, also after a reload; an episode played
to its end counts as read and leaves "Listen", which lists what is left, newest first."""

from __future__ import annotations

import re

from harness import LIVE_WAIT, WAIT, TCPProxy, find, http, js, open_page, tap, text_of, wait_live, wait_until
from test_podcast import media, open_entry, start_playing, subscribe


def elsewhere(driver):
    return js(driver, "const p = document.getElementById('player-elsewhere'); return p && !p.hidden ? p.textContent : ''")


def pause(driver):
    """Taps Pause, unless the episode already ended (a short clip on a loaded machine)."""
    if not media(driver, "return m.paused"):
        tap(driver, find(driver, "#player-play"))
    wait_until(driver, lambda d: media(d, "return m.paused"), "the episode did not pause")


def saved_place(driver):
    """Where the player says it is, as it sends it (tenths of a second)."""
    return media(driver, "return Number(m.currentTime.toFixed(1))")


def test_your_place_follows_you_to_another_device(browser, fresh_kiosk):
    phone = browser("phone")
    tablet = browser("tablet")
    subscribe(phone, fresh_kiosk, "Kiosk Demo Podcast")
    open_entry(phone, "Episode 1")
    subscribe(tablet, fresh_kiosk, "Kiosk Demo Podcast")  # the same account: already followed
    open_entry(tablet, "Episode 1")
    wait_live(tablet)
    assert elsewhere(tablet) == ""  # never played

    # Played on the phone: the tablet's page says so at once.
    start_playing(phone)
    wait_until(tablet, lambda d: elsewhere(d).startswith("Playing on Android phone"),
               "the tablet did not hear that the phone plays", LIVE_WAIT)
    wait_until(phone, lambda d: media(d, "return m.currentTime") >= 6, "the phone's episode did not play on", WAIT)
    pause(phone)
    at = saved_place(phone)
    said = f"Paused at 0:{int(at):02d} on Android phone"
    wait_until(tablet, lambda d: elsewhere(d) == said, f"the tablet never said {said!r}", LIVE_WAIT)
    # Not playing there, the tablet's player moved to the same place.
    wait_until(tablet, lambda d: abs(media(d, "return m.currentTime") - at) <= 2,
               "the tablet's player is not where the phone left it")

    # Opened afresh (a reload), it resumes there, and plays on from there.
    tablet.refresh()
    wait_until(tablet, lambda d: js(d, "return document.body.dataset.page") == "reader-entry", "the reload failed")
    assert elsewhere(tablet) == said
    wait_until(tablet, lambda d: abs(media(d, "return m.currentTime") - at) <= 2,
               "the reloaded page did not resume where the phone stopped")
    start_playing(tablet)
    assert media(tablet, "return m.currentTime") >= at - 2
    wait_until(phone, lambda d: elsewhere(d).startswith("Playing on Android tablet"),
               "the phone did not hear that the tablet plays", LIVE_WAIT)

    # Played to its end on the tablet: read, and out of Listen; the phone says it was finished.
    wait_until(tablet, lambda d: media(d, "return m.ended"), "the episode never ended", 60)
    wait_until(phone, lambda d: elsewhere(d) == "Played to the end on Android tablet",
               "the phone did not hear the episode finished", LIVE_WAIT)
    open_page(phone, fresh_kiosk, "/reader/listen", "reader-listen")
    titles = js(phone, "return [...document.querySelectorAll('#listen-list .entry-title')].map(t => t.textContent)")
    assert titles and not any(t.startswith("Episode 1") for t in titles), titles
    assert any(t.startswith("Episode 2") for t in titles), titles
    states = js(phone, "return [...document.querySelectorAll('#listen-list .listen-state')].map(t => t.textContent)")
    assert all(s.startswith("Unplayed") for s in states), states
    # Reached from the reader's lists.
    open_page(phone, fresh_kiosk, "/reader", "reader")
    tap(phone, find(phone, 'a.stream[data-stream="listen"]'))
    wait_until(phone, lambda d: js(d, "return document.body.dataset.page") == "reader-listen", "Listen did not open")
    assert text_of(phone, "#reader-title") == "Listen"


def test_an_episode_begun_shows_its_time_left_in_listen(phone, fresh_kiosk):
    driver = phone
    subscribe(driver, fresh_kiosk, "Kiosk Demo Podcast")
    open_entry(driver, "Episode 2")
    start_playing(driver)
    wait_until(driver, lambda d: media(d, "return m.currentTime") >= 3, "the episode did not play on")
    pause(driver)
    open_page(driver, fresh_kiosk, "/reader/listen", "reader-listen")
    row = js(driver, "return [...document.querySelectorAll('#listen-list li')].map(li => "
                     "[li.querySelector('.entry-title').textContent, li.querySelector('.listen-state').textContent,"
                     " !!li.querySelector('progress')])")
    begun = [r for r in row if r[0].startswith("Episode 2")]
    assert begun and " left of " in begun[0][1] and begun[0][1].endswith("on Android phone") and begun[0][2], row

    # Marked as played from its page: read, and out of Listen.
    driver.back()
    wait_until(driver, lambda d: js(d, "return document.body.dataset.page") == "reader-entry", "Back did not open it")
    tap(driver, find(driver, "#player-played"))
    wait_until(driver, lambda d: text_of(d, "#player-status") == "Marked as played", "Mark as played said nothing")
    def gone_from_listen(d):
        open_page(d, fresh_kiosk, "/reader/listen", "reader-listen")  # afresh: the save may still be on its way
        titles = js(d, "return [...document.querySelectorAll('#listen-list .entry-title')].map(t => t.textContent)")
        return not any(t.startswith("Episode 2") for t in titles)
    wait_until(driver, gone_from_listen, "an episode marked as played stayed in Listen", poll=0.5)


def test_a_place_saved_without_a_network_is_sent_when_kiosk_answers_again(phone, fresh_kiosk):
    """The network goes while an episode plays from what it buffered (a tunnel): pausing cannot
    reach Kiosk, so the place waits with the offline changes and goes once Kiosk answers."""
    subscribe(phone, fresh_kiosk, "Kiosk Demo Video")  # followed by the account; its clip is ours alone
    open_entry(phone, "Clip 1")
    path = phone.current_url.replace(fresh_kiosk.url(""), "")
    proxy = TCPProxy(fresh_kiosk.port)
    try:
        # Kiosk through a proxy the test can cut; the file itself comes from its publisher.
        open_page(phone, proxy, "/reader", "reader")
        wait_until(phone, lambda d: js(d, "return (document.getElementById('offline-saved') || {}).hidden === false"),
                   "the device kept no copy of the reader", 60)
        open_page(phone, proxy, path, "reader-entry")
        start_playing(phone)
        wait_until(phone, lambda d: media(d, "return m.currentTime") >= 2, "the clip did not play on")
        proxy.cut()
        pause(phone)
        at = saved_place(phone)
        queued = wait_until(phone, lambda d: js(d, "return localStorage.getItem('kiosk.offline.queue')"),
                            "the place was not queued without a network")
        assert '"op":"place"' in queued, queued
        proxy.restore()
        # The next screen (in place: the clip stays in the dock) sends it.
        tap(phone, find(phone, 'nav.tabs a[data-tab="news"]'))
        wait_until(phone, lambda d: js(d, "return localStorage.getItem('kiosk.offline.queue')") is None,
                   "the queued place was not sent")
        page = http("GET", fresh_kiosk.url(path)).body.decode()
        resume = float(re.search(r'data-resume="([0-9.]+)"', page).group(1))
        assert abs(resume - at) <= 1, (resume, at)
    finally:
        proxy.close()
