"""Accounts in a real browser: an account added with `kiosk user add` while the server runs closes
the app behind /login; signing in leads back to the page asked for; the reader's actions (sent
by the script with the session's token) and plain forms (settings: Home name, app passwords,
sign out) work; another account sees its own reader only. And Kiosk refuses to listen beyond
loopback with no account."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from selenium.common.exceptions import WebDriverException

import harness
from harness import WAIT, TCPProxy, find, find_all, js, open_page, tap, tap_when, text_of, wait_until

#: The first reader row's entry id (its star's), read in one step; null while there is none.
FIRST_STAR = "const b = document.querySelector('li.reader-entry [data-star]'); return b ? b.dataset.star : null"
#: A star's aria-pressed, read in one step; null while it is not there.
PRESSED = "const b = document.querySelector(arguments[0]); return b ? b.getAttribute('aria-pressed') : null"

PASSWORD = "a long sample password"


def add_user(server, workdir: Path, name: str, *extra: str) -> None:
    result = subprocess.run(
        [str(harness.kiosk_binary()), "user", "add", name, "--password-stdin", "--demo",
         "--data-directory", str(workdir / f"data-{server.name}"), *extra],
        input=(PASSWORD + "\n").encode(), capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode()


@pytest.fixture(scope="module")
def accounts_server(workdir: Path):
    server = harness.start_server("accounts", workdir)
    try:
        add_user(server, workdir, "ada", "--admin")
        add_user(server, workdir, "bob")
        # The running server notices the accounts within a second.
        deadline = time.monotonic() + WAIT
        while server.get("/").status == 200 and time.monotonic() < deadline:
            time.sleep(0.25)
        yield server
    finally:
        server.stop()


def sign_in(driver, server, name: str, path: str = "/reader") -> None:
    driver.delete_all_cookies()
    driver.get(server.url(path))
    wait_until(driver, lambda d: harness.page_of(d) == "login", "the sign-in page")
    find(driver, "#login-name").send_keys(name)
    find(driver, "#login-password").send_keys(PASSWORD)
    tap(driver, find(driver, "#login-submit"))
    wait_until(driver, lambda d: harness.page_of(d) not in (None, "login"), f"signed in as {name}")


def test_pages_ask_to_sign_in_and_lead_back(phone, accounts_server):
    reply = accounts_server.get("/reader")
    assert reply.status == 200  # followed the redirect to the sign-in page
    assert 'data-page="login"' in reply.text
    phone.get(accounts_server.url("/reader/all"))
    wait_until(phone, lambda d: harness.page_of(d) == "login", "the sign-in page")
    find(phone, "#login-name").send_keys("ada")
    find(phone, "#login-password").send_keys("not the password")
    tap(phone, find(phone, "#login-submit"))
    wait_until(phone, lambda d: "wrong" in text_of(d, "#login-error"), "the error")
    find(phone, "#login-password").send_keys(PASSWORD)
    tap(phone, find(phone, "#login-submit"))
    wait_until(phone, lambda d: harness.page_of(d) == "reader-list", "back to All unread")
    assert phone.current_url.endswith("/reader/all")
    cookie = phone.get_cookie("kiosk_session")
    assert cookie and cookie["httpOnly"] and cookie.get("sameSite") == "Lax"


def test_reader_actions_and_plain_forms_work_signed_in(phone, accounts_server):
    sign_in(phone, accounts_server, "ada", "/reader/feed/business")
    # Read in one script, then tapped by its entry: a live update may re-draw the list in between.
    entry_id = wait_until(phone, lambda d: js(d, FIRST_STAR), "Business entries")
    tap_when(phone, lambda d: find_all(d, f'li.reader-entry [data-star="{entry_id}"]'), "the star went away")
    wait_until(phone, lambda d: d.find_element("css selector", f'[data-star="{entry_id}"]').get_attribute("aria-pressed") == "true",
               "starred")
    # The star was saved (the script sent the session's token): the server lists it (asked as this
    # session, so a reload cannot overtake the POST), and it is there after a reload.
    phone.set_script_timeout(30)
    wait_until(phone, lambda d: d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/reader/starred', {headers: {Accept: 'text/html'}}).then(r => r.text())
            .then(t => done(t.includes('data-star="' + arguments[0] + '"')), () => done(false));""", entry_id),
               "the star did not reach the server")
    phone.refresh()
    wait_until(phone, lambda d: d.find_element("css selector", f'[data-star="{entry_id}"]').get_attribute("aria-pressed") == "true",
               "still starred after a reload")

    # Settings: a plain form (Home name), then an app password, shown once.
    open_page(phone, accounts_server, "/settings", "settings")
    field = find(phone, "#home-name")
    field.clear()
    field.send_keys("Ada Lovelace")
    tap(phone, find(phone, "#home-name-form button"))
    wait_until(phone, lambda d: "Saved" in text_of(d, "#settings-message"), "saved")
    open_page(phone, accounts_server, "/", "home")
    assert text_of(phone, "#owner-name") == "Ada Lovelace"
    open_page(phone, accounts_server, "/settings", "settings")
    find(phone, "#app-password-name").send_keys("iPhone")
    tap(phone, find(phone, "#app-password-form button"))
    wait_until(phone, lambda d: len(text_of(d, "#new-app-password")) == 24, "the new app password")
    # Where the eye is: within the phone's first screen as the page comes back, not below the fold.
    bottom = harness.js(phone, "return document.querySelector('#new-app-password').getBoundingClientRect().bottom")
    assert 0 < bottom <= harness.js(phone, "return window.innerHeight"), f"the new password is at {bottom} px"
    assert "_csrf" not in phone.current_url
    assert "iPhone" in text_of(phone, "#app-passwords")


def test_another_account_has_its_own_reader_and_signing_out_ends_the_session(phone, accounts_server):
    sign_in(phone, accounts_server, "ada", "/reader/feed/environment")
    wait_until(phone, lambda d: len(find_all(d, "li.reader-entry")) > 0, "Environment entries")
    # The first row's star, found by its entry each time: a live update may re-draw the list.
    entry_id = wait_until(phone, lambda d: js(d, FIRST_STAR), "no star")
    star = f'li.reader-entry button[data-star="{entry_id}"]'
    pressed = wait_until(phone, lambda d: js(d, PRESSED, star), "the star went away")
    if pressed != "true":
        tap_when(phone, lambda d: find_all(d, star), "the star went away")
        wait_until(phone, lambda d: js(d, PRESSED, star) == "true", "starred")
    open_page(phone, accounts_server, "/reader/starred", "reader-list")
    assert len(find_all(phone, "li.reader-entry")) >= 1
    # Bob follows the same News feeds, with his own state: nothing starred.
    sign_in(phone, accounts_server, "bob", "/reader/starred")
    assert len(find_all(phone, "li.reader-entry")) == 0
    open_page(phone, accounts_server, "/", "home")
    assert text_of(phone, "#owner-name") == "bob"
    open_page(phone, accounts_server, "/settings", "settings")
    tap(phone, find(phone, "#logout"))
    wait_until(phone, lambda d: harness.page_of(d) == "login", "signed out")
    phone.get(accounts_server.url("/reader"))
    wait_until(phone, lambda d: harness.page_of(d) == "login", "the reader needs signing in again")


def test_kiosk_refuses_to_listen_beyond_loopback_without_an_account(workdir: Path):
    data = workdir / "data-no-account-anywhere"
    data.mkdir(exist_ok=True)
    result = subprocess.run(
        [str(harness.kiosk_binary()), "--demo", "--host", "0.0.0.0", "--port", str(harness.free_port()),
         "--data-directory", str(data)],
        capture_output=True, timeout=60)
    assert result.returncode != 0
    message = result.stderr.decode()
    assert "needs an account" in message and "kiosk user add" in message


def reader_shown(driver) -> bool:
    return (harness.page_of(driver) or "").startswith("reader") or len(find_all(driver, "li.reader-entry")) > 0


def has_offline_copy(driver) -> bool:
    return has_cache(driver, "kiosk-offline-v1")


def has_cache(driver, name: str) -> bool:
    driver.set_script_timeout(30)
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        caches.has(arguments[0]).then(done, () => done(false));""", name)


def test_signing_out_leaves_nothing_of_the_account_on_the_device(phone, accounts_server):
    """main: after sign-out, with the server unreachable, /reader came from the service worker's
    cache with the whole reader in it."""
    proxy = TCPProxy(accounts_server.port)
    try:
        sign_in(phone, proxy, "ada", "/reader/feed/business")
        wait_until(phone, lambda d: len(find_all(d, "li.reader-entry")) > 0, "Business entries")
        phone.set_script_timeout(30)
        ready = phone.execute_async_script("""
            const done = arguments[arguments.length - 1];
            navigator.serviceWorker.ready.then(r => done(!!r.active), () => done(false));""")
        assert ready, "no service worker"
        phone.refresh()  # now controlled by the worker, which keeps what it serves
        wait_until(phone, lambda d: harness.js(d, "return !!navigator.serviceWorker.controller"), "not controlled")
        for path, page in (("/reader", None), ("/settings", "settings"), ("/reader/feed/business", None)):
            open_page(phone, proxy, path, page)
        time.sleep(1)  # the worker stores pages after answering

        # The check can see a kept page: cut off while signed in, the reader is still readable.
        proxy.cut()
        phone.get(proxy.url("/reader"))
        wait_until(phone, reader_shown, "the signed-in reader was not kept for offline reading")
        proxy.restore()

        # The reader's newest unread entries are kept on the device for offline reading...
        open_page(phone, proxy, "/settings", "settings")
        wait_until(phone, lambda d: (find(d, "#offline-saved").text or "").startswith("Offline: "),
                   "the reader was not saved for offline reading")
        assert has_offline_copy(phone)
        # A speed kept for one of the account's feeds (player.js) goes with the sign-out too, and
        # so does an episode saved for offline (player.js's Save for offline keeps it there).
        harness.js(phone, "localStorage.setItem('kiosk-player-speed', JSON.stringify({'feed-x': '1.5'}))")
        phone.execute_async_script("""
            const done = arguments[arguments.length - 1];
            caches.open('kiosk-media-v1')
              .then(c => c.put('/media?u=x&s=y', new Response(new Uint8Array(1000), {headers: {'Content-Type': 'audio/mpeg'}})))
              .then(() => done(true), () => done(false));""")
        assert has_cache(phone, "kiosk-media-v1")
        tap(phone, find(phone, "#logout"))
        wait_until(phone, lambda d: harness.page_of(d) == "login", "signed out")
        time.sleep(1)
        # ... and gone with the sign-out, with any queued change.
        wait_until(phone, lambda d: not has_offline_copy(d), "the offline copy outlived the sign-out")
        wait_until(phone, lambda d: not has_cache(d, "kiosk-media-v1"), "a saved episode outlived the sign-out")
        assert harness.js(phone, "return localStorage.getItem('kiosk.offline.queue')") is None
        assert harness.js(phone, "return localStorage.getItem('kiosk-player-speed')") is None

        proxy.cut()
        for path in ("/reader", "/reader/feed/business", "/settings"):
            try:
                phone.get(proxy.url(path))
            except WebDriverException as error:
                # With the worker gone as well, the browser's own "cannot connect" is the answer
                # (chromedriver reports it as an error): nothing of the account, as it should be.
                assert "ERR_" in str(error), error
            time.sleep(1)
            assert not reader_shown(phone), f"{path}: the signed-out browser still shows the reader"
            assert not find_all(phone, "#logout, #app-passwords, #app-password-form"), \
                f"{path}: the account's settings are still shown"
    finally:
        proxy.close()
