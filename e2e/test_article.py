"""The reader view: "Full article" on a News detail and a Reader entry fetches the entry's page
(the demo server's sample article), shows it in place with its lead image through the proxy,
leaves the site's menus and footer out, and goes back to the summary; a page that cannot be read
says why and keeps the summary."""

from harness import LIVE_WAIT, find, find_all, js, open_page, tap, tap_when, text_of, token, wait_until


def open_entry(driver, server, title):
    open_page(driver, server, "/news?feed=business", "news")
    tap_when(driver, lambda d: [a for a in find_all(d, "#news-list li.entry a.entry-link") if title in a.text],
             f"no row {title!r}", timeout=LIVE_WAIT)
    wait_until(driver, lambda d: js(d, "return document.body.dataset.page") == "news-detail", "no detail page")


def test_full_article_in_place_and_back(phone, kiosk, no_console_errors):
    title = f"Ferry library {token()}"
    kiosk.advance("business", title=title, description="Two sentences of summary.",
                  link=f"{kiosk.demo_url}/sites/story/")
    open_entry(phone, kiosk, title)
    assert text_of(phone, "#entry-description") == "Two sentences of summary."
    tap(phone, find(phone, "#article-toggle"))
    wait_until(phone, lambda d: find_all(d, "#entry-article"), "no article shown")
    article = text_of(phone, "#entry-article")
    assert "four thousand books" in article
    assert "A library that moves twice a year" in article
    assert "Lifeboat crew" not in article and "Privacy" not in article, "the site's furniture came along"
    lead = find(phone, ".article-lead img")
    assert lead.get_attribute("src").startswith(f"{kiosk.base_url}/img?"), lead.get_attribute("src")
    wait_until(phone, lambda d: js(d, "return document.querySelector('.article-lead img').naturalWidth") > 0,
               "the lead image did not load")
    assert find(phone, "#article-toggle").text.strip() == "Summary"
    no_console_errors(phone, "on a full article")
    tap(phone, find(phone, "#article-toggle"))
    wait_until(phone, lambda d: not find_all(d, "#entry-article"), "the summary did not come back")
    assert text_of(phone, "#entry-description") == "Two sentences of summary."


def test_a_page_that_cannot_be_read_says_why(phone, kiosk):
    title = f"Gone page {token()}"
    kiosk.advance("business", title=title, description="Only the summary.", link=f"{kiosk.demo_url}/sites/gone/")
    open_entry(phone, kiosk, title)
    tap(phone, find(phone, "#article-toggle"))
    wait_until(phone, lambda d: find_all(d, "#article-status"), "no reason shown")
    assert text_of(phone, "#article-status") == "Kiosk could not show the full article: the page is gone (HTTP 404)."
    assert "Only the summary." in text_of(phone, "#entry-description")
