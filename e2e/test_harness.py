"""The harness's own promises: a live page may re-draw the element a wait is reading at any
moment, and that means "not yet", never a failure (a flaky test is a missing test).

Each test replaces the element right after the condition found it, on its first try only, so the
stale reference happens every run, not when the timing happens to line up.
"""

from harness import find_all, js, tap_when, wait_until

LIST = (
    "data:text/html,<ul id=list><li><a class=row href='#opened'>First row</a></li></ul>"
    "<script>window.redraw = () => { const ul = document.getElementById('list');"
    " ul.innerHTML = \"<li><a class=row href='#opened'>First row</a></li>\"; }</script>"
)


def test_a_row_redrawn_while_a_wait_reads_it_means_not_yet(phone):
    phone.get(LIST)
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
    phone.get(LIST)
    tries = []

    def row(d):
        rows = find_all(d, "#list a.row")
        if not tries:
            js(d, "window.redraw()")
        tries.append(1)
        return rows

    tap_when(phone, row, "the row was never tapped")
    assert len(tries) == 2
    wait_until(phone, lambda d: js(d, "return location.hash") == "#opened", "the tap did not open the row")
