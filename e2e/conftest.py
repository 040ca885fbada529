"""Fixtures of the browser tests: the real server in demo mode and headless Chromium drivers.

- `kiosk`: the session's server (owner "Ada Lovelace", NewsAPI configured by demo mode); the
  sample sources are healed and their latencies reset after every test.
- `kiosk_unconfigured`: a second server whose NewsAPI key is "" (not configured), per module.
- `fresh_kiosk`: a server of its own for the module (tests that need an untouched state).
- `frozen_kiosk`: a server of the module's own whose sample feeds change only through `advance`
  (tests that compare lists before and after); healed after every test.
- `browser(size)`: a new driver of one of harness.SIZES, quit after the test; `phone` and
  `tablet` are the usual two.
On failure the report carries the tail of every running server's log, and a screenshot and the
page source of every driver go to $TMPDIR/kiosk-e2e-artifacts/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Iterator

import pytest

import harness
from harness import KioskServer, WebDriver

_running: list[KioskServer] = []


@pytest.fixture(scope="session")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("kiosk-e2e")


def _serve(name: str, workdir: Path, **config) -> Iterator[KioskServer]:
    server = harness.start_server(name, workdir, **config)
    _running.append(server)
    try:
        yield server
    finally:
        _running.remove(server)
        server.stop()


@pytest.fixture(scope="session")
def kiosk_server(workdir: Path) -> Iterator[KioskServer]:
    """The session's server: `kiosk --demo` with ownerName "Ada Lovelace"."""
    yield from _serve("main", workdir)


@pytest.fixture
def kiosk(kiosk_server: KioskServer) -> Iterator[KioskServer]:
    """The session's server, its sample sources healed and back to default latencies afterwards."""
    yield kiosk_server
    if kiosk_server.running:
        kiosk_server.reset()


@pytest.fixture(scope="module")
def kiosk_unconfigured(workdir: Path, request: pytest.FixtureRequest) -> Iterator[KioskServer]:
    """A server whose NewsAPI key is configured empty: "not configured", even in demo mode."""
    yield from _serve(f"no-newsapi-{_module_name(request)}", workdir, newsAPIKey="")


@pytest.fixture(scope="module")
def fresh_kiosk(workdir: Path, request: pytest.FixtureRequest) -> Iterator[KioskServer]:
    """A server of the module's own, for tests that need state no other test touched."""
    yield from _serve(f"fresh-{_module_name(request)}", workdir)


@pytest.fixture(scope="module")
def frozen_kiosk_server(workdir: Path, request: pytest.FixtureRequest) -> Iterator[KioskServer]:
    """A server of the module's own with `--demo-frozen`: its feeds change only through `advance`."""
    yield from _serve(f"frozen-{_module_name(request)}", workdir, frozen=True)


@pytest.fixture
def frozen_kiosk(frozen_kiosk_server: KioskServer) -> Iterator[KioskServer]:
    """The module's frozen server, its sample sources healed and latencies reset after every test."""
    yield frozen_kiosk_server
    if frozen_kiosk_server.running:
        frozen_kiosk_server.reset()


def _module_name(request: pytest.FixtureRequest) -> str:
    return re.sub(r"\W+", "-", request.module.__name__)


@pytest.fixture
def browser(request: pytest.FixtureRequest) -> Iterator[Callable[[str], WebDriver]]:
    """`browser("tablet")` makes a driver of that size; every one made is quit after the test."""
    drivers: list[WebDriver] = []
    request.node._kiosk_drivers = drivers  # read by the failure hook below

    def make(size: str = "phone", profile: Path | None = None) -> WebDriver:
        driver = harness.make_driver(size, profile=profile)
        drivers.append(driver)
        return driver

    yield make
    for driver in drivers:
        try:
            driver.quit()
        except Exception:  # a crashed browser must not hide the test's own result
            pass


@pytest.fixture
def phone(browser) -> WebDriver:
    """A phone, 390x844 portrait, touch."""
    return browser("phone")


@pytest.fixture
def tablet(browser) -> WebDriver:
    """A tablet, 820x1180 portrait, touch."""
    return browser("tablet")


@pytest.fixture
def no_console_errors() -> Callable[..., None]:
    """`no_console_errors(driver, where)` fails on SEVERE browser log entries since the last read."""

    def check(driver: WebDriver, where: str = "", *, allow_broken_images: bool = False) -> None:
        errors = harness.console_errors(driver, allow_broken_images=allow_broken_images)
        assert not errors, f"console errors {where}:\n" + "\n".join(errors)

    return check


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    for server in list(_running):
        state = "running" if server.running else "NOT RUNNING"
        report.sections.append((f"kiosk server '{server.name}' ({state}) log", server.log_tail()))
    saved = []
    for index, driver in enumerate(getattr(item, "_kiosk_drivers", [])):
        stem = harness.artifacts_dir() / f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', item.nodeid)}-{call.when}-{index}"
        try:
            driver.save_screenshot(str(stem) + ".png")
            Path(str(stem) + ".html").write_text(driver.page_source)
            saved.append(f"{stem}.png  (url {driver.current_url})")
        except Exception as error:  # the browser may be gone
            saved.append(f"{stem}: not saved ({error.__class__.__name__})")
    if saved:
        report.sections.append(("browser artifacts", "\n".join(saved)))
