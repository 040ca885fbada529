"""PWA: the manifest and its icons, the service worker, installability, and the offline page.

The offline test runs on a server of its own (`fresh_kiosk`) because it stops that server: with
DevTools' offline emulation alone the service worker's own fetches may still reach the network.
"""

import json
import re
import struct
import time

from harness import cdp, js, open_page, token, wait_until


def png_size(data: bytes):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def manifest(server):
    reply = server.get("/manifest.webmanifest")
    assert reply.status == 200, reply.status
    content_type = reply.headers.get("Content-Type", "")
    assert "manifest+json" in content_type or "application/json" in content_type, content_type
    return json.loads(reply.body)


def wait_for_service_worker(driver, timeout=20):
    """Waits for `navigator.serviceWorker.ready`; returns the active worker's script URL."""
    driver.set_script_timeout(timeout)
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        if (!('serviceWorker' in navigator)) return done('no serviceWorker API');
        navigator.serviceWorker.ready.then(r => done(r.active ? r.active.scriptURL : 'not active'),
                                           e => done('error: ' + e));
    """)


def test_manifest_names_the_app_and_its_icons_load(kiosk):
    data = manifest(kiosk)
    assert data.get("name"), data
    assert data.get("start_url"), data
    assert data.get("display") == "standalone", data
    icons = {icon.get("sizes"): icon for icon in data.get("icons", [])}
    for size in (192, 512):
        icon = icons.get(f"{size}x{size}")
        assert icon, f"no {size}x{size} icon in {data.get('icons')}"
        assert icon.get("type", "image/png") == "image/png"
        src = icon["src"]
        assert src.startswith("/static/icons/") or "/static/icons/" in src, src
        reply = kiosk.get(src if src.startswith("/") else "/" + src)
        assert reply.status == 200, f"{src}: HTTP {reply.status}"
        assert png_size(reply.body) == (size, size), f"{src} is {png_size(reply.body)}"


def test_pages_link_the_manifest(phone, kiosk):
    open_page(phone, kiosk, "/", "home")
    href = js(phone, "const l = document.querySelector('link[rel=manifest]'); return l ? l.getAttribute('href') : null")
    assert href and href.endswith("/manifest.webmanifest"), href


def test_service_worker_registers_and_the_app_is_installable(phone, kiosk):
    open_page(phone, kiosk, "/", "home")
    script = wait_for_service_worker(phone)
    assert script == kiosk.url("/sw.js"), script
    phone.refresh()  # now controlled by the worker
    wait_until(phone, lambda d: js(d, "return !!navigator.serviceWorker.controller"), "the page is not controlled")
    errors = None
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        errors = cdp(phone, "Page.getInstallabilityErrors").get("installabilityErrors", [])
        if not errors:
            break
        time.sleep(1)
    assert not errors, f"not installable: {errors}"


def test_an_unvisited_page_shows_the_offline_page_when_offline(phone, fresh_kiosk):
    open_page(phone, fresh_kiosk, "/offline", "offline")
    open_page(phone, fresh_kiosk, "/", "home")
    wait_for_service_worker(phone)
    phone.refresh()
    wait_until(phone, lambda d: js(d, "return !!navigator.serviceWorker.controller"), "the page is not controlled")
    time.sleep(1)  # let the worker finish caching

    cdp(phone, "Network.enable")
    cdp(phone, "Network.emulateNetworkConditions",
        {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    fresh_kiosk.stop()  # really offline, whatever DevTools covers
    try:
        phone.get(fresh_kiosk.url(f"/facts?e2e={token()}"))
        wait_until(phone, lambda d: js(d, "return document.body && document.body.dataset.page") == "offline",
                   "no offline page for an unvisited page while offline")
    finally:
        cdp(phone, "Network.emulateNetworkConditions",
            {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def test_offline_page_is_served(kiosk):
    reply = kiosk.get("/offline")
    assert reply.status == 200
    assert re.search(r"<body[^>]*data-page=[\"']?offline", reply.text), reply.text[:300]
    sw = kiosk.get("/sw.js")
    assert sw.status == 200 and "javascript" in sw.headers.get("Content-Type", ""), sw.headers.get("Content-Type")
