"""Accessibility kept: axe-core 4.12.1 (pinned: the `axe.min.js` inside `axe-playwright-python`
0.1.8, installed by scripts/install-deps.sh) finds no WCAG 2.x A/AA violation on any screen, on a
phone and a desktop, signed out and signed in, the reader's entry, settings and offline pages
included."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

import harness
from harness import find, find_all, js, open_page, tap, wait_until

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def axe_source() -> str:
    import axe_playwright_python  # the package only carries the script here

    path = Path(axe_playwright_python.__file__).parent / "axe.min.js"
    source = path.read_text()
    assert source.startswith("/*! axe v4.12."), "axe-core is not the pinned 4.12"
    return source


def violations(driver) -> list[dict]:
    """axe-core's WCAG 2.x A/AA violations on the page as it is now."""
    if not js(driver, "return typeof window.axe === 'object'"):
        # Injected by WebDriver, which the page's Content-Security-Policy does not govern.
        driver.execute_script(axe_source())
    driver.set_script_timeout(60)
    result = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})
            .then(r => done(JSON.stringify(r.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + n.failureSummary)})))),
                  e => done(JSON.stringify([{id: 'axe-error', help: String(e), nodes: []}])));""",
        AXE_TAGS)
    return json.loads(result)


def describe(found: list[dict]) -> str:
    return "\n".join(f"- {v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in found)


def first_href(driver, server, path, page, css):
    open_page(driver, server, path, page)
    return wait_until(driver, lambda d: js(d, "const a = document.querySelector(arguments[0]); "
                                              "return a ? a.getAttribute('href') : null", css), f"no {css} on {path}")


def screens(driver, server) -> list[tuple[str, str]]:
    news = first_href(driver, server, "/news", "news", "#news-list a.entry-link")
    article = first_href(driver, server, "/discover", "discover", "#articles a.article-link")
    album = first_href(driver, server, "/albums", "albums", "#albums li.album a[href^='/albums/']")
    entry = first_href(driver, server, "/reader/feed/business", "reader-list", "#reader-list a.entry-link")
    return [
        ("/", "home"), ("/news", "news"), ("/news?feed=entertainment-environment", "news"), (news, "news-detail"),
        ("/discover", "discover"), (article, "discover-detail"), ("/facts", "facts"), ("/jokes", "jokes"),
        ("/albums", "albums"), (album, "album-detail"), ("/reader", "reader"), ("/reader/all", "reader-list"),
        (entry, "reader-entry"), (entry + "/article", "reader-entry"), ("/reader/add", "reader-add"),
        ("/reader/opml", "reader-opml"), ("/reader/feed/business/settings", "reader-settings"),
        ("/settings", "settings"), ("/offline", "offline"), ("/offline/reader", "reader-offline"),
        ("/reader/rules", "reader-rules"), ("/reader/rules/new", "reader-rule-form"),
        ("/reader/notifications", "reader-notifications"), ("/reader/hidden", "reader-list"),
        ("/reader/listen", "reader-listen"),
        ("/no-such-page", "not-found"),
    ]


@pytest.mark.parametrize("size", ["phone", "tablet-landscape"])
def test_no_wcag_violation_on_any_screen(browser, kiosk, size):
    driver = browser(size)
    found: dict[str, list[dict]] = {}
    for path, page in screens(driver, kiosk):
        open_page(driver, kiosk, path, page)
        if found_here := violations(driver):
            found[path] = found_here
    assert not found, "\n".join(f"{path}:\n{describe(v)}" for path, v in found.items())
    # The check itself works: an image without a text alternative is found.
    open_page(driver, kiosk, "/", "home")
    js(driver, "const i = document.createElement('img'); i.src = '/static/icons/icon-192.png'; document.querySelector('main').append(i);")
    assert "image-alt" in [v["id"] for v in violations(driver)], "axe did not find a planted violation"


@pytest.fixture(scope="module")
def accounts_server(workdir: Path):
    from test_accounts import add_user

    server = harness.start_server("a11y-accounts", workdir)
    try:
        add_user(server, workdir, "ada", "--admin")
        deadline = time.monotonic() + harness.WAIT
        while server.get("/").status == 200 and time.monotonic() < deadline:
            time.sleep(0.25)
        yield server
    finally:
        server.stop()


def test_no_wcag_violation_signed_out_and_signed_in(browser, accounts_server):
    from test_accounts import sign_in

    driver = browser("phone")
    driver.delete_all_cookies()
    for path, page in (("/login", "login"), ("/offline", "offline")):
        open_page(driver, accounts_server, path, page)
        assert not (v := violations(driver)), f"{path} signed out:\n{describe(v)}"
    sign_in(driver, accounts_server, "ada", "/reader")
    entry = first_href(driver, accounts_server, "/reader/feed/business", "reader-list", "#reader-list a.entry-link")
    for path, page in (("/reader", "reader"), (entry, "reader-entry"), ("/settings", "settings")):
        open_page(driver, accounts_server, path, page)
        assert not (v := violations(driver)), f"{path} signed in:\n{describe(v)}"
    # A new app password shown, at the top of Settings.
    find(driver, "#app-password-name").send_keys("Tablet")
    tap(driver, find(driver, "#app-password-form button"))
    wait_until(driver, lambda d: find_all(d, "#new-app-password"), "the new app password")
    assert not (v := violations(driver)), f"/settings with a new app password:\n{describe(v)}"
