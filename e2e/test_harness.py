"""The harness's own promises: a live page may re-draw the element a wait is reading at any
moment, and that means "not yet", never a failure (a flaky test is a missing test).

Each test replaces the element right after the condition found it, on its first try only, so the
stale reference happens every run, not when the timing happens to line up.
"""

from selenium.common.exceptions import WebDriverException

from harness import find_all, js, tap_when, wait_until

#: A list whose one row `window.redraw()` replaces with an equal new one, as a live update does;
#: a tap on a row counts in `window.taps`.
LIST = """
    document.body.innerHTML = '<ul id="list"></ul>';
    window.taps = 0;
    window.redraw = () => {
        const a = document.createElement('a');
        a.className = 'row'; a.href = 'javascript:void 0'; a.textContent = 'First row';
        a.addEventListener('click', () => { window.taps += 1; });
        const li = document.createElement('li');
        li.append(a);
        document.getElementById('list').replaceChildren(li);
    };
    window.redraw();
"""


def load_list(driver):
    driver.get("about:blank")
    js(driver, LIST)


def test_a_row_redrawn_while_a_wait_reads_it_means_not_yet(phone):
    load_list(phone)
    tries = []

    def title(d):
        rows = find_all(d, "#list a.row")
        if not tries:
            js(d, "window.redraw()")  # a live update lands between finding and reading
        tries.append(1)
        return rows[0].text

    assert wait_until(phone, title, "the row never read") == "First row"
    assert len(tries) == 2, "the stale row was read as it was"


def test_a_row_redrawn_before_the_tap_is_found_again_and_tapped(phone):
    load_list(phone)
    tries = []

    def row(d):
        rows = find_all(d, "#list a.row")
        if not tries:
            js(d, "window.redraw()")
        tries.append(1)
        return rows

    tap_when(phone, row, "the row was never tapped")
    assert len(tries) == 2
    assert js(phone, "return window.taps") == 1, "the row was not tapped once"


def test_an_element_read_while_its_page_is_replaced_means_not_yet(phone):
    """Chromium may answer "Node with given id does not belong to the document" rather than a
    stale reference for an element read during a navigation: not yet, too."""
    tries = []

    def gone(_):
        tries.append(1)
        if len(tries) == 1:
            raise WebDriverException("unknown error: unhandled inspector error: "
                                     '{"code":-32000,"message":"Node with given id does not belong to the document"}')
        return "read"

    assert wait_until(phone, gone, "never read") == "read"
    assert len(tries) == 2
