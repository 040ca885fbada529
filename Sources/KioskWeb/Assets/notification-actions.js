// What a tap on a notification does, for the service worker (sw.js loads this with
// importScripts; its notificationclick hands over the action, the notification's data and its
// clients). A tap opens the page the notification names, on this origin only, focusing a window
// already on it. "Mark read": the session's anti-forgery token first (a worker has no page to
// read it from), then the same request the reader's pages send, and nothing is opened.
/* exported onNotificationClick, markEntryRead */
async function onNotificationClick(action, data, clients, origin) {
  // Marked, nothing opens; not marked (the session ended, no network), the entry opens instead.
  if (action === "read" && (await markEntryRead(data?.entry).catch(() => false))) return true;
  const path = typeof data?.url === "string" && data.url.startsWith("/") ? data.url : "/reader";
  const target = new URL(path, origin);
  if (target.origin !== origin) return null;
  const windows = await clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).pathname === target.pathname);
  if (open) return open.focus();
  return clients.openWindow(target.href);
}

async function markEntryRead(entry) {
  if (!Number.isSafeInteger(entry)) return false;
  const answer = await fetch("/reader/notifications/token", {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  });
  // Signed out, the token's request ends at the sign-in page: no JSON.
  if (!answer.ok || !(answer.headers.get("Content-Type") || "").includes("json")) return false;
  const { csrf } = await answer.json();
  const marked = await fetch("/reader/read", {
    method: "POST",
    credentials: "same-origin",
    headers: {
      Accept: "application/json",
      "Content-Type": "application/x-www-form-urlencoded",
      "X-CSRF-Token": typeof csrf === "string" ? csrf : "",
    },
    body: new URLSearchParams({ ids: String(entry), read: "true" }),
  });
  return marked.ok;
}
