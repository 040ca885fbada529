"""Web Push, checked by code that is not Kiosk's: a push service on loopback in the test takes
every message Kiosk sends, decrypts it with http-ece (RFC 8291) and checks the VAPID header with
py-vapid (RFC 8292). Then the 410 and 429 paths, a push endpoint at a private address refused
with a sentence, and in Chromium a push delivered to the service worker (DevTools'
ServiceWorker.deliverPushMessage) shows the notification. The webhook: a rule's entries POSTed
as JSON, the signature checked with Python's own HMAC, a private address refused."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import http_ece
import py_vapid
import pytest
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

import conftest
from harness import LIVE_WAIT, KioskServer, cdp, find, find_all, left_its_document, open_page, tap, text_of, token, wait_until


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """A push service on loopback: keeps what it received, decrypted, and answers `status`."""

    def __init__(self) -> None:
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = b"sixteen byte key"
        self.received: list[dict[str, Any]] = []
        self.status = 201
        self.retry_after: str | None = None
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                service.received.append({"path": self.path, "headers": dict(self.headers.items()), "body": body})
                self.send_response(service.status)
                if service.retry_after:
                    self.send_header("Retry-After", service.retry_after)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"

    def subscription(self, path: str = "/push/device-1") -> dict[str, str]:
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.origin + path, "p256dh": b64(public), "auth": b64(self.auth)}

    def message(self, index: int) -> dict[str, Any]:
        """The `index`th message, decrypted by http-ece, its VAPID header checked by py-vapid."""
        got = self.received[index]
        headers = {name.lower(): value for name, value in got["headers"].items()}
        assert headers["content-encoding"] == "aes128gcm"
        assert int(headers["ttl"]) > 0 and headers["urgency"] in ("very-low", "low", "normal", "high")
        authorization = headers["authorization"]
        assert py_vapid.Vapid02.verify(authorization), authorization
        token = authorization.split("t=", 1)[1].split(",", 1)[0]
        claims = json.loads(unb64(token.split(".")[1]))
        assert claims["aud"] == self.origin, claims
        assert 0 < claims["exp"] - time.time() <= 24 * 3600, claims
        assert claims["sub"].startswith(("mailto:", "https:")), claims
        plain = http_ece.decrypt(got["body"], private_key=self.private_key, auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain)

    def close(self) -> None:
        self.server.shutdown()


@pytest.fixture(scope="module")
def push_kiosk(workdir: Path) -> Iterator[KioskServer]:
    """A server that may reach private addresses (the push service here is on loopback), its feeds
    changed only by `advance`: an entry a rule notifies of is the only one, not summed up with
    whatever the sample feeds brought meanwhile. Its digest's window is a minute, so a test can
    see one pass."""
    yield from conftest._serve("push", workdir, allowPrivateFeeds=True, frozen=True, notifyEveryMinutes=1)


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = PushService()
    yield service
    service.close()


def subscribe(driver, subscription: dict[str, str], name: str = "Test phone") -> dict[str, Any]:
    """What the page's script posts after `pushManager.subscribe()`, sent from the page."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/reader/notifications/devices', {method: 'POST', headers: {
            Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded',
            'X-CSRF-Token': document.querySelector('meta[name="csrf-token"]')?.content || ''},
          body: new URLSearchParams(arguments[0])})
          .then(async r => done({status: r.status, body: await r.text()}));""", {**subscription, "name": name})


def test_a_device_is_notified_and_its_service_checks_every_message(phone, push_kiosk, push_service):
    open_page(phone, push_kiosk, "/reader/notifications", "reader-notifications")
    # The key the browser subscribes with is the one the pushes are signed with.
    key = find(phone, "#notify-me").get_attribute("data-key")
    assert len(unb64(key)) == 65
    answer = subscribe(phone, push_service.subscription())
    assert answer["status"] == 200, answer
    # A first notification at once, readable only with the device's key.
    wait_until(None, lambda _: push_service.received, "the push service never heard from Kiosk")
    confirmation = push_service.message(0)
    assert confirmation["title"] == "Notifications are on" and confirmation["url"] == "/reader/notifications"
    assert f"k={key}" in push_service.received[0]["headers"]["Authorization"]

    open_page(phone, push_kiosk, "/reader/notifications", "reader-notifications")
    assert "Test phone" in text_of(phone, "#devices")
    tap(phone, find(phone, "button[data-test-device]"))
    wait_until(phone, lambda d: "Sent to Test phone" in text_of(d, "#notify-message"), "Test said nothing")
    assert push_service.message(1)["title"] == "A test from Kiosk"

    # A busy service: said, with the device kept.
    push_service.status, push_service.retry_after = 429, "120"
    tap(phone, find(phone, "button[data-test-device]"))
    wait_until(phone, lambda d: "busy" in text_of(d, "#notify-message"), f"429 said {text_of(phone, '#notify-message')!r}")
    assert "Test phone" in text_of(phone, "#devices")
    # A device its service no longer knows (410): removed.
    push_service.status, push_service.retry_after = 410, None
    tap(phone, find(phone, "button[data-test-device]"))
    wait_until(phone, lambda d: "was removed" in text_of(d, "#notify-message"), "410 did not remove the device")
    assert not find_all(phone, "#devices > li")


def test_a_push_endpoint_at_a_private_address_is_refused_with_a_sentence(phone, kiosk, push_service):
    open_page(phone, kiosk, "/reader/notifications", "reader-notifications")
    answer = subscribe(phone, push_service.subscription())
    assert answer["status"] == 409, answer
    message = json.loads(answer["body"])["error"]["message"]
    assert "does not send notifications there" in message, message
    assert not push_service.received
    open_page(phone, kiosk, "/reader/notifications", "reader-notifications")
    assert not find_all(phone, "#devices > li")


def shown_notifications(driver) -> list[dict[str, Any]]:
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        navigator.serviceWorker.ready.then(r => r.getNotifications()).then(list =>
            done(list.map(n => ({title: n.title, body: n.body, url: n.data && n.data.url, entry: n.data && n.data.entry,
                                 image: n.image, actions: (n.actions || []).map(a => [a.action, a.title])}))));""")


def unread_entry(driver, server: KioskServer) -> tuple[str, str]:
    """The id and page of an unread entry of the Environment feed (which does not change)."""
    def listed(d) -> bool:
        open_page(d, server, "/reader/feed/environment", "reader-list")
        return bool(find_all(d, "#reader-list > li:not(.is-read) a"))

    wait_until(driver, listed, "the Environment feed has no unread entry", LIVE_WAIT)
    row = find(driver, "#reader-list > li:not(.is-read)")
    return row.get_attribute("data-id"), find(driver, f'li[data-id="{row.get_attribute("data-id")}"] a').get_attribute("href")


def test_a_push_delivered_to_the_service_worker_shows_a_notification_whose_mark_read_works(phone, kiosk):
    cdp(phone, "Browser.grantPermissions", {"origin": kiosk.base_url, "permissions": ["notifications"]})
    cdp(phone, "ServiceWorker.enable")
    entry_id, entry_url = unread_entry(phone, kiosk)
    path = entry_url.removeprefix(kiosk.base_url)
    open_page(phone, kiosk, "/reader/notifications", "reader-notifications")
    scope = phone.execute_async_script("""
        const done = arguments[arguments.length - 1];
        navigator.serviceWorker.ready.then(r => done(r.scope)).catch(() => done(null));""")
    assert scope, "the service worker never became ready"
    payload = json.dumps({"title": "Storm warning for the coast", "body": "Business", "url": path, "tag": "e1",
                          "entry": int(entry_id), "image": "/static/icons/icon-512.png"})
    # DevTools names a registration by an id only its events carry (which Selenium does not
    # read): the page's, the only one of this fresh profile, is among the first few. Each is
    # tried again until one shows (a worker DevTools just started may miss the first).
    shown: list[dict[str, Any]] = []
    deadline = time.time() + 30
    while time.time() < deadline and not shown:
        for registration_id in map(str, range(4)):
            try:
                cdp(phone, "ServiceWorker.deliverPushMessage",
                    {"origin": kiosk.base_url, "registrationId": registration_id, "data": payload})
            except Exception:  # no such registration
                continue
        time.sleep(0.5)
        shown = shown_notifications(phone)
    permission = phone.execute_script("return Notification.permission")
    assert shown and shown[0] == {
        "title": "Storm warning for the coast", "body": "Business", "url": path, "entry": int(entry_id),
        "image": kiosk.base_url + "/static/icons/icon-512.png", "actions": [["read", "Mark read"]],
    }, (shown, permission, phone.get_log("browser")[-5:])
    # A click is the system's to make (headless Chromium has no notification centre): the
    # worker's click handler is run here, from the same file, on the notification's own data.
    phone.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const script = document.createElement('script');
        script.src = '/static/notification-actions.js';
        script.onload = () => done(true);
        document.head.append(script);""")
    tapped = phone.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (async () => {
          const [shown] = await (await navigator.serviceWorker.ready).getNotifications();
          const log = [];
          const clients = (urls) => ({
            matchAll: async () => urls.map((url) => ({ url, focus: async () => log.push(['focus', url]) })),
            openWindow: async (href) => log.push(['open', href]) });
          await onNotificationClick('', shown.data, clients([]), location.origin);
          await onNotificationClick('', shown.data, clients([location.origin + shown.data.url]), location.origin);
          await onNotificationClick('', { url: 'https://elsewhere.example/x' }, clients([]), location.origin);
          const read = await onNotificationClick('read', shown.data, clients([]), location.origin);
          return { log, read };
        })().then(done, (error) => done({ error: String(error) }));""")
    # A tap opens the entry (or focuses the window already on it); for another site's address,
    # the reader instead, never the other site; Mark read opens nothing.
    assert tapped == {
        "log": [["open", entry_url], ["focus", entry_url], ["open", kiosk.base_url + "/reader"]], "read": True,
    }, tapped
    def read_in_list(d) -> bool:
        open_page(d, kiosk, "/reader/feed/environment?show=all", "reader-list")
        return "is-read" in (find(d, f'li[data-id="{entry_id}"]').get_attribute("class") or "")

    wait_until(phone, read_in_list, "Mark read did not mark the entry read")
    assert kiosk.get(path).status == 200


def add_notify_rule(driver, server: KioskServer, query: str) -> None:
    """A rule that only notifies, written in the rule form."""
    open_page(driver, server, "/reader/rules/new", "reader-rule-form")
    find(driver, "#rule-query").send_keys(query)
    tap(driver, find(driver, "#rule-action-read"))  # off: notify only
    tap(driver, find(driver, "#rule-action-notify"))
    tap(driver, find(driver, "#save-rule"))
    wait_until(driver, lambda d: query in text_of(d, "#rules"), "the rule was not saved")


def test_a_rule_that_notifies_sends_the_new_entry_to_the_device(phone, push_kiosk, push_service):
    open_page(phone, push_kiosk, "/reader/notifications", "reader-notifications")
    assert subscribe(phone, push_service.subscription("/push/rule-device"), name="Rule phone")["status"] == 200
    wait_until(None, lambda _: push_service.received, "no confirmation")
    marker = f"squall{token()}"
    add_notify_rule(phone, push_kiosk, f"intitle:{marker}")
    title = f"A {marker} crosses the bay"
    push_kiosk.advance("business", title=title)
    wait_until(None, lambda _: len(push_service.received) >= 2, "the rule's notification never came", LIVE_WAIT + 10)
    message = push_service.message(1)
    assert message["title"] == title and message["body"] == "Business", message
    # Tapping it opens the entry.
    assert message["url"].startswith("/reader/entry/business/"), message
    assert title in push_kiosk.get(message["url"]).text


def remove_every_device(driver, server: KioskServer) -> None:
    """Each device and webhook removed: the digest's window counts from their last notification."""
    for _ in range(25):
        open_page(driver, server, "/reader/notifications", "reader-notifications")
        buttons = find_all(driver, "button[data-remove-device]")
        if not buttons:
            return
        tap(driver, buttons[0])
        wait_until(driver, lambda d: is_stale(buttons[0]), "Remove did not leave the page")
    raise AssertionError("the devices were not all removed")


def is_stale(element) -> bool:
    """Whether `element`'s page has gone (the navigation a submit starts has replaced it)."""
    try:
        element.is_enabled()
        return False
    except StaleElementReferenceException:
        return True
    except WebDriverException as error:
        # Mid-navigation Chromium may answer that the node is no longer in its document: gone
        # too. Anything else is "not yet".
        return left_its_document(error)


def add_webhook(driver, address: str) -> None:
    field = find(driver, "#webhook-url")
    field.clear()
    field.send_keys(address)
    tap(driver, find(driver, "#add-webhook"))


def test_a_webhook_at_a_private_address_is_refused_under_its_field(phone, kiosk, push_service):
    open_page(phone, kiosk, "/reader/notifications", "reader-notifications")
    add_webhook(phone, push_service.origin + "/hook")
    wait_until(phone, lambda d: "does not send notifications there" in text_of(d, "#webhook-error"),
               "a private webhook was not refused with a sentence")
    # What was typed stays, to be mended; nothing was sent or kept.
    assert find(phone, "#webhook-url").get_attribute("value") == push_service.origin + "/hook"
    assert not push_service.received and not find_all(phone, "#devices > li")


def test_a_webhook_gets_a_rules_entries_as_json_signed_with_its_secret(phone, push_kiosk, push_service):
    remove_every_device(phone, push_kiosk)
    add_webhook(phone, push_service.origin + "/hook")
    wait_until(phone, lambda d: "webhook was added" in text_of(d, "#notify-message"), "the webhook was not added")
    tap(phone, find(phone, ".webhook-secret summary"))
    secret = text_of(phone, "code[data-secret]")
    assert len(secret) >= 40, secret

    def checked(index: int) -> dict[str, Any]:
        """The `index`th POST, its signature checked with Python's own HMAC."""
        got = push_service.received[index]
        headers = {name.lower(): value for name, value in got["headers"].items()}
        assert headers["content-type"] == "application/json"
        expected = "sha256=" + hmac.new(secret.encode(), got["body"], hashlib.sha256).hexdigest()
        assert hmac.compare_digest(headers["x-kiosk-signature"], expected), headers
        return json.loads(got["body"])

    wait_until(None, lambda _: push_service.received, "the webhook never heard from Kiosk")
    first = checked(0)
    assert first["test"] is True and first["title"] == "Notifications are on" and first["entries"] == []

    marker = f"gale{token()}"
    add_notify_rule(phone, push_kiosk, f"intitle:{marker}")
    title = f"A {marker} over the hills"
    push_kiosk.advance("business", title=title)
    wait_until(None, lambda _: len(push_service.received) >= 2, "the rule's webhook never came", LIVE_WAIT + 10)
    sent = checked(1)
    assert sent["test"] is False and sent["title"] == title and sent["body"] == "Business", sent
    [entry] = sent["entries"]
    assert entry["title"] == title and entry["feed"] == "Business", entry
    assert title in push_kiosk.get(entry["reader_url"]).text
    # A tampered body does not match the signature.
    assert hmac.new(secret.encode(), push_service.received[1]["body"] + b" ", hashlib.sha256).hexdigest() not in (
        push_service.received[1]["headers"].get("X-Kiosk-Signature", ""))


def test_demo_mode_has_a_push_service_of_its_own_to_try_notifications_offline(phone, kiosk):
    open_page(phone, kiosk, "/reader/notifications", "reader-notifications")
    tap(phone, find(phone, "#add-demo-device"))
    wait_until(phone, lambda d: "demo device was added" in text_of(d, "#notify-message"), "the demo device was not added")
    # The device opened the confirmation with its own key; Test arrives the same way.
    assert "Notifications are on" in text_of(phone, "#devices")
    tap(phone, find(phone, "button[data-test-device]"))
    wait_until(phone, lambda d: "Sent to Demo device" in text_of(d, "#notify-message"), "Test said nothing")
    open_page(phone, kiosk, "/reader/notifications", "reader-notifications")
    assert "A test from Kiosk" in text_of(phone, "ul.device-inbox")
    remove_every_device(phone, kiosk)
    assert not find_all(phone, "#devices > li")


def test_a_feeds_notify_on_new_entries_sends_each_of_its_entries(phone, push_kiosk, push_service):
    remove_every_device(phone, push_kiosk)
    assert subscribe(phone, push_service.subscription("/push/feed-device"), name="Feed phone")["status"] == 200
    wait_until(None, lambda _: push_service.received, "no confirmation")
    open_page(phone, push_kiosk, "/reader/feed/business/settings", "reader-settings")
    box = find(phone, "#feed-notify")
    assert not box.is_selected()
    tap(phone, box)
    tap(phone, find(phone, "#save-settings"))
    wait_until(phone, lambda d: is_stale(box), "Save did not leave the page")
    assert find(phone, "#feed-notify").is_selected(), "Notify on new entries did not stay ticked"
    # It is a rule like the others, listed with them.
    open_page(phone, push_kiosk, "/reader/rules", "reader-rules")
    assert "New in Business" in text_of(phone, "#rules")
    title = f"Anything at all {token()}"
    push_kiosk.advance("business", title=title)
    wait_until(None, lambda _: any(
        push_service.message(i)["title"] == title for i in range(1, len(push_service.received))),
        f"the feed's new entry was not notified: {[push_service.message(i) for i in range(1, len(push_service.received))]}",
        LIVE_WAIT + 10)
    # Unticked, the rule is gone.
    open_page(phone, push_kiosk, "/reader/feed/business/settings", "reader-settings")
    box = find(phone, "#feed-notify")
    tap(phone, box)
    tap(phone, find(phone, "#save-settings"))
    wait_until(phone, lambda d: is_stale(box), "Save did not leave the page")
    assert not find(phone, "#feed-notify").is_selected(), "Notify on new entries stayed ticked"
    open_page(phone, push_kiosk, "/reader/rules", "reader-rules")
    assert "New in Business" not in text_of(phone, "body")


def test_a_burst_is_summed_up_in_one_notification_once_the_window_passes(phone, push_kiosk, push_service):
    remove_every_device(phone, push_kiosk)
    assert subscribe(phone, push_service.subscription("/push/digest-device"), name="Digest phone")["status"] == 200
    wait_until(None, lambda _: push_service.received, "no confirmation")
    marker = f"burst{token()}"
    add_notify_rule(phone, push_kiosk, f"intitle:{marker}")
    push_kiosk.advance("business", title=f"A {marker} begins")
    wait_until(None, lambda _: len(push_service.received) >= 2, "the first entry was not notified", LIVE_WAIT + 10)
    assert push_service.message(1)["title"] == f"A {marker} begins"
    # Two more within the window (a minute here): held, then one summary.
    push_kiosk.advance("business", title=f"A {marker} grows")
    push_kiosk.advance("business", title=f"A {marker} ends")
    time.sleep(15)
    assert len(push_service.received) == 2, "the burst was not held for the digest"
    wait_until(None, lambda _: len(push_service.received) >= 3, "the summary never came", 60 + LIVE_WAIT + 10)
    summary = push_service.message(2)
    assert summary["title"] == "2 new entries" and summary["body"] == "Business (2)", summary
    assert summary["url"] == "/reader" and "entry" not in summary, summary
