// "Notify me on this device": asks the browser for permission, subscribes its push service
// with the server's public key (the page's data-key), and sends the subscription to the server,
// which lists the device. Without the Push API (an iPhone's Safari outside a Home Screen app,
// an old browser), the page says what to do instead.

import { csrfToken } from "./reader.js";

const $ = (selector, scope = document) => scope.querySelector(selector);

function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

function deviceName() {
  const agent = navigator.userAgent;
  const browser = /Edg\//.test(agent) ? "Edge" : /Chrome\//.test(agent) ? "Chrome" : /Firefox\//.test(agent) ? "Firefox" : /Safari\//.test(agent) ? "Safari" : "Browser";
  const system = /iPhone/.test(agent) ? "iPhone" : /iPad/.test(agent) ? "iPad" : /Android/.test(agent) ? "Android" : /Mac OS X/.test(agent) ? "Mac" : /Windows/.test(agent) ? "Windows" : /Linux/.test(agent) ? "Linux" : "this device";
  return `${browser} on ${system}`;
}

function say(text) {
  const status = $("#notify-status");
  if (!status) return;
  status.textContent = text;
  status.hidden = false;
}

async function subscribe(button) {
  button.disabled = true;
  try {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      say("Notifications are blocked for this site: allow them in the browser's settings, then try again.");
      return;
    }
    const registration = await navigator.serviceWorker.ready;
    const key = keyBytes(button.dataset.key);
    let subscription = await registration.pushManager.getSubscription();
    // A subscription made for another key (another Kiosk on this address, a new database) would
    // have every push refused: made again for this one.
    const sameKey = (old) => old && key.length === old.byteLength && key.every((byte, i) => byte === new Uint8Array(old)[i]);
    if (subscription && !sameKey(subscription.options?.applicationServerKey)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ||= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    const json = subscription.toJSON();
    const response = await fetch("/reader/notifications/devices", {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded", "X-CSRF-Token": csrfToken() },
      body: new URLSearchParams({ endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth, name: deviceName() }),
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      say(body?.error?.message || "Kiosk could not keep this device.");
      return;
    }
    window.location.reload();
  } catch (error) {
    say(`This browser could not subscribe to notifications (${error.message || error}).`);
  } finally {
    button.disabled = false;
  }
}

export function setupNotifications() {
  const button = $("#notify-me");
  if (!button) return;
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("This browser cannot show notifications from Kiosk. On an iPhone or iPad, add Kiosk to the Home Screen (Share, Add to Home Screen) and open it from there.");
    return;
  }
  button.hidden = false;
  button.addEventListener("click", () => subscribe(button));
}
