"""Labels, as a reader uses them: put on from an entry's page, seen at once in another tab's
list, a reading list of their own with a count, `l` on a list's focused row, taken off again."""

from __future__ import annotations

from selenium.webdriver.common.keys import Keys

from harness import (
    LIVE_WAIT, find, find_all, is_shown, js, open_page, tap, text_of, token, wait_live, wait_until,
)


def chips(driver, entry_id):
    return js(driver, """
        const list = document.querySelector(`ul.label-chips[data-labels-for="${arguments[0]}"]`);
        return list ? [...list.querySelectorAll('.label-chip')].map(chip => chip.dataset.label) : null;""", entry_id)


def stored(server, word):
    return word.lower() in server.get("/reader/feed/business?show=all").text.lower()


def test_a_label_put_on_in_one_tab_shows_in_another_and_is_a_reading_list(browser, frozen_kiosk):
    title = f"Harbour {token()} report"
    frozen_kiosk.advance("business", title=title)
    wait_until(None, lambda _: stored(frozen_kiosk, title), "the entry was never stored", LIVE_WAIT)
    tablet = browser("tablet")
    phone = browser("phone")
    open_page(tablet, frozen_kiosk, "/reader/feed/business?show=all", "reader-list")
    wait_live(tablet)
    row = [li for li in find_all(tablet, "#reader-list > li.reader-entry") if title in li.text][0]
    entry_id = row.get_attribute("data-id")
    path = row.find_element("css selector", "a.entry-link").get_attribute("pathname")
    assert chips(tablet, entry_id) == []

    open_page(phone, frozen_kiosk, path, "reader-entry")
    wait_live(phone)
    label = f"Follow up {token()[:4]}"
    field = find(phone, "#label-form-name")
    field.send_keys(label + Keys.ENTER)
    wait_until(phone, lambda d: chips(d, entry_id) == [label], f"the chip did not appear: {chips(phone, entry_id)}")
    assert field.get_attribute("value") == ""
    # The other tab's row shows it without a reload.
    wait_until(tablet, lambda d: chips(d, entry_id) == [label],
               f"the other tab never showed the label: {chips(tablet, entry_id)}", LIVE_WAIT)

    # The label is a reading list on Reader's home, with its count (the entry was read on opening).
    open_page(phone, frozen_kiosk, "/reader", "reader")
    link = [a for a in find_all(phone, "#reader-home a.stream") if label in a.text][0]
    tap(phone, link)
    wait_until(phone, lambda d: title in text_of(d, "#reader-list"), "the label's list does not list the entry")

    # `l` on the tablet's focused row: the dialog adds a second label.
    js(tablet, """
        const row = document.querySelector(`li.reader-entry[data-id="${arguments[0]}"]`);
        document.querySelectorAll('#reader-list > li.is-current').forEach(li => li.classList.remove('is-current'));
        row.classList.add('is-current'); row.querySelector('a.entry-link').focus();""", entry_id)
    find(tablet, "body").send_keys("l")
    wait_until(tablet, lambda d: is_shown(d, "#label-dialog"), "l did not open the label dialog")
    find(tablet, "#label-dialog-form-name").send_keys("Later" + Keys.ENTER)
    wait_until(tablet, lambda d: not is_shown(d, "#label-dialog"), "the dialog stayed open")
    wait_until(tablet, lambda d: chips(d, entry_id) == [label, "Later"], f"the row shows {chips(tablet, entry_id)}")

    # On a phone, without a keyboard: the row's own "Add a label" opens the same dialog.
    open_page(phone, frozen_kiosk, "/reader/feed/business?show=all", "reader-list")
    tap(phone, find(phone, f'li.reader-entry[data-id="{entry_id}"] [data-label-ask]'))
    wait_until(phone, lambda d: is_shown(d, "#label-dialog"), "the row's label button did not open the dialog")
    assert "/reader/feed/business" in phone.current_url, phone.current_url
    find(phone, "#label-dialog-form-name").send_keys("Phone" + Keys.ENTER)
    wait_until(phone, lambda d: chips(d, entry_id) == [label, "Later", "Phone"], f"the row shows {chips(phone, entry_id)}")

    # Taken off on the entry's page: gone from the other tab too.
    open_page(phone, frozen_kiosk, path, "reader-entry")
    wait_live(phone)
    tap(phone, [b for b in find_all(phone, "button.label-remove") if b.get_attribute("data-label-remove") == label][0])
    wait_until(phone, lambda d: chips(d, entry_id) == ["Later", "Phone"], f"the chip stayed: {chips(phone, entry_id)}")
    wait_until(tablet, lambda d: chips(d, entry_id) == ["Later", "Phone"], f"the other tab kept it: {chips(tablet, entry_id)}",
               LIVE_WAIT)
