"""Rules, as a reader uses them: written with the live preview, saved, then sorting a new demo
entry before any open tab sees it; applied to the entries already there, asked first and undone."""

from __future__ import annotations

from harness import (
    LIVE_WAIT, count, find, find_all, is_shown, js, open_page, settle, tap, tap_when, text_of, token, wait_live, wait_until,
)

# Records, for every reader row a page ever shows, its state when it first appeared (the live
# updates replace rows at any moment; what matters is that none was ever drawn unsorted).
WATCH_ROWS = """
    window.kioskFirstSeen = {};
    const note = (li) => {
        const title = li.querySelector('.entry-title')?.innerText.trim() || '';
        if (title in window.kioskFirstSeen) return;
        window.kioskFirstSeen[title] = {
            read: li.classList.contains('is-read'),
            starred: li.querySelector('button[data-star]')?.getAttribute('aria-pressed') === 'true',
            labels: [...li.querySelectorAll('.label-chip')].map(chip => chip.dataset.label)};
    };
    document.querySelectorAll('#reader-list > li.reader-entry').forEach(note);
    new MutationObserver((changes) => {
        for (const change of changes) for (const node of change.addedNodes) {
            if (!(node instanceof Element)) continue;
            if (node.matches('li.reader-entry')) note(node);
            node.querySelectorAll?.('li.reader-entry').forEach(note);
        }
    }).observe(document.body, {childList: true, subtree: true});
"""


def first_seen(driver, title):
    return js(driver, "return (window.kioskFirstSeen || {})[arguments[0]] || null", title)


def starred_count(server):
    return server.get("/reader/counts").json()["starred"]


def stored(server, word):
    """Whether an entry with `word` in its title is in the owner's reader yet."""
    return word.lower() in server.get("/reader/all").text.lower()


def rule_text(driver, words):
    """The text of the listed rule whose text has `words` ("" when there is none)."""
    return js(driver, """
        const rule = [...document.querySelectorAll('#rules > li.rule')].find(li => li.innerText.includes(arguments[0]));
        return rule ? rule.innerText : '';""", words)


def test_a_rule_written_with_its_preview_sorts_a_new_entry_before_any_tab_sees_it(browser, frozen_kiosk):
    marker = f"gale{token()}"
    frozen_kiosk.advance("business", title=f"First {marker} warning for the coast")
    wait_until(None, lambda _: stored(frozen_kiosk, marker), "the first entry was never stored", LIVE_WAIT)

    phone = browser("phone")
    open_page(phone, frozen_kiosk, "/reader/rules/new", "reader-rule-form")
    query = find(phone, "#rule-query")
    query.send_keys(f"intitle:{marker}")
    # The preview follows the typing: the count under the field, the newest entries under the form.
    wait_until(phone, lambda d: text_of(d, "#rule-count").startswith("Matches 1 of your"),
               f"the preview says {text_of(phone, '#rule-count')!r}")
    assert marker in text_of(phone, "#rule-matches").lower()
    query.send_keys(' "x')
    wait_until(phone, lambda d: "closing quote missing" in text_of(d, "#rule-query-error"),
               "a query that does not read was not explained under the field")
    assert query.get_attribute("aria-invalid") == "true"
    query.send_keys("\b\b\b")
    wait_until(phone, lambda d: not is_shown(d, "#rule-query-error"), "the error stayed after the query was mended")
    tap(phone, find(phone, "#rule-action-star"))  # mark read (the default) and star
    label = f"Gales {marker[-4:]}"
    find(phone, "#rule-label").send_keys(label)  # and label
    tap(phone, find(phone, "#save-rule"))
    wait_until(phone, lambda d: "/reader/rules" in d.current_url and marker in rule_text(d, marker),
               f"saving did not list the rule: {phone.current_url}")
    assert f"Mark read, Star, Label “{label}”" in rule_text(phone, marker)
    # Demo mode's example rules are there to try, paused.
    for example in ("Storms, floods and quakes", "Awards season, read", "Markets, quietly"):
        assert "Paused" in rule_text(phone, example), example

    # Four tabs open: the feed's whole list, its folder's, All unread and Reader's home, where
    # demo mode's example saved search is a reading list. A new entry arrives.
    tablet = browser("tablet")
    folder = browser("tablet")
    home = browser("phone")
    open_page(tablet, frozen_kiosk, "/reader/feed/business?show=all", "reader-list")
    open_page(folder, frozen_kiosk, "/reader/folder/News?show=all", "reader-list")
    open_page(phone, frozen_kiosk, "/reader/all", "reader-list")
    open_page(home, frozen_kiosk, "/reader", "reader")
    assert "Climate and energy" in text_of(home, "#reader-home .streams"), text_of(home, "#reader-home .streams")
    wait_live(home)
    for driver in (tablet, folder, phone):
        wait_live(driver)
        js(driver, WATCH_ROWS)
    before = starred_count(frozen_kiosk)
    title = f"Second {marker} warning inland"
    frozen_kiosk.advance("business", title=title)
    # The feed's and the folder's whole lists say new entries arrived; shown, the entry is drawn
    # as the rule left it in both.
    for driver in (tablet, folder):
        tap_when(driver, lambda d: find(d, "#show-new") if is_shown(d, "#show-new") else None,
                 f"{driver.current_url} did not say new entries arrived", LIVE_WAIT)
        wait_until(driver, lambda d: first_seen(d, title), f"the new entry never reached {driver.current_url}")
        assert first_seen(driver, title) == {"read": True, "starred": True, "labels": [label]}, first_seen(driver, title)
    wait_until(None, lambda _: starred_count(frozen_kiosk) == before + 1, "the rule did not star the new entry")
    # Reader's home lists the new label at once, with its count (the entry is read: 0 unread).
    wait_until(home, lambda d: label in text_of(d, "#reader-home .streams"), "the home list never showed the new label")
    tap(home, [a for a in find_all(home, "#reader-home a.stream") if label in a.text][0])
    wait_until(home, lambda d: title in text_of(d, "#reader-list"), "the label's list does not have the entry")
    # All unread never showed it, nor said anything new arrived (given a moment to go wrong).
    settle(2)
    assert not is_shown(phone, "#reader-new"), text_of(phone, "#reader-new")
    assert first_seen(phone, title) is None, first_seen(phone, title)
    # An entry no rule touches is new to it, and it says so.
    plain = f"Calm {token()} weather ahead"
    frozen_kiosk.advance("business", title=plain)
    tap_when(phone, lambda d: find(d, "#show-new") if is_shown(d, "#show-new") else None,
             "All unread did not say an unread entry arrived", LIVE_WAIT)
    wait_until(phone, lambda d: first_seen(d, plain), "the unread entry was not shown")
    assert first_seen(phone, plain) == {"read": False, "starred": False, "labels": []}, first_seen(phone, plain)
    open_page(phone, frozen_kiosk, "/reader/rules", "reader-rules")
    assert "Matched 1 entry in the last 7 days" in rule_text(phone, marker)


def test_a_rule_applied_to_existing_entries_asks_first_and_can_be_undone(browser, frozen_kiosk):
    marker = f"breeze{token()}"
    frozen_kiosk.advance("environment", title=f"A {marker} over the hills")
    wait_until(None, lambda _: stored(frozen_kiosk, marker), "the entry was never stored", LIVE_WAIT)
    phone = browser("phone")
    open_page(phone, frozen_kiosk, "/reader/rules/new", "reader-rule-form")
    find(phone, "#rule-query").send_keys(f"intitle:{marker}")
    wait_until(phone, lambda d: text_of(d, "#rule-count").startswith("Matches 1 of your"), "no preview")
    tap(phone, find(phone, "#save-rule"))
    wait_until(phone, lambda d: count(d, "#rules > li.rule") >= 1, "the rule was not saved")
    rule = [r for r in phone.find_elements("css selector", "#rules > li.rule") if marker in r.text][0]
    tap(phone, rule.find_element("link text", "Apply to existing…"))
    wait_until(phone, lambda d: is_shown(d, "#apply-question"), "no question before applying")
    assert text_of(phone, "#apply-question").startswith("Mark 1 of your"), text_of(phone, "#apply-question")

    def unread_has_it(_=None):
        return marker in frozen_kiosk.get("/reader/all").text

    assert unread_has_it()
    tap(phone, find(phone, "#confirm-apply"))
    wait_until(phone, lambda d: "changed 1 entry" in text_of(d, "#rules-message"), "no sentence after applying")
    assert not unread_has_it()
    tap(phone, find(phone, "#undo-rule"))
    wait_until(phone, lambda d: text_of(d, "#rules-message") == "Undone.", "undo said nothing")
    assert unread_has_it()


def unread_count(server):
    return server.get("/reader/counts").json()["all"]


def test_an_entry_a_rule_hides_is_in_no_list_or_count_but_hidden(browser, frozen_kiosk):
    marker = f"promo{token()}"
    phone = browser("phone")
    open_page(phone, frozen_kiosk, "/reader/rules/new", "reader-rule-form")
    find(phone, "#rule-query").send_keys(f"intitle:{marker}")
    tap(phone, find(phone, "#rule-action-read"))  # off: hiding marks it read by itself
    tap(phone, find(phone, "#rule-action-hide"))
    tap(phone, find(phone, "#save-rule"))
    wait_until(phone, lambda d: "Hide" in rule_text(d, marker), "the hiding rule was not saved")

    tablet = browser("tablet")
    open_page(tablet, frozen_kiosk, "/reader/feed/business?show=all", "reader-list")
    open_page(phone, frozen_kiosk, "/reader/all", "reader-list")
    for driver in (tablet, phone):
        wait_live(driver)
        js(driver, WATCH_ROWS)
    before = unread_count(frozen_kiosk)
    title = f"Sponsored {marker} offer"
    frozen_kiosk.advance("business", title=title)
    wait_until(None, lambda _: title in frozen_kiosk.get("/reader/hidden").text, "the entry never reached Hidden",
               LIVE_WAIT)
    settle(2)
    for driver in (tablet, phone):
        if is_shown(driver, "#show-new"):
            tap(driver, find(driver, "#show-new"))
            settle(1)
        assert first_seen(driver, title) is None, first_seen(driver, title)
    assert unread_count(frozen_kiosk) == before
    open_page(phone, frozen_kiosk, "/reader", "reader")
    tap(phone, [a for a in find_all(phone, "#reader-home a.stream") if "Hidden" in a.text][0])
    wait_until(phone, lambda d: title in text_of(d, "#reader-list"), "Hidden does not list the entry")
