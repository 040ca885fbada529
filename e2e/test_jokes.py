"""Jokes `/jokes`: one joke per click, a spinner while fetching, one request in flight at most."""

import time

from harness import find, is_shown, js, open_page, tap, text_of, wait_until


def state(driver):
    return {
        "spinner": is_shown(driver, "#joke-spinner"),
        "text_shown": is_shown(driver, "#joke-text"),
        "text": text_of(driver, "#joke-text"),
        "disabled": js(driver, "return document.getElementById('joke-button').disabled"),
    }


def test_nothing_is_shown_before_the_first_click(phone, kiosk, no_console_errors):
    open_page(phone, kiosk, "/jokes", "jokes")
    assert text_of(phone, "#joke-text") == ""
    assert not is_shown(phone, "#joke-spinner"), "the spinner shows before any click"
    assert not find(phone, "button#joke-button").get_attribute("disabled")
    time.sleep(1)
    assert not is_shown(phone, "#joke-spinner")
    no_console_errors(phone, "on Jokes")


def test_a_click_fetches_one_joke_with_a_spinner_and_ignores_clicks_meanwhile(phone, kiosk):
    kiosk.latency("jokes", 2000)
    open_page(phone, kiosk, "/jokes", "jokes")
    before = kiosk.source_count("jokes")
    button = find(phone, "button#joke-button")

    # Two clicks in the same task: the second must not start a second request.
    js(phone, "const b = document.getElementById('joke-button'); b.click(); b.click();")
    busy = wait_until(phone, lambda d: (s := state(d))["spinner"] and s, "the spinner never showed", timeout=5)
    assert busy["disabled"], "the button is not disabled while fetching"
    assert not busy["text_shown"] or not busy["text"], "the joke text shows while fetching"
    button.click()  # a disabled button: nothing may happen

    joke = wait_until(phone, lambda d: (s := state(d))["text"] and not s["spinner"] and s,
                      "no joke after the fetch", timeout=15)
    assert joke["text_shown"] and not joke["disabled"]
    time.sleep(0.5)
    assert kiosk.source_count("jokes") - before == 1, \
        f"{kiosk.source_count('jokes') - before} joke requests for one fetch"

    # The next joke: the previous text hides while fetching, and a new one replaces it.
    first = joke["text"]
    tap(phone, button)
    busy = wait_until(phone, lambda d: (s := state(d))["spinner"] and s, "the spinner never showed again", timeout=5)
    assert busy["disabled"]
    assert not busy["text_shown"], "the previous joke stays visible while fetching"
    second = wait_until(phone, lambda d: (s := state(d))["text"] and not s["spinner"] and s,
                        "no second joke", timeout=15)
    assert second["text"] != first, "the same joke twice in a row"
    assert kiosk.source_count("jokes") - before == 2
