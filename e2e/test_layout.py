"""Every screen at the four sizes: no horizontal overflow, the tab bar at the bottom below 700 px
and a sidebar from 700 px, no console errors; deep links and back; dark mode."""

import pytest

from harness import (
    SIDEBAR_FROM, SIZE_NAMES, SIZES, cdp, console_errors, find, find_all, js, open_page,
    page_background_luminance, tap, wait_until,
)

TABS = ["home", "news", "reader", "discover", "facts", "jokes", "albums"]
#: The tab that is current on each page.
TAB_OF_PAGE = {
    "home": "home", "news": "news", "news-detail": "news", "discover": "discover", "discover-detail": "discover",
    "facts": "facts", "jokes": "jokes", "albums": "albums", "album-detail": "albums",
    "reader": "reader", "reader-list": "reader", "reader-entry": "reader", "reader-add": "reader",
    "reader-opml": "reader", "reader-settings": "reader",
}


def first_href(driver, server, path, page, css):
    open_page(driver, server, path, page)
    href = wait_until(driver, lambda d: js(d, "const a = document.querySelector(arguments[0]); "
                                               "return a ? a.getAttribute('href') : null", css), f"no {css} on {path}")
    return href


def screens(driver, server):
    """(path, data-page) of every screen, detail pages taken from their lists."""
    news = first_href(driver, server, "/news", "news", "#news-list a.entry-link")
    article = first_href(driver, server, "/discover", "discover", "#articles a.article-link")
    album = first_href(driver, server, "/albums", "albums", "#albums li.album a[href^='/albums/']")
    entry = first_href(driver, server, "/reader/feed/business", "reader-list", "#reader-list a.entry-link")
    return [
        ("/reader", "reader"), ("/reader/all", "reader-list"), ("/reader/folder/News", "reader-list"),
        (entry, "reader-entry"), ("/reader/add", "reader-add"), ("/reader/opml", "reader-opml"),
        ("/reader/feed/business/settings", "reader-settings"),
        ("/", "home"), ("/news", "news"), ("/news?feed=entertainment-environment", "news"), (news, "news-detail"),
        ("/discover", "discover"), (article, "discover-detail"), ("/facts", "facts"), ("/jokes", "jokes"),
        ("/albums", "albums"), (album, "album-detail"), ("/offline", "offline"),
        ("/no-such-page", "not-found"),
    ]


NAV_GEOMETRY = """
    const n = document.querySelector('nav.tabs');
    if (!n) return null;
    const s = getComputedStyle(n), r = n.getBoundingClientRect();
    return {shown: s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0 && r.height > 0,
            left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height,
            tabs: [...n.querySelectorAll('a[data-tab]')].map(a => a.dataset.tab),
            current: [...n.querySelectorAll('a[data-tab][aria-current="page"]')].map(a => a.dataset.tab)};
"""


@pytest.mark.parametrize("size", SIZE_NAMES)
def test_every_screen_fits_and_has_its_navigation(browser, kiosk, size):
    driver = browser(size)
    width, height = SIZES[size]
    problems = []
    for path, page in screens(driver, kiosk):
        open_page(driver, kiosk, path, page)
        js(driver, "window.scrollTo(0, 0)")
        overflow = js(driver, "return [document.documentElement.scrollWidth, innerWidth]")
        if overflow[0] > overflow[1]:
            problems.append(f"{path}: scrollWidth {overflow[0]} > innerWidth {overflow[1]}")
        if not find_all(driver, "main#main"):
            problems.append(f"{path}: no main#main")
        nav = js(driver, NAV_GEOMETRY)
        hidden_on_purpose = page == "album-detail" and width < SIDEBAR_FROM
        if page in ("offline", "not-found") and nav is None:
            pass
        elif nav is None:
            problems.append(f"{path}: no nav.tabs")
        elif hidden_on_purpose:
            if nav["shown"] and nav["top"] < height:
                problems.append(f"{path}: the tab bar shows on a phone's album page")
        elif not nav["shown"]:
            problems.append(f"{path}: nav.tabs is not shown")
        else:
            if sorted(nav["tabs"]) != sorted(TABS):
                problems.append(f"{path}: tabs are {nav['tabs']}")
            if width < SIDEBAR_FROM:
                if abs(nav["bottom"] - height) > 1 or nav["width"] < width - 1 or nav["height"] > height / 4:
                    problems.append(f"{path}: not a bottom tab bar at {width}px: {nav}")
            else:
                if nav["left"] > 1 or nav["width"] > width / 3 or nav["height"] < height * 0.6:
                    problems.append(f"{path}: not a sidebar at {width}px: {nav}")
            tab = TAB_OF_PAGE.get(page)
            if tab and nav["current"] != [tab]:
                problems.append(f"{path}: aria-current tab is {nav['current']}, expected {tab}")
        if page.endswith("detail") and not find_all(driver, "a.back"):
            problems.append(f"{path}: no a.back")
        # A 404 page is itself a failed load, which Chromium logs.
        errors = console_errors(driver, allow_broken_images=True)
        if errors and page != "not-found":
            problems.append(f"{path}: console errors: {errors}")
    assert not problems, f"at {size} ({width}x{height}):\n" + "\n".join(problems)


def test_a_deep_link_opens_and_back_returns(phone, kiosk):
    album = first_href(phone, kiosk, "/albums", "albums", "#albums li.album a[href^='/albums/']")
    news = first_href(phone, kiosk, "/news", "news", "#news-list a.entry-link")

    open_page(phone, kiosk, album, "album-detail")  # typed in, not clicked
    assert js(phone, "return location.pathname") == album
    phone.back()
    wait_until(phone, lambda d: js(d, "return document.body.dataset.page") == "news", "back did not return to News")

    phone.get("about:blank")
    open_page(phone, kiosk, album, "album-detail")
    tap(phone, find(phone, "a.back"))
    wait_until(phone, lambda d: js(d, "return document.body.dataset.page") == "albums",
               "a.back on a deep-linked album does not lead to the albums")

    open_page(phone, kiosk, news, "news-detail")
    tap(phone, find(phone, "a.back"))
    wait_until(phone, lambda d: js(d, "return document.body.dataset.page") == "news", "a.back does not lead to News")


@pytest.mark.parametrize("path,page", [("/", "home"), ("/news", "news"), ("/albums", "albums"), ("/facts", "facts")])
def test_dark_mode_has_a_dark_background(tablet, kiosk, path, page):
    cdp(tablet, "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    open_page(tablet, kiosk, path, page)
    assert js(tablet, "return matchMedia('(prefers-color-scheme: dark)').matches")
    assert page_background_luminance(tablet) < 0.3


def test_the_entry_actions_line_up_and_read_rows_have_no_empty_indent(phone, kiosk):
    """main: the star sat about 8 px above the "Mark unread" button beside it, and a read row kept
    an empty indent where its unread dot had been."""
    entry = first_href(phone, kiosk, "/reader/feed/business", "reader-list", "#reader-list a.entry-link")
    open_page(phone, kiosk, entry, "reader-entry")
    centres = js(phone, """
        const middle = (e) => { const r = e.getBoundingClientRect(); return r.top + r.height / 2; };
        return [middle(document.querySelector('#toggle-read')),
                middle(document.querySelector('.reader-actions [data-star]')),
                middle(document.querySelector('#article-toggle'))];""")
    assert max(centres) - min(centres) <= 1.5, f"the entry's actions are not on one line: centres {centres}"

    open_page(phone, kiosk, "/reader/feed/business?show=all", "reader-list")
    wait_until(phone, lambda d: find_all(d, "#reader-list li.reader-entry.is-read"), "no read row (the entry just opened)")
    lefts = js(phone, """
        const text = (row) => { const walker = document.createTreeWalker(row.querySelector('.entry-title'), NodeFilter.SHOW_TEXT);
                                 let node; while ((node = walker.nextNode())) { if (node.textContent.trim()) {
                                   const range = document.createRange(); range.selectNodeContents(node);
                                   return range.getClientRects()[0].left; } } return null; };
        const read = document.querySelector('#reader-list li.reader-entry.is-read');
        const unread = document.querySelector('#reader-list li.reader-entry:not(.is-read)');
        return [text(read), unread.querySelector('.unread-dot').getBoundingClientRect().left];""")
    # A read title starts where an unread row's dot does: no empty indent.
    assert abs(lefts[0] - lefts[1]) <= 1.5, f"a read row's title starts {lefts[0] - lefts[1]:.1f} px in"


def test_every_tab_is_reachable_on_a_phone_in_landscape(browser, fresh_kiosk):
    """main: at 844x390 Top Albums was drawn below the window, and on Reader with five folders
    listed Discover, Facts, Jokes and Top Albums were all off screen, in a sidebar that could not
    scroll."""
    driver = browser("phone-landscape")
    folders = ["Alpha", "Bravo", "Charlie", "Delta", "Echo"]
    opml = "".join(f'<outline text="{name}"><outline text="{name} feed" '
                   f'xmlUrl="{fresh_kiosk.demo_url}/samples/{index + 40}.xml"/></outline>' for index, name in enumerate(folders))
    driver.get(fresh_kiosk.url("/reader/opml"))
    js(driver, """
        const body = '<?xml version="1.0"?><opml version="2.0"><body>' + arguments[0] + '</body></opml>';
        const form = new FormData(); form.append('file', new Blob([body], {type: 'text/xml'}), 'five.opml');
        return fetch('/reader/import', {method: 'POST', body: form}).then(r => r.status);""", opml)
    for path, page in (("/reader", "reader"), ("/", "home")):
        open_page(driver, fresh_kiosk, path, page)
        wait_until(driver, lambda d: len(find_all(d, ".tabs .sidebar-folders a")) >= 5 or page != "reader",
                   "the five folders are not listed")
        for tab in TABS:
            reachable = js(driver, """
                const link = document.querySelector('.tabs a[data-tab="' + arguments[0] + '"]');
                link.scrollIntoView({block: 'nearest'});
                const r = link.getBoundingClientRect();
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return r.bottom <= window.innerHeight && r.top >= 0 && !!hit && link.contains(hit);""", tab)
            assert reachable, f"{path}: the {tab} tab cannot be reached at 844x390"
