// Reading without a network. While online, the app keeps the newest unread entries of the reader
// in use on this device (`/reader/offline.json` and the images it names, in Cache Storage), and
// says so quietly ("Offline: 200 articles saved"). Without a network the service worker answers
// the reader's pages with `/offline/reader`, which this fills from that copy: the list, each
// entry, and read and star changes, queued in order in localStorage (so closing the app loses
// nothing) and sent once the server answers again, with any episode's place a player could not
// send (the latest per episode). Every action is a plain "set" (read, unread,
// star, unstar), so sending one twice changes nothing. Whose copy it is travels with it: another
// account's sign-in replaces it, and the sign-in page (signed out, or the session over) deletes it.

export const OFFLINE_CACHE = "kiosk-offline-v1";
const BUNDLE = "/reader/offline.json";
const QUEUE = "kiosk.offline.queue";
const LIMIT = "kiosk.offline.limit";
const SAVED_AT = "kiosk.offline.savedAt";
const LIMITS = [50, 100, 200, 500];
// A fresh copy at most this often as reader pages are opened (and while one stays open).
const REFRESH_EVERY = 60 * 1000;

const $ = (selector, scope = document) => scope.querySelector(selector);

export function offlineLimit() {
  const value = Number.parseInt(localStorage.getItem(LIMIT) || "200", 10);
  return LIMITS.includes(value) ? value : 200;
}

function queue() {
  try {
    const list = JSON.parse(localStorage.getItem(QUEUE) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function saveQueue(list) {
  if (list.length) localStorage.setItem(QUEUE, JSON.stringify(list));
  else localStorage.removeItem(QUEUE);
}

async function cachedBundle() {
  if (!("caches" in window)) return null;
  try {
    const response = await caches.match(BUNDLE, { cacheName: OFFLINE_CACHE });
    return response ? await response.json() : null;
  } catch {
    return null;
  }
}

async function keepBundle(bundle) {
  const cache = await caches.open(OFFLINE_CACHE);
  await cache.put(BUNDLE, new Response(JSON.stringify(bundle), { headers: { "Content-Type": "application/json" } }));
}

/// The copy no longer says what the server does (something was read or starred here): the next
/// reader page keeps a fresh one at once.
export function offlineCopyIsStale() {
  localStorage.removeItem(SAVED_AT);
}

/// Everything of offline reading deleted from this device (the sign-in page calls it).
export async function forgetOffline() {
  localStorage.removeItem(QUEUE);
  localStorage.removeItem(SAVED_AT);
  if ("caches" in window) await caches.delete(OFFLINE_CACHE);
}

function describe(count) {
  return `Offline: ${count} ${count === 1 ? "article" : "articles"} saved`;
}

function showSaved(count) {
  for (const element of document.querySelectorAll("#offline-saved, [data-offline-saved]")) {
    element.textContent = describe(count);
    element.hidden = false;
  }
}

// ---- Online: keep the copy fresh, send what was queued -------------------------------------------

/// The server's copy of the reader now (entries, articles, the account it is for); nil if refused.
async function fetchBundle() {
  const response = await fetch(`${BUNDLE}?limit=${offlineLimit()}`, {
    headers: { Accept: "application/json" },
    credentials: "same-origin",
  });
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok || !type.includes("json")) return null;
  return response.json();
}

async function refresh(force) {
  const last = Number(localStorage.getItem(SAVED_AT) || 0);
  if (!force && Date.now() - last < REFRESH_EVERY) return null;
  const bundle = await fetchBundle();
  if (!bundle) return null;
  const held = await cachedBundle();
  if (held && held.account !== bundle.account) {
    // Another account's copy: none of it stays.
    await caches.delete(OFFLINE_CACHE);
  }
  saveQueue(queue().filter((action) => action.account === bundle.account));
  await keepBundle(bundle);
  // An image missed (its site slow or down) is tried again at the next page rather than in a
  // minute: the copy counts as fresh only once it is whole.
  if (await keepImages(bundle)) localStorage.setItem(SAVED_AT, String(Date.now()));
  return bundle;
}

/// Keeps the images `bundle` names (and drops those it no longer does); whether all are kept.
async function keepImages(bundle) {
  const cache = await caches.open(OFFLINE_CACHE);
  const wanted = new Set(bundle.entries.flatMap((entry) => entry.images || []));
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    if (url.pathname === "/img" && !wanted.has(url.pathname + url.search)) await cache.delete(request);
  }
  let whole = true;
  for (const address of wanted) {
    if (await cache.match(address)) continue;
    try {
      const response = await fetch(address, { credentials: "same-origin" });
      if (response.ok) await cache.put(address, response);
      else whole = false;
    } catch {
      // An image that cannot be had now is tried again on the next refresh.
      whole = false;
    }
  }
  return whole;
}

/** The request that sends a queued action: read and star changes to their routes, a player's
 * place to its episode's. */
function requestOf(action) {
  if (action.op === "place") return { path: action.url, fields: action.fields };
  if (action.op === "star") return { path: "/reader/star", fields: { ids: String(action.id), starred: String(action.value) } };
  return { path: "/reader/read", fields: { ids: String(action.id), read: String(action.value) } };
}

/// Sends the queued actions of `account`, in order; returns how many read and star changes the
/// server took (a place changes nothing a page shows).
async function flush(account, token) {
  let sent = 0;
  let pending = queue();
  while (pending.length) {
    const action = pending[0];
    if (action.account === account) {
      const { path, fields } = requestOf(action);
      let response;
      try {
        response = await fetch(path, {
          method: "POST",
          headers: {
            Accept: "application/json",
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRF-Token": token,
          },
          body: new URLSearchParams(fields),
          credentials: "same-origin",
        });
      } catch {
        return sent; // the network again: the rest waits for the next page
      }
      // A refusal other than the entry having gone (409, 404; a place refused, 400) is not this
      // action's fault: keep it.
      const gone = response.status === 409 || response.status === 404 || (action.op === "place" && response.status === 400);
      if (!response.ok && !gone) return sent;
      if (action.op !== "place") sent += 1;
    }
    // What was queued meanwhile (a place saved while this was sent) stays: the queue is read again.
    pending = queue();
    const done = JSON.stringify(action);
    const index = pending.findIndex((queued) => JSON.stringify(queued) === done);
    if (index >= 0) pending.splice(index, 1);
    else pending = pending.slice(1);
    saveQueue(pending);
  }
  return sent;
}

/** A player's place that could not be sent (no network): queued with the read and star changes
 * of this device's copy's account, only the latest per episode, and sent with them once Kiosk
 * answers again (the next screen, or the network's return). */
export async function queuePlace(url, fields) {
  const bundle = await cachedBundle();
  if (!bundle) return; // no copy, no account to send it as: the next save carries the place
  const list = queue().filter((action) => !(action.op === "place" && action.url === url));
  list.push({ account: bundle.account, op: "place", url, fields: { ...fields, playing: "false", at: String(Date.now() / 1000) }, at: Date.now() });
  saveQueue(list);
}

let refreshTimer = null; // one refresh loop per document, however many screens it shows

/// On every page of the app while online: send what was queued offline, then keep a fresh copy.
/// `keepsPage` says the page must not be reloaded (an episode plays in it).
export async function setupOffline(token, keepsPage = () => false) {
  if (!("caches" in window) || !navigator.onLine) return;
  const page = document.body.dataset.page || "";
  setupLimitChoice();
  const onReader = page.startsWith("reader") || page === "settings";
  // A full article just read is worth keeping at once.
  if (document.querySelector("#entry-article")) localStorage.removeItem(SAVED_AT);
  const waiting = queue().length > 0;
  if (!onReader && !waiting) return;
  try {
    if (waiting) {
      // Whose page this is decides which queued actions are sent: the server's answer says, and
      // only that (the copy and its images are made again afterwards, not before).
      const current = await fetchBundle();
      const sent = current ? await flush(current.account, token) : 0;
      if (sent > 0) {
        // What was read and starred offline is the server's now: the page shows it at once, and
        // the copy is made again from it (due now) on the page that follows.
        localStorage.removeItem(SAVED_AT);
        if (page.startsWith("reader") && !keepsPage()) {
          window.location.reload();
          return;
        }
      }
    }
    const bundle = (await refresh(waiting)) || (await cachedBundle());
    if (!bundle) return;
    showSaved(bundle.entries.length);
    if (onReader && !refreshTimer) {
      refreshTimer = setInterval(() => refresh(false).then((fresh) => fresh && showSaved(fresh.entries.length)), REFRESH_EVERY);
    }
  } catch (error) {
    console.warn("kiosk: offline copy not refreshed", error);
  }
}

function setupLimitChoice() {
  const select = $("#offline-limit");
  if (!select || select.dataset.bound) return;
  select.dataset.bound = "1";
  select.value = String(offlineLimit());
  select.addEventListener("change", async () => {
    localStorage.setItem(LIMIT, select.value);
    const bundle = await refresh(true).catch(() => null);
    if (bundle) showSaved(bundle.entries.length);
  });
}

// ---- Offline: the reader from the copy -------------------------------------------------------------

function element(name, attributes = {}, ...children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === false || value == null) continue;
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children);
  return node;
}

// The app's own icons (Icon in Page.swift), drawn the same way.
function icon(path) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "icon");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const line = document.createElementNS("http://www.w3.org/2000/svg", "path");
  line.setAttribute("d", path);
  svg.append(line);
  return svg;
}

const STAR = "M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z";
const BACK = "M15 5l-7 7 7 7";

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ""
    : date.toLocaleString(undefined, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
}

export async function showOfflineReader() {
  const status = $("#offline-status");
  const list = $("#offline-list");
  const detail = $("#offline-entry");
  const bundle = await cachedBundle();
  if (!bundle || !Array.isArray(bundle.entries)) {
    status.textContent = "Kiosk cannot reach its server, and no articles are saved on this device yet.";
    return;
  }
  // Changes made offline, applied to the copy as they are queued.
  const state = new Map(bundle.entries.map((entry) => [entry.id, { read: false, starred: !!entry.starred }]));
  for (const action of queue()) {
    const current = state.get(action.id);
    if (!current || action.account !== bundle.account) continue;
    if (action.op === "star") current.starred = action.value;
    else current.read = action.value;
  }

  function record(op, id, value) {
    const list = queue();
    list.push({ account: bundle.account, op, id, value, at: Date.now() });
    saveQueue(list);
    const current = state.get(id);
    if (op === "star") current.starred = value;
    else current.read = value;
  }

  function unreadCount() {
    return [...state.values()].filter((entry) => !entry.read).length;
  }

  function showStatus() {
    status.replaceChildren(
      element("strong", { text: describe(bundle.entries.length) }),
      document.createTextNode(
        ` · ${unreadCount()} unread. You are offline: what you read and star here is sent when Kiosk can reach its server again.`,
      ),
    );
  }

  function starButton(entry) {
    const starred = state.get(entry.id).starred;
    const button = element(
      "button",
      { type: "button", class: "icon-button star", "data-offline-star": String(entry.id), "aria-pressed": String(starred), "aria-label": "Star" },
      icon(STAR),
    );
    button.addEventListener("click", (event) => {
      event.preventDefault();
      record("star", entry.id, !state.get(entry.id).starred);
      render();
    });
    return button;
  }

  function row(entry) {
    const read = state.get(entry.id).read;
    const link = element(
      "a",
      { class: "entry-link", href: `#entry-${entry.id}` },
      element("span", { class: "entry-title" }, element("span", { class: "unread-dot", "aria-hidden": "true" }), entry.title),
      element(
        "span",
        { class: "entry-meta" },
        element("span", { class: "entry-part", text: entry.feedTitle }),
        element("time", { datetime: entry.date, text: when(entry.date) }),
        element("span", { class: "visually-hidden read-state", text: read ? "read" : "unread" }),
      ),
    );
    return element("li", { class: `entry reader-entry${read ? " is-read" : ""}`, "data-id": String(entry.id) }, link, starButton(entry));
  }

  // Opening an entry marks it read, once per opening (not again when its page is redrawn).
  let opened = null;

  function showEntry(entry) {
    if (opened !== entry.id) {
      opened = entry.id;
      if (!state.get(entry.id).read) record("read", entry.id, true);
    }
    const read = state.get(entry.id).read;
    const toggle = element("button", { type: "button", class: "button", id: "offline-toggle-read" }, read ? "Mark unread" : "Mark read");
    toggle.addEventListener("click", () => {
      record("read", entry.id, !state.get(entry.id).read);
      render();
    });
    const body = element("div", { class: "prose", id: "entry-description" });
    // Sanitized by the server's allow-list before it was saved; images are the proxy's, kept too.
    body.innerHTML = entry.html || "<p class=\"muted\">This entry has no text.</p>";
    detail.replaceChildren(
      element("a", { class: "back", href: "#" }, icon(BACK), element("span", { text: "Saved for offline" })),
      element("p", { class: "eyebrow", text: entry.feedTitle }),
      element("h1", { id: "entry-title", text: entry.title }),
      element("p", { class: "detail-meta" }, element("time", { datetime: entry.date, text: when(entry.date) })),
      element("div", { class: "reader-actions" }, toggle, starButton(entry)),
      body,
    );
    detail.dataset.id = String(entry.id);
    detail.hidden = false;
    list.hidden = true;
    window.scrollTo(0, 0);
  }

  function render() {
    showStatus();
    const match = /^#entry-(\d+)$/.exec(window.location.hash);
    const open = match ? bundle.entries.find((entry) => String(entry.id) === match[1]) : null;
    if (open) {
      showEntry(open);
      return;
    }
    opened = null;
    detail.hidden = true;
    list.hidden = false;
    list.replaceChildren(...bundle.entries.map(row));
  }

  window.addEventListener("hashchange", render);
  // Back online: the real reader, which sends the queue.
  window.addEventListener("online", () => window.location.replace("/reader"));
  render();
}
