"""Content hygiene on News: a title that looks like HTML keeps its words in the list and the
detail page; a description loses FeedBurner's feedflare and empty links, and a `javascript:` link
shows as its text, not as a link."""

from harness import LIVE_WAIT, find_all, js, open_page, text_of, token, wait_live, wait_until

ROWS = """
    return [...document.querySelectorAll('#news-list li.entry')].map(li => {
        const a = li.querySelector('a.entry-link'), t = li.querySelector('.entry-title');
        return {title: t ? t.innerText.trim() : '', href: a ? a.getAttribute('href') : null};
    });
"""

# Every link in the description: its href as written, its text, whether it holds an image.
DESCRIPTION_LINKS = """
    return [...document.querySelectorAll('#entry-description a')].map(a => ({
        href: a.getAttribute('href'), text: a.textContent.trim(), image: !!a.querySelector('img')}));
"""


def row_with(driver, mark):
    """The News row whose title contains `mark`, once it is there."""
    return wait_until(driver, lambda d: next((r for r in js(d, ROWS) if mark in r["title"]), None),
                      f"no entry with {mark!r} in #news-list", timeout=LIVE_WAIT)


def open_detail(driver, server, href):
    open_page(driver, server, href, "news-detail")


def assert_only_real_links(driver, where):
    for link in js(driver, DESCRIPTION_LINKS):
        assert (link["href"] or "").startswith(("http://", "https://", "mailto:")), f"{where}: {link}"
        assert "~ff/" not in link["href"], f"{where}: a feedflare link {link}"
        assert link["text"] or link["image"], f"{where}: an empty link {link}"


def test_a_title_that_looks_like_html_keeps_its_words(phone, kiosk):
    mark = token()
    # As written (no end tag, no reference: RSS plain text), and read as HTML (a reference in it),
    # where the unclosed <svg> used to swallow every word after it.
    plain = f"Hello <svg onload=x> world {mark}p"
    html = f"Hello <svg onload=x> world &amp; {mark}h"
    open_page(phone, kiosk, "/news", "news")
    wait_live(phone)
    kiosk.advance("business", title=plain)
    kiosk.advance("business", title=html)
    for suffix in ("p", "h"):
        row = row_with(phone, mark + suffix)
        assert "Hello" in row["title"] and "world" in row["title"], row
    assert js(phone, "return document.querySelectorAll('#news-list svg, #news-list [onload]').length") == 0

    for suffix in ("p", "h"):
        open_detail(phone, kiosk, row_with(phone, mark + suffix)["href"])
        title = text_of(phone, "h1#entry-title")
        assert "Hello" in title and "world" in title and mark + suffix in title, title
        assert title != "Untitled"
        assert js(phone, "return document.querySelectorAll('h1#entry-title *').length") == 0, "markup in the title"
        open_page(phone, kiosk, "/news", "news")


def test_a_description_loses_tracking_and_javascript_links(phone, kiosk):
    mark = token()
    title = f"E2E hygiene {mark}"
    description = (f'<p>Story {mark}.</p><a href="http://feeds.reuters.com/~ff/x"></a>'
                   '<a href="javascript:alert(1)">click</a> text')
    open_page(phone, kiosk, "/news", "news")
    wait_live(phone)
    kiosk.advance("business", title=title, description=description)
    open_detail(phone, kiosk, row_with(phone, mark)["href"])

    text = text_of(phone, "#entry-description")
    assert f"Story {mark}." in text and "click" in text and "text" in text, text
    assert js(phone, DESCRIPTION_LINKS) == [], "a link is left in #entry-description"
    assert js(phone, "return document.querySelectorAll('#entry-description a:not([href])').length") == 0
    assert "javascript:" not in js(phone, "return document.getElementById('entry-description').innerHTML")


def test_reuters_entries_have_no_feedflare_links(phone, kiosk):
    open_page(phone, kiosk, "/news", "news")
    rows = wait_until(phone, lambda d: js(d, ROWS), "no entries in #news-list")
    # The oldest rows are the captured Reuters items, each with its feedflare block.
    for row in rows[-3:]:
        open_detail(phone, kiosk, row["href"])
        assert text_of(phone, "#entry-description"), f"{row}: empty #entry-description"
        assert not find_all(phone, '#entry-description a[href*="~ff/"]'), f"{row}: a feedflare link"
        assert not find_all(phone, 'a[href*="~ff/"]'), f"{row}: a feedflare link on the page"
        assert_only_real_links(phone, row["title"])
