"""Security: a Content-Security-Policy without 'unsafe-inline' on every response, and hostile feed
content (markup in the title, script-bearing HTML in the description, a `javascript:` link)
shown as text or sanitized, never run."""

import time
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest

from harness import LIVE_WAIT, find_all, js, open_page, tap, tap_when, text_of, token, wait_live, wait_until


class _Links(HTMLParser):
    """Every element's attributes, enough to find a page's links and assets."""

    def __init__(self):
        super().__init__()
        self.elements = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))


def elements(server, path):
    reply = server.get(path)
    assert reply.status == 200, f"{path}: HTTP {reply.status}"
    parser = _Links()
    parser.feed(reply.text)
    return parser.elements


def first(server, path, predicate, attribute):
    for tag, attrs in elements(server, path):
        if predicate(tag, attrs) and attrs.get(attribute):
            return attrs[attribute]
    raise AssertionError(f"{path}: nothing matched")


def has_class(attrs, name):
    return name in (attrs.get("class") or "").split()


def routes(server):
    news = first(server, "/news", lambda t, a: t == "a" and has_class(a, "entry-link"), "href")
    article = first(server, "/discover", lambda t, a: t == "a" and has_class(a, "article-link"), "href")
    album = first(server, "/albums", lambda t, a: t == "a" and (a.get("href") or "").startswith("/albums/"), "href")
    home = elements(server, "/")
    assets = [a.get("href") or a.get("src") for t, a in home
              if (t == "link" and a.get("rel") in ("stylesheet", "icon", "manifest")) or (t == "script" and a.get("src"))]
    album_images = [a.get("data-src") or a.get("src") for t, a in elements(server, "/albums") if t == "img"]
    images = [src for src in album_images if src and src.startswith("/")][:1]
    return sorted({
        "/", "/news", "/news?feed=entertainment-environment", news, "/discover", "/discover?q=music", article,
        "/facts", "/jokes", "/albums", album, "/offline", "/no-such-page", "/manifest.webmanifest", "/sw.js",
        "/healthz", *images, *[a for a in assets if a and a.startswith("/")],
    })


def test_every_response_has_a_csp_without_unsafe_inline(kiosk):
    problems = []
    for path in routes(kiosk):
        reply = kiosk.get(path)
        policy = reply.headers.get("Content-Security-Policy")
        if not policy:
            problems.append(f"{path} (HTTP {reply.status}): no Content-Security-Policy")
        elif "unsafe-inline" in policy:
            problems.append(f"{path}: {policy}")
        elif "default-src" not in policy and "script-src" not in policy:
            problems.append(f"{path}: neither default-src nor script-src in {policy}")
    assert not problems, "\n".join(problems)


JAVASCRIPT_URLS = """
    const found = [];
    for (const e of document.querySelectorAll('*')) {
        for (const name of ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'srcdoc']) {
            const v = e.getAttribute(name);
            if (v === null) continue;
            let protocol = '';
            try { protocol = new URL(v, location.href).protocol; } catch (_) {}
            if (protocol === 'javascript:' || /^\\s*javascript:/i.test(v)) found.push(e.outerHTML.slice(0, 160));
        }
    }
    return found;
"""

INLINE_HANDLERS = """
    return [...document.querySelectorAll('#main *')]
        .filter(e => [...e.attributes].some(a => a.name.toLowerCase().startsWith('on')))
        .map(e => e.outerHTML.slice(0, 160));
"""


def assert_harmless(driver, where):
    time.sleep(0.5)  # let a failed <img src=x> fire its onerror, if it was ever rendered
    assert js(driver, "return typeof window.__pwned") == "undefined", \
        f"{where}: window.__pwned = {js(driver, 'return window.__pwned')}"
    assert js(driver, JAVASCRIPT_URLS) == [], f"{where}: javascript: URLs in the DOM"
    assert js(driver, "return document.querySelectorAll('#main script').length") == 0, f"{where}: a script in #main"
    assert js(driver, INLINE_HANDLERS) == [], f"{where}: inline event handlers in #main"


@pytest.fixture
def hostile(kiosk):
    mark = token()
    fields = {
        "title": f'<img src=x onerror="window.__pwned=1">Hi {mark}<script>window.__pwned=2</script>',
        "description": '<img src=x onerror="window.__pwned=3"><a href="javascript:window.__pwned=4">x</a>'
                       '<svg onload="window.__pwned=5"></svg>',
        "link": "javascript:window.__pwned=6",
    }
    return mark, fields


def test_hostile_feed_content_is_shown_as_text_and_never_runs(phone, kiosk, hostile):
    mark, fields = hostile
    open_page(phone, kiosk, "/news", "news")
    wait_live(phone)
    kiosk.advance("business", **fields)
    entry_text = wait_until(phone, lambda d: js(d, """
        const li = [...document.querySelectorAll('#news-list li.entry')].find(li => li.innerText.includes(arguments[0]));
        return li ? li.innerText : null
    """, mark), "the hostile entry never appeared in News", timeout=LIVE_WAIT)
    assert "Hi" in entry_text
    assert_harmless(phone, "News list after a live update")

    # The same list rendered by the server, not by a live update.
    phone.refresh()
    wait_until(phone, lambda d: mark in text_of(d, "#news-list"), "the hostile entry is gone after reload")
    assert_harmless(phone, "News list")

    tap_when(phone, lambda d: js(d, """
        const li = [...document.querySelectorAll('#news-list li.entry')].find(li => li.innerText.includes(arguments[0]));
        return li && li.querySelector('a.entry-link');
    """, mark), "no link to the hostile entry")
    wait_until(phone, lambda d: js(d, "return document.body.dataset.page") == "news-detail", "no detail page")
    title = text_of(phone, "h1#entry-title")
    assert "Hi" in title and mark in title, title
    assert_harmless(phone, "detail page")
    out = find_all(phone, "a#entry-link-out")
    assert not out or out[0].get_attribute("href").startswith(("http://", "https://"))

    # Click every link in #main that is not navigation; none may run anything.
    detail_url = phone.current_url
    hrefs = js(phone, """
        return [...document.querySelectorAll('#main a')]
            .filter(a => !a.closest('nav') && !a.classList.contains('back'))
            .map((a, i) => { a.dataset.e2eLink = String(i); return [String(i), a.getAttribute('href')]; });
    """)
    home = phone.current_window_handle
    for index, href in hrefs:
        target = urlsplit(href or "")
        if target.scheme in ("http", "https") and target.hostname not in ("127.0.0.1", "localhost"):
            continue  # an outside page: tests never touch the internet
        links = find_all(phone, f'#main a[data-e2e-link="{index}"]')
        if not links:
            continue
        tap(phone, links[0])
        time.sleep(0.5)
        for handle in phone.window_handles:
            if handle != home:
                phone.switch_to.window(handle)
                assert js(phone, "return typeof window.__pwned") == "undefined"
                phone.close()
        phone.switch_to.window(home)
        assert js(phone, "return typeof window.__pwned") == "undefined", f"clicking {href!r} ran script"
        if phone.current_url != detail_url:
            phone.get(detail_url)
            wait_until(phone, lambda d: js(d, "return document.body.dataset.page") == "news-detail", "no detail")

    # Home shows it as the last opened headline, as text too.
    open_page(phone, kiosk, "/", "home")
    wait_until(phone, lambda d: mark in text_of(d, "#last-opened"), "Home's #last-opened lacks the hostile title")
    assert "Hi" in text_of(phone, "#last-opened")
    assert_harmless(phone, "Home")


def test_opening_a_detail_changes_nothing_until_its_page_says_so_and_other_sites_cannot(phone, fresh_kiosk):
    """A GET (a cross-site <img>, a crawler, a prefetch) never records "last opened"; the page's
    own script does, by a POST that another site's page is refused."""
    import re as _re

    from harness import http

    html = fresh_kiosk.get("/news").text
    link = _re.search(r'href="(/news/business/[0-9a-f]+)"', html)[1]
    assert fresh_kiosk.get(link).status == 200  # no script ran: nothing recorded
    assert text_of_home(fresh_kiosk) == ""

    # Another origin (the sample server's port) posting the beacon from a page is refused.
    phone.get(fresh_kiosk.demo_url + "/sites/quiet/")
    status = js(phone, """
        return fetch(arguments[0] + '/opened', {method: 'POST', mode: 'no-cors',
            headers: {'Content-Type': 'application/x-www-form-urlencoded'}, body: 'path=' + encodeURIComponent(arguments[1])})
            .then(() => 'sent', () => 'failed');
    """, fresh_kiosk.base_url, link)
    assert status in ("sent", "failed")
    time.sleep(1)
    assert text_of_home(fresh_kiosk) == ""

    # The real page, with its script, is remembered.
    open_page(phone, fresh_kiosk, link, "news-detail")
    title = text_of(phone, "#entry-title")
    wait_until(phone, lambda d: text_of_home(fresh_kiosk) == title, "opening the page was not remembered")
    assert http("GET", fresh_kiosk.url("/opened")).status in (404, 405)


def text_of_home(server):
    import re as _re

    match = _re.search(r'<a[^>]*id="last-opened"[^>]*>(.*?)</a>', server.get("/").text)
    return match[1] if match else ""
