// Kiosk's service worker: keeps the app shell (styles, script, icons, offline page) so the app
// opens instantly and says so plainly when the server cannot be reached, and the last pages read
// for offline use. Pages of a signed-in account are never kept past its session: a page marked
// `no-store` is not cached, and the moment the sign-in page is seen (signed out, or the session
// ended) every kept page is deleted, so nothing of one account is shown to a signed-out browser
// or to another account. (Signing out also sends `Clear-Site-Data`, which wipes all of it.)
// Offline reading: the page script keeps the newest unread entries and their images in
// OFFLINE (offline.js); without a network, the reader's pages are answered with the offline
// reader, which shows them, and images from that copy.
const SHELL = "kiosk-shell-v10";
// v10: player.js saves episodes for offline (MEDIA).
// v9: player.js (the episode player) and navigation.js (screens swapped in place while it plays)
// joined the shell.
// v8: notification-actions.js (a notification's Mark read).
// v7: notifications.js (Notify me on this device) joined the shell.
// v6: rules.js (the rule form's preview) joined the shell.
// v4: offline.js tries a missed image again at the next page.
// v5: offline.js sends the queue before it makes the copy again, and reloads the page at once.
// v3: the offline reader joined the shell.
// v2: v1 kept pages of accounts past their sign-out; the activate step deletes it.
const PAGES = "kiosk-pages-v2";
const MOST_PAGES = 40; // pages kept for offline reading, the oldest dropped first
const OFFLINE = "kiosk-offline-v1"; // offline.js's copy of the reader
const BUNDLE = "/reader/offline.json";
// Episodes saved for offline (player.js), whole, under their `/media` address: the player's
// range requests are answered from them, so seeking works without a network; and each saved
// episode's page, which a navigation without a network gets before the offline reader.
const MEDIA = "kiosk-media-v1";
const SHELL_FILES = [
  "/offline",
  "/offline/reader",
  "/static/app.css",
  "/static/app.js",
  "/static/reader.js",
  "/static/rules.js",
  "/static/notifications.js",
  "/static/notification-actions.js",
  "/static/offline.js",
  "/static/player.js",
  "/static/navigation.js",
  "/static/icons/icon-192.png",
  "/static/icons/icon-512.png",
  "/manifest.webmanifest",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(SHELL_FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((key) => ![SHELL, PAGES, OFFLINE, MEDIA].includes(key)).map((key) => caches.delete(key))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // Live streams, script calls and other sites go straight to the network.
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname === "/events" || url.pathname.startsWith("/discover/results")) return;

  if (request.mode === "navigate") {
    // Pages: the network first (they are live); the last copy, or the offline page, without it.
    event.respondWith(
      fetch(request)
        .then(async (response) => {
          if (isSignInPage(response)) {
            await Promise.all([caches.delete(PAGES), caches.delete(OFFLINE), caches.delete(MEDIA)]);
          } else if (response.ok && !noStore(response)) {
            const copy = response.clone();
            caches.open(PAGES).then((cache) => cache.put(request, copy).then(() => trim(cache)));
          }
          return response;
        })
        .catch(() => withoutNetwork(request, url)),
    );
    return;
  }

  if (url.pathname === "/media") {
    // An episode: from the copy saved on this device when there is one, else the network.
    event.respondWith(savedMedia(request));
    return;
  }

  if (url.pathname === "/img") {
    // Images: the network (and the HTTP cache); without one, the copy kept for offline reading.
    event.respondWith(fetch(request).catch(() => caches.match(request, { cacheName: OFFLINE }).then((kept) => kept || Response.error())));
    return;
  }

  if (SHELL_FILES.includes(url.pathname)) {
    // The shell: the network first (revalidated with its ETag, so a new version is used the moment
    // the server has it), the cached copy without a network.
    event.respondWith(
      caches.open(SHELL).then((cache) =>
        fetch(request)
          .then((response) => {
            if (response.ok) cache.put(request, response.clone());
            return response;
          })
          .catch(() => cache.match(request)),
      ),
    );
  }
});

// A page asked for without a network: the reader's pages from the copy kept for offline reading
// (when there is one), else the last copy of that page, else the offline page.
async function withoutNetwork(request, url) {
  const episode = await caches.match(request, { cacheName: MEDIA });
  if (episode) return episode;
  if (url.pathname === "/reader" || url.pathname.startsWith("/reader/")) {
    const saved = await caches.match(BUNDLE, { cacheName: OFFLINE });
    const shell = saved && (await caches.match("/offline/reader", { cacheName: SHELL }));
    if (shell) return shell;
  }
  return (await caches.match(request)) || (await caches.match("/offline"));
}

// A saved episode, whole or the one range of bytes the player asked for (as a server answers);
// without a saved copy, the network.
async function savedMedia(request) {
  const kept = await caches.match(request.url, { cacheName: MEDIA });
  if (!kept) return fetch(request);
  const blob = await kept.blob();
  const size = blob.size;
  const type = kept.headers.get("Content-Type") || "application/octet-stream";
  const asked = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get("Range") || "");
  if (!asked || (asked[1] === "" && asked[2] === "")) {
    return new Response(blob, { headers: { "Content-Type": type, "Content-Length": String(size), "Accept-Ranges": "bytes" } });
  }
  const first = asked[1] === "" ? Math.max(0, size - Number(asked[2])) : Number(asked[1]);
  const last = asked[1] === "" || asked[2] === "" ? size - 1 : Math.min(Number(asked[2]), size - 1);
  if (asked[1] !== "" && asked[2] !== "" && last < first) {
    // A reversed range is no range (RFC 9110): the whole file.
    return new Response(blob, { headers: { "Content-Type": type, "Content-Length": String(size), "Accept-Ranges": "bytes" } });
  }
  if (first >= size || last < first) {
    return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
  }
  return new Response(blob.slice(first, last + 1), {
    status: 206,
    headers: {
      "Content-Type": type,
      "Content-Length": String(last - first + 1),
      "Content-Range": `bytes ${first}-${last}/${size}`,
      "Accept-Ranges": "bytes",
    },
  });
}

// The sign-in page, asked for or reached by a redirect: this browser has no session now.
function isSignInPage(response) {
  return new URL(response.url || "/", self.location.origin).pathname === "/login";
}

function noStore(response) {
  return /(^|,)\s*no-store\s*(,|$)/i.test(response.headers.get("Cache-Control") || "");
}

async function trim(cache) {
  const keys = await cache.keys();
  for (const key of keys.slice(0, Math.max(0, keys.length - MOST_PAGES))) await cache.delete(key);
}

// ---- Notifications (Web Push) ----------------------------------------------------------------
// A push carries JSON the server encrypted for this device: {title, body, url, tag}, and for one
// entry {entry, image}. It shows a notification; tapping it opens (or focuses) the page it
// names, on this origin only; its "Mark read" marks the entry without opening anything.
importScripts("/static/notification-actions.js");

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { title: "Kiosk", body: event.data ? event.data.text() : "" };
  }
  const title = typeof message.title === "string" && message.title ? message.title : "Kiosk";
  const url = localPath(message.url) || "/reader";
  const entry = Number.isSafeInteger(message.entry) ? message.entry : null;
  const image = localPath(message.image);
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === "string" ? message.body : "",
      tag: typeof message.tag === "string" ? message.tag : undefined,
      icon: "/static/icons/icon-192.png",
      badge: "/static/icons/icon-192.png",
      ...(image ? { image } : {}),
      actions: entry === null ? [] : [{ action: "read", title: "Mark read" }],
      data: { url, entry },
    }),
  );
});

// A path of this origin ("/reader/..."), never another site's address ("//elsewhere").
function localPath(value) {
  return typeof value === "string" && value.startsWith("/") && !value.startsWith("//") ? value : null;
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(onNotificationClick(event.action, event.notification.data, self.clients, self.location.origin));
});
