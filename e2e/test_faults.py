"""The fault suite: every way the sample server can make a source misbehave (`DemoFault`), seen
by a reader of the merged News list on a phone.

For each mode, with the fault on `entertainment`:
(a) its error line appears in `.feed-status` within one check, in words a reader understands
    (the source's name and a reason, nothing from the code's insides);
(b) the entertainment rows shown before are all still shown, and nothing garbled appears;
(c) `environment`, in the same list, still updates while entertainment is faulty;
(d) once healed, entertainment's next check brings its new entry and removes the error line;
and the server stays healthy all along. Each test heals the sources when it ends, pass or fail.

The server is the module's own, frozen (`--demo-frozen`): its feeds change only through
`advance`, so the rows before and during a fault can be compared exactly.
"""

from __future__ import annotations

import re
import time
import urllib.parse

import pytest

import harness
from harness import LIVE_WAIT, find_all, http, is_shown, js, open_page, token, wait_live, wait_until
from test_news import MERGED, entries, wait_for_title

#: Every built-in source is checked every 5 s (`PolledSource`'s default interval).
INTERVAL = 5.0
#: A check's request timeout: the engine's `FetchRequest` uses the default, 15 s.
TIMEOUT = 15.0
#: Entertainment answers after 0.8 s in demo mode (`DemoConfiguration.defaultLatencies`).
LATENCY = 0.8
#: After n failures in a row the next check waits interval x 2^n, give or take 20 % (`Backoff`).
BACKOFF_JITTER = 1.2
#: For a noisy 2-core machine.
MARGIN = 10.0

#: One check: the next one starts within an interval, and fails at the latest at its timeout.
ERROR_WITHIN = INTERVAL + TIMEOUT + LATENCY + MARGIN
#: The check after healing: the backoff wait after (at most) two failures, plus a check that
#: was already under way when the source healed (a timeout at worst), plus its latency.
RECOVERY_WITHIN = INTERVAL * 4 * BACKOFF_JITTER + TIMEOUT + LATENCY + MARGIN

#: What each fault must read as in the error line (FetchError / SourceError descriptions).
#: The server's own list of modes is checked against these keys below.
REASONS: dict[str, str] = {
    "slowBody": r"did not answer in time",
    "serverError": r"HTTP 500",
    "connectionReset": r"network error: .*(connection|closed)",
    "garbageBody": r"unreadable answer",
    "oversizedBody": r"larger than \d+ MB",
    "redirectLoop": r"too many redirects",
    "neverAnswer": r"did not answer in time",
    "tlsDowngrade": r"the secure connection failed",
}
FAULT_MODES = list(REASONS)

#: What a reader should never see in an error line: the code's insides.
INSIDES = re.compile(r"\.swift\b|\bNIO\w*|HTTPClientError|BoringSSL|\berrno\b|0x[0-9a-fA-F]{4,}|\w+Error\(")
LINE = re.compile(r"^Entertainment could not be refreshed \((?P<reason>.+)\); showing the last news received\.$")

ERROR_LINE = """
    const status = document.querySelector('.feed-status[data-sources~="' + arguments[0] + '"]');
    const line = status && !status.hidden ? status.querySelector('span[data-source="' + arguments[0] + '"]') : null;
    return line ? line.innerText.trim() : '';
"""

LAYOUT = """
    const banner = document.querySelector('.feed-status'), list = document.getElementById('news-list');
    const b = banner.getBoundingClientRect(), first = list.querySelector('li.entry');
    const f = first ? first.getBoundingClientRect() : null;
    return {banner: [b.left, b.top, b.right, b.bottom], width: innerWidth, height: innerHeight,
            position: getComputedStyle(banner).position, overflows: banner.scrollWidth > banner.clientWidth + 1,
            first: f ? [f.left, f.top, f.right, f.bottom] : null};
"""


def error_line(driver, source: str = "entertainment") -> str:
    return js(driver, ERROR_LINE, source)


def shown_rows(driver, source: str = "entertainment") -> dict[str, str]:
    """key -> title of the rows of `source` in the list."""
    return {e["key"]: e["title"] for e in entries(driver) if e["source"] == source}


def garbled(text: str) -> str | None:
    """Why `text` looks garbled, or None: replacement or control characters, or a run of
    non-ASCII characters (what random high bytes read as Latin-1 or UTF-8 look like)."""
    if "\ufffd" in text:
        return "a replacement character"
    if re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", text):
        return "a control character"
    if re.search(r"[^\x00-\x7f\s]{3,}", text):
        return "a run of non-ASCII characters"
    return None


def healthy(server) -> None:
    reply = server.get("/healthz")
    assert reply.status == 200, f"/healthz answered {reply.status}: {reply.text[:200]}"


@pytest.fixture(scope="module")
def module_phone():
    """One phone for the module: a browser per mode would cost more than the checks it waits on."""
    driver = harness.make_driver("phone")
    yield driver
    try:
        driver.quit()
    except Exception:  # a crashed browser must not hide the tests' own results
        pass


@pytest.fixture
def news(module_phone, frozen_kiosk, request):
    """The merged News list open and live on the phone, entertainment healthy; the sources are
    healed afterwards (`frozen_kiosk`), pass or fail."""
    request.node._kiosk_drivers = [module_phone]  # screenshot and page source on failure
    harness.console_errors(module_phone)  # drop what an earlier test left
    open_page(module_phone, frozen_kiosk, f"/news?feed={MERGED}", "news")
    wait_live(module_phone)
    # Both feeds of the list in (environment answers 2 s after a fresh server's start).
    wait_until(module_phone, lambda d: len(shown_rows(d)) >= 10 and shown_rows(d, "environment"),
               "the merged list never had both feeds' rows", LIVE_WAIT)
    # A test that failed half-way healed its source when it ended; wait out that recovery.
    wait_until(module_phone, lambda d: not error_line(d),
               f"entertainment still failing at the start: {error_line(module_phone)!r}", RECOVERY_WITHIN)
    return module_phone


def test_the_suite_covers_every_fault_mode_of_the_server(frozen_kiosk):
    """The server lists its modes when asked for one it does not know (`DemoFault.allCases`)."""
    query = urllib.parse.urlencode({"source": "entertainment", "mode": "no-such-mode"})
    reply = http("POST", f"{frozen_kiosk.demo_url}/_demo/fault?{query}")
    assert reply.status == 400, reply.text
    listed = [name.strip() for name in reply.text.split(":", 1)[1].split(",")]
    assert "none" in listed, reply.text
    assert sorted(listed) == sorted(FAULT_MODES + ["none"]), \
        f"the server's modes {listed} are not the suite's {FAULT_MODES} + none"


@pytest.mark.parametrize("mode", FAULT_MODES)
def test_a_faulty_source_keeps_its_news_shows_why_and_heals(mode, news, frozen_kiosk, no_console_errors):
    server, phone = frozen_kiosk, news
    before = shown_rows(phone)
    healthy(server)

    server.fault("entertainment", mode)
    faulty_since = time.monotonic()
    elsewhere = f"E2E {mode} environment {token()}"
    server.advance("environment", title=elsewhere)

    # (a) the error line, within one check, in words a reader understands.
    line = wait_until(phone, lambda d: error_line(d),
                      f"{mode}: no error line for entertainment", ERROR_WITHIN)
    shown_after = time.monotonic() - faulty_since
    match = LINE.match(line)
    assert match, f"{mode}: the error line reads {line!r}"
    reason = match.group("reason")
    assert re.search(REASONS[mode], reason), f"{mode}: the reason {reason!r} does not say {REASONS[mode]!r}"
    assert not INSIDES.search(line), f"{mode}: the error line shows the code's insides: {line!r}"
    assert not garbled(line), f"{mode}: the error line has {garbled(line)}: {line!r}"
    assert len(line) <= 300, f"{mode}: a {len(line)}-character error line"
    assert is_shown(phone, '.feed-status span[data-source="entertainment"]'), f"{mode}: the error line is hidden"
    layout = js(phone, LAYOUT)
    left, top, right, bottom = layout["banner"]
    assert left >= 0 and right <= layout["width"] and not layout["overflows"], f"{mode}: banner overflows: {layout}"
    assert layout["position"] in ("static", "relative"), f"{mode}: the banner floats over the list: {layout}"
    assert layout["first"] and bottom <= layout["first"][1] + 0.5, f"{mode}: the banner covers the list: {layout}"
    assert layout["first"][1] < layout["height"], f"{mode}: the banner pushes every row off screen: {layout}"
    phone.save_screenshot(str(harness.artifacts_dir() / f"faults-news-{mode}.png"))

    # (c) the other source of the list goes on: its new entry arrives while entertainment fails.
    wait_for_title(phone, elsewhere, timeout=LIVE_WAIT)
    assert error_line(phone), f"{mode}: entertainment's error line went away while the fault is on"
    assert not error_line(phone, "environment"), f"{mode}: environment fails too: {error_line(phone, 'environment')!r}"

    # (b) the last good news is kept, as it was: the same rows, nothing garbled, nothing more.
    during = shown_rows(phone)
    missing = {key: title for key, title in before.items() if during.get(key) != title}
    assert not missing, f"{mode}: {len(missing)} rows shown before are gone or changed: {missing}"
    assert during == before, f"{mode}: rows appeared during the fault: {set(during) - set(before)}"
    for title in [e["title"] for e in entries(phone)]:
        assert not garbled(title), f"{mode}: a row has {garbled(title)}: {title!r}"
    healthy(server)

    # (d) healed: the next check brings entertainment's new entry and clears the line.
    server.fault("entertainment", "none")
    healed_since = time.monotonic()
    fresh = f"E2E {mode} healed {token()}"
    server.advance("entertainment", title=fresh)
    wait_for_title(phone, fresh, timeout=RECOVERY_WITHIN)
    wait_until(phone, lambda d: not error_line(d),
               f"{mode}: the error line stayed after the source healed: {error_line(phone)!r}", MARGIN)
    recovered_after = time.monotonic() - healed_since
    assert [e["source"] for e in entries(phone) if e["title"] == fresh] == ["entertainment"]
    assert set(before) <= set(shown_rows(phone)), f"{mode}: rows lost on recovery"
    left_over = [line.text for line in find_all(phone, ".feed-status span")]
    assert not left_over, f"{mode}: error lines left after healing: {left_over}"
    healthy(server)
    no_console_errors(phone, f"during {mode}")
    print(f"{mode}: error shown after {shown_after:.1f} s, recovered {recovered_after:.1f} s after healing")
