// What a notification's buttons do without opening Kiosk, for the service worker (sw.js loads
// this with importScripts). "Mark read": the session's anti-forgery token first (a worker has no
// page to read it from), then the same request the reader's pages send.
/* exported markEntryRead */
async function markEntryRead(entry) {
  if (!Number.isSafeInteger(entry)) return false;
  const answer = await fetch("/reader/notifications/token", {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  });
  if (!answer.ok) return false;
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
