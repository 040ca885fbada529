// Kiosk's one script: live updates, the clock, lazy images, Discover's search and infinite
// scroll, Jokes and refresh. The server renders every page; this only adds behaviour, so each
// screen still reads without it. No framework, no build step, no inline script (the CSP forbids it).

import { forgetOffline, setupOffline, showOfflineReader } from "./offline.js";
import { csrfToken, onFeedChanged, onReaderEvent, setupReader } from "./reader.js";
import { setupNotifications } from "./notifications.js";
import { setupSoftNavigation } from "./navigation.js";
import { forgetPlayer, isListening, onPositionElsewhere, setupPlayer } from "./player.js";
import { setupRuleForm } from "./rules.js";

const root = document.documentElement;
const $ = (selector, scope = document) => scope.querySelector(selector);
const $$ = (selector, scope = document) => Array.from(scope.querySelectorAll(selector));

// ---------------------------------------------------------------------------------------------
// Dates: the server writes UTC; the reader sees their own locale and time zone.

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "long" });

function localizeDates(scope = document) {
  for (const time of $$("time[data-format]", scope)) {
    const date = new Date(time.getAttribute("datetime"));
    if (Number.isNaN(date.getTime())) continue;
    time.textContent = (time.dataset.format === "date" ? dateFormat : dateTimeFormat).format(date);
  }
}

// ---------------------------------------------------------------------------------------------
// Home: the clock ticks every second, on the second.

let clockTimer = null;

function startClock() {
  clearTimeout(clockTimer);
  clockTimer = null;
  const clock = $("#clock");
  if (!clock) return;
  const format = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "medium" });
  const tick = () => {
    const now = new Date();
    clock.textContent = format.format(now);
    clock.setAttribute("datetime", now.toISOString());
    clockTimer = setTimeout(tick, 1000 - (now.getTime() % 1000) + 5);
  };
  tick();
}

// ---------------------------------------------------------------------------------------------
// Images: load only as they come into view, into reserved space; a failed one shows a placeholder.

const imageObserver =
  "IntersectionObserver" in window
    ? new IntersectionObserver(
        (entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting) continue;
            imageObserver.unobserve(entry.target);
            loadImage(entry.target);
          }
        },
        { rootMargin: "48px 0px" },
      )
    : null;

function loadImage(image) {
  const src = image.dataset.src;
  if (!src) return;
  delete image.dataset.src;
  image.src = src;
}

function watchImages(scope = document) {
  for (const image of $$("img.lazy[data-src]", scope)) {
    if (imageObserver) imageObserver.observe(image);
    else loadImage(image);
  }
}

// Image events do not bubble; capture them once for the whole document. The image proxy answers
// an image it could not get with a 1×1 placeholder, shown as a neat empty box.
document.addEventListener(
  "error",
  (event) => {
    const target = event.target;
    if (target instanceof HTMLImageElement) target.classList.add("is-broken");
  },
  true,
);
document.addEventListener(
  "load",
  (event) => {
    const target = event.target;
    if (target instanceof HTMLImageElement && target.naturalWidth === 1 && target.naturalHeight === 1) {
      target.classList.add("is-broken");
    }
  },
  true,
);

// ---------------------------------------------------------------------------------------------
// Live updates: one EventSource per page, resuming from the sequence the page was drawn at.

const checking = new Set();

function announce(text) {
  const status = $("#live-status");
  if (status && text) status.textContent = text;
}

function cssString(value) {
  return window.CSS && CSS.escape ? CSS.escape(value) : value.replace(/["\\]/g, "\\$&");
}

/** The first list item visible below the sticky header, and where it is. */
function visibleAnchor(list) {
  for (const item of list.children) {
    const rect = item.getBoundingClientRect();
    if (rect.bottom > 0) return { key: item.dataset.key, top: rect.top };
  }
  return null;
}

// Each row's HTML as the server sent it (before dates were localized), to tell unchanged rows.
const serverHTML = new WeakMap();

function rememberRows(list) {
  for (const item of list.children) if (!serverHTML.has(item)) serverHTML.set(item, item.outerHTML);
}

/** Puts `html`'s items into `list`, reusing unchanged rows, keeping what the reader looks at still. */
function applyList(list, html) {
  const template = document.createElement("template");
  template.innerHTML = html; // inert: parsed, never run; the server escaped and sanitized it
  const existing = new Map($$(":scope > li[data-key]", list).map((item) => [item.dataset.key, item]));
  const items = Array.from(template.content.children).map((item) => {
    const old = existing.get(item.dataset.key);
    if (old && serverHTML.get(old) === item.outerHTML) return old;
    serverHTML.set(item, item.outerHTML);
    return item;
  });
  placeRows(list, items);
}

/**
 * Applies a `changed` event's diff (the new order of keys, the markup of new or changed rows) to
 * `list`, keeping every other row as it is. False when the list lacks a row it should keep.
 */
function applyDiff(list, diff) {
  const existing = new Map($$(":scope > li[data-key]", list).map((item) => [item.dataset.key, item]));
  const template = document.createElement("template");
  const items = [];
  for (const key of diff.order) {
    const html = diff.rows[key];
    if (html == null) {
      const kept = existing.get(key);
      if (!kept) return false;
      items.push(kept);
      continue;
    }
    template.innerHTML = html; // inert, as in applyList
    const item = template.content.firstElementChild;
    if (!item) return false;
    serverHTML.set(item, item.outerHTML);
    items.push(item);
  }
  placeRows(list, items);
  return true;
}

/** Draws `list` again from the server's page (a diff that did not fit what this page shows). */
async function redrawLiveList(list) {
  try {
    const response = await fetch(window.location.href, { headers: { Accept: "text/html" } });
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = $(`[data-live-list="${cssString(list.dataset.liveList)}"]`, page);
    if (fresh) applyList(list, fresh.innerHTML);
  } catch (error) {
    console.warn("kiosk: cannot redraw the list", error);
  }
}

/** Makes `items` the rows of `list`, keeping what the reader looks at where it is. */
function placeRows(list, items) {
  const anchor = window.scrollY > 0 ? visibleAnchor(list) : null;
  const focused = list.contains(document.activeElement) ? document.activeElement.closest("li[data-key]") : null;
  list.replaceChildren(...items);
  if (focused) {
    const same = $(`:scope > li[data-key="${cssString(focused.dataset.key)}"] a`, list);
    if (same) same.focus({ preventScroll: true });
  }
  localizeDates(list);
  watchImages(list);
  if (anchor) {
    const same = $(`:scope > li[data-key="${cssString(anchor.key)}"]`, list);
    if (same) window.scrollBy(0, same.getBoundingClientRect().top - anchor.top);
  }
  const empty = $("#news-empty");
  if (empty) empty.hidden = list.children.length > 0;
}

function setFailure(source, message) {
  for (const status of $$(".feed-status[data-sources]")) {
    if (!status.dataset.sources.split(" ").includes(source)) continue;
    let line = $(`[data-source="${cssString(source)}"]`, status);
    if (message) {
      if (!line) {
        line = document.createElement("span");
        line.dataset.source = source;
        status.append(line);
      }
      line.textContent = message;
    } else if (line) {
      line.remove();
    }
    status.hidden = status.children.length === 0;
  }
}

function setChecking(source, on) {
  if (on) checking.add(source);
  else checking.delete(source);
  for (const indicator of $$(".activity[data-sources]")) {
    const active = indicator.dataset.sources.split(" ").some((id) => checking.has(id));
    indicator.classList.toggle("is-active", active);
    indicator.setAttribute("aria-hidden", active ? "false" : "true");
  }
}

function setOpened(opened) {
  const link = $("#last-opened");
  if (!link || !opened) return;
  link.textContent = opened.title;
  link.setAttribute("href", opened.path);
  link.hidden = false;
  const hint = $(".last-opened-hint");
  if (hint) hint.hidden = true;
}

function onChanged(message) {
  setFailure(message.source, null);
  if (message.diff == null) return;
  const list = $(`[data-live-list="${cssString(message.source)}"]`);
  if (!list) return;
  if (!applyDiff(list, message.diff)) redrawLiveList(list);
  list.dataset.detectedAt = String(message.detectedAt);
  list.dataset.appliedAt = String(Date.now());
  if (message.added > 0) announce(`${message.added} new in ${message.name}`);
}

function onResync(message) {
  for (const [source, html] of Object.entries(message.lists)) {
    const list = $(`[data-live-list="${cssString(source)}"]`);
    if (list) applyList(list, html);
  }
  for (const source of Array.from(checking)) setChecking(source, false);
  for (const source of message.checking) setChecking(source, true);
  for (const status of $$(".feed-status")) {
    status.replaceChildren();
    status.hidden = true;
  }
  for (const [source, text] of Object.entries(message.failures)) setFailure(source, text);
  if (message.opened) setOpened(message.opened);
}

let lastEventId = null;

function connectLive() {
  if (!("EventSource" in window)) return;
  // Resume after what this page has seen: the last event, else the state it was drawn from
  // (pages that draw no live state carry 0 and need no catch-up).
  const since = lastEventId || (root.dataset.seq !== "0" ? root.dataset.seq : null);
  const events = new EventSource(since ? `/events?since=${encodeURIComponent(since)}` : "/events");
  const on = (name, handler) =>
    events.addEventListener(name, (event) => {
      if (event.lastEventId) lastEventId = event.lastEventId;
      try {
        handler(JSON.parse(event.data));
      } catch (error) {
        console.warn("kiosk: bad live event", name, error);
      }
    });
  events.addEventListener("open", () => {
    root.dataset.live = "open";
    document.dispatchEvent(new CustomEvent("kiosk:live-open"));
  });
  events.addEventListener("error", () => {
    root.dataset.live = events.readyState === EventSource.CLOSED ? "closed" : "connecting";
  });
  on("changed", (message) => {
    onChanged(message);
    onFeedChanged(message);
  });
  // A player's place goes to the player; everything else restyles rows and counts.
  on("reader", (message) => (message.kind === "position" ? onPositionElsewhere(message) : onReaderEvent(message)));
  on("activity", (message) => setChecking(message.source, message.checking));
  on("failed", (message) => setFailure(message.source, `${message.name} could not be refreshed (${message.message}); showing the last news received.`));
  on("opened", setOpened);
  on("resync", onResync);
  // Leaving the page closes the stream at once, so the server frees it; coming back to it from
  // the back/forward cache reopens it where it left off.
  const close = () => {
    events.close();
    window.removeEventListener("pagehide", close);
  };
  window.addEventListener("pagehide", close);
}

window.addEventListener("pageshow", (event) => {
  if (event.persisted) connectLive();
});

// ---------------------------------------------------------------------------------------------
// Refresh: the button (and pull-to-refresh on touch screens).

function setBusy(element, busy) {
  if (!element) return;
  element.setAttribute("aria-busy", busy ? "true" : "false");
  element.classList.toggle("is-busy", busy);
}

/** Reloads the screen's content in place from `url` (facts, albums). The server answers at once
 * with what it has; when that says a refresh goes on (`[data-refreshing]`), the outcome is asked
 * for (`?landed=1`) and drawn when it lands. The screen stays usable all along. */
async function refreshMain(url) {
  const main = $("#main");
  setBusy(main, true);
  try {
    let next = url;
    while (next) {
      const response = await fetch(next, { headers: { Accept: "text/html" } });
      const html = await response.text();
      const page = new DOMParser().parseFromString(html, "text/html");
      const fresh = $("#main", page);
      if (!fresh) break;
      // A pull-to-refresh spinner stays until the outcome lands, across the redraw.
      const pulling = $(".pull-indicator")?.classList.contains("is-refreshing");
      main.replaceChildren(...Array.from(fresh.childNodes).map((node) => document.adoptNode(node)));
      if (pulling) $(".pull-indicator")?.classList.add("is-refreshing");
      document.title = page.title;
      setupScreen();
      next = next !== url || !$("[data-refreshing]", main) ? null : url.replace("refresh=1", "landed=1");
    }
  } catch (error) {
    const banner = $("#api-error");
    if (banner) {
      banner.textContent = "Could not refresh: you may be offline.";
      banner.hidden = false;
    }
  } finally {
    setBusy(main, false);
  }
}

let pullAction = null; // what a pull does on this screen (set per page; null: nothing)
let pullListening = false;

function setupPullToRefresh(action) {
  pullAction = action;
  if (pullListening) return;
  pullListening = true;
  // Looked up each time: a refresh of Facts redraws the screen, indicator included.
  const indicatorNow = () => $(".pull-indicator");
  let startY = null;
  let pulled = 0;
  window.addEventListener(
    "touchstart",
    (event) => {
      startY = pullAction && window.scrollY <= 0 && event.touches.length === 1 ? event.touches[0].clientY : null;
      pulled = 0;
    },
    { passive: true },
  );
  window.addEventListener(
    "touchmove",
    (event) => {
      if (startY === null) return;
      pulled = Math.max(0, event.touches[0].clientY - startY);
      const indicator = indicatorNow();
      if (indicator) {
        indicator.classList.toggle("is-pulling", pulled > 0);
        indicator.classList.toggle("is-ready", pulled > 70);
      }
    },
    { passive: true },
  );
  window.addEventListener("touchend", () => {
    if (startY !== null && pulled > 70) {
      // The spinner stays until the refresh has landed (a slow source can take seconds).
      const shown = $(".pull-indicator");
      if (shown) shown.classList.add("is-refreshing");
      Promise.resolve(pullAction?.()).finally(() => $(".pull-indicator")?.classList.remove("is-refreshing"));
    }
    startY = null;
    pulled = 0;
    indicatorNow()?.classList.remove("is-pulling", "is-ready");
  });
}

// ---------------------------------------------------------------------------------------------
// Discover: search 1 s after the last keystroke, infinite scroll, refresh.

function setupDiscover() {
  const list = $("#articles");
  if (!list) return;
  const input = $("#search");
  const form = $("#search-form");
  const banner = $("#api-error");
  const queryError = $("#query-error");
  const saveForm = $("#save-search");
  const more = $("#load-more");
  const moreButton = $("#load-more-button");
  const empty = $(".empty-state");
  let pending = null; // the debounce timer
  let controller = null; // the request in flight
  let replacing = false; // a new list (search, refresh) is on its way: no "more" of the old one
  let loadingMore = false;
  const initialCategory = $("nav.categories a[aria-current=page]");
  const category = initialCategory ? initialCategory.dataset.category : "general";

  const showError = (text) => {
    banner.textContent = text || "";
    banner.hidden = !text;
  };

  const render = (data, append) => {
    if (data.superseded) return;
    showError(data.error);
    // A saved-news query that does not read is said under the box, where it was typed.
    if (queryError) {
      queryError.textContent = data.queryError || "";
      queryError.hidden = !data.queryError;
      input.setAttribute("aria-invalid", data.queryError ? "true" : "false");
    }
    // "Save this search" keeps what the box holds now, when it is a saved-news query that reads.
    if (saveForm) {
      const savedScope = new URLSearchParams(data.query || "").get("scope") === "saved";
      saveForm.elements.q.value = input.value;
      saveForm.hidden = !(savedScope && input.value.trim() && !data.queryError);
    }
    if (append) list.insertAdjacentHTML("beforeend", data.html);
    else list.innerHTML = data.html;
    list.dataset.page = String(data.page);
    list.dataset.hasMore = data.hasMore ? "true" : "false";
    list.dataset.query = data.query;
    more.hidden = !data.hasMore;
    if (empty) empty.hidden = list.children.length > 0 || !!data.error || !!data.queryError;
    localizeDates(list);
    watchImages(list);
  };

  /** Loads a page of the list; true when it landed. */
  const load = async (query, page, append, fresh = false) => {
    if (controller) controller.abort();
    controller = new AbortController();
    const mine = controller;
    replacing = !append;
    setBusy(list, true);
    try {
      // A refresh asks the news service again; anything else may be the answer Kiosk kept.
      const again = fresh ? "&refresh=1" : "";
      const response = await fetch(`/discover/results?${query}&page=${page}${again}`, { signal: mine.signal });
      const data = await response.json();
      render(data, append);
      return !data.superseded && !data.error;
    } catch (error) {
      if (error.name !== "AbortError") showError("Discover could not load: you may be offline.");
      return false;
    } finally {
      if (controller === mine) {
        controller = null;
        replacing = false;
        setBusy(list, false);
      }
    }
  };

  const currentCategoryQuery = () => `category=${category}`;

  const search = () => {
    pending = null;
    const text = input.value.trim();
    const scope = $("input[name=scope]:checked", form) || $("input[name=scope]", form);
    const scopeQuery = scope ? `&scope=${encodeURIComponent(scope.value)}` : "";
    const query = text ? `q=${encodeURIComponent(text)}${scopeQuery}` : currentCategoryQuery();
    history.replaceState(null, "", `/discover?${query}`);
    for (const link of $$("nav.categories a")) {
      if (!text && link.dataset.category === category) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    load(query, 1, false);
  };

  // Leaving the screen in place (navigation.js) drops a search still waiting and one in flight.
  document.addEventListener(
    "kiosk:leaving",
    () => {
      if (pending) clearTimeout(pending);
      pending = null;
      if (controller) controller.abort();
    },
    { once: true },
  );
  input.addEventListener("input", () => {
    // A newer keystroke cancels the pending search and the request of an older one.
    if (pending) clearTimeout(pending);
    if (controller) controller.abort();
    replacing = true;
    pending = setTimeout(search, 1000);
  });
  for (const radio of $$("input[type=radio][name=scope]", form)) {
    radio.addEventListener("change", () => {
      if (pending) clearTimeout(pending);
      if (input.value.trim()) search();
    });
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (pending) clearTimeout(pending);
    search();
  });

  const loadMore = () => {
    if (loadingMore || replacing || pending || list.dataset.hasMore !== "true") return;
    loadingMore = true;
    const next = Number(list.dataset.page || "1") + 1;
    load(list.dataset.query, next, true).then((landed) => {
      loadingMore = false;
      // The observer fires on changes only: a loader still in view after a short page asks again.
      if (landed && loaderInView()) loadMore();
    });
  };
  const loaderInView = () => {
    if (more.hidden) return false;
    const box = more.getBoundingClientRect();
    return box.top < window.innerHeight + 200 && box.bottom > -200;
  };
  if ("IntersectionObserver" in window) {
    new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadMore();
    }, { rootMargin: "200px 0px" }).observe(more);
  }
  moreButton.addEventListener("click", loadMore);

  const refresh = () => load(list.dataset.query, 1, false, true);
  // The news API was slow: the screen came at once, without its list; ask for it now.
  if (list.dataset.loading !== undefined) {
    const loading = $("#discover-loading");
    load(list.dataset.query, 1, false).finally(() => {
      if (loading) loading.hidden = true;
      delete list.dataset.loading;
    });
  }
  $("#refresh")?.addEventListener("click", refresh);
  setupPullToRefresh(refresh);
}

// ---------------------------------------------------------------------------------------------
// Jokes: one request at a time; spinner only while fetching, the text hidden meanwhile.

function setupJokes() {
  const button = $("#joke-button");
  if (!button) return;
  const text = $("#joke-text");
  const spinner = $("#joke-spinner");
  const error = $("#joke-error");
  let busy = false;
  button.addEventListener("click", async () => {
    if (busy) return;
    busy = true;
    button.disabled = true;
    text.hidden = true;
    error.hidden = true;
    spinner.hidden = false;
    try {
      const response = await fetch("/jokes/next", { method: "POST", headers: { "X-CSRF-Token": csrfToken() } });
      const data = await response.json();
      if (data.joke != null) {
        text.textContent = data.joke;
      } else {
        error.textContent = data.error || "No joke this time.";
        error.hidden = false;
      }
    } catch (failure) {
      error.textContent = "No joke this time: you may be offline.";
      error.hidden = false;
    } finally {
      spinner.hidden = true;
      text.hidden = false;
      button.disabled = false;
      busy = false;
    }
  });
}

// ---------------------------------------------------------------------------------------------

function setupScreen() {
  for (const list of $$("[data-live-list]")) rememberRows(list);
  localizeDates();
  watchImages();
  const refresh = $("#refresh");
  const page = document.body.dataset.page;
  if (refresh && page === "facts") {
    refresh.addEventListener("click", () => refreshMain("/facts?refresh=1"));
  }
}

// Opening a headline is remembered for Home by a POST (a GET never changes anything).
function reportOpened() {
  const page = document.body.dataset.page;
  if (page !== "news-detail" && page !== "discover-detail" && page !== "reader-entry") return;
  fetch("/opened", {
    method: "POST",
    keepalive: true,
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-CSRF-Token": csrfToken() },
    body: new URLSearchParams({ path: location.pathname }),
  }).catch(() => {});
}

// Plain forms (sign out, settings...) carry the session's token as a field; a file upload (OPML
// import, multipart) in its address, where the server reads it without parsing the upload.
function protectForms() {
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      const token = csrfToken();
      if (!(form instanceof HTMLFormElement) || !token || form.method.toLowerCase() !== "post") return;
      if (form.enctype === "multipart/form-data") {
        const action = new URL(form.action, location.href);
        action.searchParams.set("_csrf", token);
        form.action = action.pathname + action.search;
        return;
      }
      let field = form.querySelector('input[name="_csrf"]');
      if (!field) {
        field = document.createElement("input");
        field.type = "hidden";
        field.name = "_csrf";
        form.append(field);
      }
      field.value = token;
    },
    true,
  );
}

/** What every screen sets up when it is shown: on the first load, and again after an in-page
 * navigation (navigation.js) replaced the screen while an episode plays. */
function setupPage() {
  pullAction = null;
  setupScreen();
  startClock();
  setupDiscover();
  setupJokes();
  setupReader();
  setupPlayer();
  setupRuleForm(localizeDates);
  setupNotifications();
  reportOpened();
  if (document.body.dataset.page === "facts") setupPullToRefresh(() => refreshMain("/facts?refresh=1"));
  setupOffline(csrfToken(), isListening);
}

function start() {
  protectForms();
  // The network back while a screen stays open (an episode playing from what it buffered): what
  // waited is sent now rather than on the next screen.
  window.addEventListener("online", () => {
    if (document.body.dataset.page !== "reader-offline") setupOffline(csrfToken(), isListening);
  });
  // The sign-in page is all there is until the reader signs in: nothing live, no counts, and
  // nothing of an account kept on the device.
  if (document.body.dataset.page === "login") {
    forgetOffline().catch(() => {});
    forgetPlayer();
    return;
  }
  // The reader without a network, from what this device saved.
  if (document.body.dataset.page === "reader-offline") {
    showOfflineReader();
    return;
  }
  setupPage();
  setupSoftNavigation(setupPage);
  connectLive();
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch((error) => console.warn("kiosk: no offline support", error));
  }
}

start();
