// The reader's behaviour: read and star toggles, labels, mark all read with undo, unread counts in the
// page title and the app badge, keyboard shortcuts, and changes from other tabs. Every action is
// a POST the server also accepts from plain forms; this only makes them instant.

import { offlineCopyIsStale } from "./offline.js";

const $ = (selector, scope = document) => scope.querySelector(selector);
const $$ = (selector, scope = document) => Array.from(scope.querySelectorAll(selector));

// A signed-in page carries its session's anti-forgery token; every POST sends it back.
export function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.content : "";
}

/** POSTs `fields` as a form, as the server's actions take them (the anti-forgery token in its
 * header); sent even when the page is left at once, as a change the page already shows is done. */
export function sendForm(path, fields) {
  return fetch(path, {
    method: "POST",
    headers: {
      Accept: "application/json",
      "Content-Type": "application/x-www-form-urlencoded",
      "X-CSRF-Token": csrfToken(),
    },
    body: new URLSearchParams(fields),
    keepalive: true,
  });
}

async function post(path, fields) {
  const response = await sendForm(path, fields);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  offlineCopyIsStale();
  return response.json();
}

function notice(text, action, where = "#reader-notice") {
  const banner = $(where) || $("#live-status");
  if (!banner) return;
  banner.replaceChildren(document.createTextNode(text));
  if (action) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link-button";
    button.id = action.id;
    button.textContent = action.label;
    button.addEventListener("click", action.run, { once: true });
    banner.append(" ", button);
  }
  banner.hidden = false;
}

// ---- Counts: the title, the badges, the app icon --------------------------------------------

let countsTimer = null;

export function refreshCounts() {
  clearTimeout(countsTimer);
  countsTimer = setTimeout(loadCounts, 150);
}

// Counts requests overlap (a feed's change, a read in another tab...) and their answers can come
// back out of order: only the answer to the latest request is shown, never an older count over a
// newer one (a badge that stayed at its count from before a read, until the next change).
let countsAsked = 0;

async function loadCounts() {
  const asked = ++countsAsked;
  try {
    const response = await fetch("/reader/counts", { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const counts = await response.json();
    if (asked !== countsAsked) return;
    showCounts(counts);
  } catch {
    // Offline: the counts stay as they were.
  }
}

// The unread counts last shown, by reading list ("all", "feed:<id>"...).
let shownCounts = new Map();
// New entries arrived in the feeds of an unread list: whether to say so waits for the counts.
let newEntriesCheck = null;

function showCounts(counts) {
  const values = new Map([["all", counts.all], ["starred", counts.starred]]);
  for (const [id, count] of Object.entries(counts.feeds)) values.set(`feed:${id}`, count);
  for (const [name, count] of Object.entries(counts.folders)) values.set(`folder:${name}`, count);
  for (const [id, count] of Object.entries(counts.searches || {})) values.set(`search:${id}`, count);
  for (const [name, count] of Object.entries(counts.labels || {})) values.set(`label:${name}`, count);
  shownCounts = values;
  if (newEntriesCheck) {
    const check = newEntriesCheck;
    newEntriesCheck = null;
    if ((values.get(check.scope) ?? 0) > check.before) check.offer();
  }
  // A label the home list does not show yet (a rule put it on a new entry): the list is redrawn.
  const home = $("#reader-home");
  if (home && Object.keys(counts.labels || {}).some((name) => !$$("[data-count-for]", home).some((badge) => badge.dataset.countFor === `label:${name}`))) {
    redrawHome();
  }
  // A saved search's count stops one past its cap: "100+".
  const cap = counts.searchCap ?? Infinity;
  const shown = (key, count) => (key.startsWith("search:") && count > cap ? `${cap}+` : String(count));
  for (const badge of $$("[data-count-for]")) {
    const key = badge.dataset.countFor;
    const count = values.get(key) ?? 0;
    badge.textContent = shown(key, count);
    badge.hidden = count === 0;
    badge.setAttribute("aria-label", `${shown(key, count)} unread`);
  }
  if (document.body.dataset.page?.startsWith("reader")) {
    // A saved search's page counts its own unread entries; every other page, All unread.
    const scope = $("#reader-list")?.dataset.scope ?? "";
    const [key, count] = scope.startsWith("search:") ? [scope, values.get(scope) ?? 0] : ["all", counts.all];
    document.title = document.title.replace(/^\(\d+\+?\) /, "");
    if (count > 0) document.title = `(${shown(key, count)}) ${document.title}`;
  }
  if ("setAppBadge" in navigator) {
    (counts.all > 0 ? navigator.setAppBadge(counts.all) : navigator.clearAppBadge()).catch(() => {});
  }
}

// ---- Rows: read and star state --------------------------------------------------------------

function setRead(ids, read) {
  const wanted = new Set(ids.map(String));
  for (const row of $$("li.reader-entry[data-id]")) {
    if (!wanted.has(row.dataset.id)) continue;
    row.classList.toggle("is-read", read);
    const state = $(".read-state", row);
    if (state) state.textContent = read ? "read" : "unread";
  }
  const article = $("#reader-entry");
  if (article && wanted.has(article.dataset.id)) {
    article.dataset.read = String(read);
    const toggle = $("#toggle-read");
    if (toggle) toggle.textContent = read ? "Mark unread" : "Mark read";
  }
}

function setStarred(ids, starred) {
  const wanted = new Set(ids.map(String));
  for (const button of $$("button[data-star]")) {
    if (wanted.has(button.dataset.star)) button.setAttribute("aria-pressed", String(starred));
  }
}

// Hidden entries leave every list but Hidden (and leave Hidden when shown again).
function setHidden(ids, hidden) {
  const list = $("#reader-list");
  if (!list || hidden === (list.dataset.scope === "hidden")) return;
  const wanted = new Set(ids.map(String));
  for (const row of $$("li.reader-entry[data-id]", list)) {
    if (wanted.has(row.dataset.id)) row.remove();
  }
}

// ---- Labels ------------------------------------------------------------------------------------

// Shows `label` on (or off) the entries `ids` wherever they are drawn (rows, the entry's page).
function setLabelled(ids, label, on) {
  const wanted = new Set(ids.map(String));
  for (const list of $$("ul.label-chips[data-labels-for]")) {
    if (!wanted.has(list.dataset.labelsFor)) continue;
    const chip = $$("li.label-chip", list).find((item) => item.dataset.label === label);
    if (on && !chip) list.append(labelChip(list.dataset.labelsFor, label, list.dataset.removable !== undefined));
    if (!on && chip) chip.remove();
    list.hidden = list.children.length === 0;
  }
}

// One chip, built as the server draws it (text only: a label is never markup).
function labelChip(id, label, removable) {
  const item = document.createElement("li");
  item.className = "label-chip";
  item.dataset.label = label;
  const link = document.createElement("a");
  link.href = `/reader/label/${encodeURIComponent(label)}`;
  link.textContent = label;
  item.append(link);
  if (removable) {
    const form = document.createElement("form");
    form.className = "inline-form";
    form.method = "post";
    form.action = "/reader/label";
    for (const [name, value] of [["ids", id], ["label", label], ["on", "false"]]) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.append(input);
    }
    const button = document.createElement("button");
    button.type = "submit";
    button.className = "label-remove";
    button.dataset.labelRemove = label;
    button.setAttribute("aria-label", `Remove the label ${label}`);
    button.title = "Remove";
    button.textContent = "×";
    form.append(button);
    item.append(form);
  }
  return item;
}

// Puts a label on (or takes it off) entries; a refusal is said in the server's words.
async function sendLabel(ids, label, on) {
  const response = await fetch("/reader/label", {
    method: "POST",
    headers: {
      Accept: "application/json",
      "Content-Type": "application/x-www-form-urlencoded",
      "X-CSRF-Token": csrfToken(),
    },
    body: new URLSearchParams({ ids, label, on: String(on) }),
    keepalive: true,
  });
  if (!response.ok) {
    let message = "Could not save that: you may be offline.";
    try {
      const body = await response.json();
      message = body?.error?.message || message;
    } catch {
      // Not JSON: the general sentence.
    }
    throw new Error(message);
  }
  offlineCopyIsStale();
  return response.json();
}

function setupLabels() {
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.getAttribute("action") !== "/reader/label") return;
    event.preventDefault();
    const fields = Object.fromEntries(new FormData(form));
    const on = fields.on !== "false";
    try {
      const result = await sendLabel(fields.ids, fields.label, on);
      setLabelled(String(fields.ids).split(","), result.label, on);
      if (on) {
        const input = $("input[name=label]", form);
        if (input) input.value = "";
        form.closest("dialog")?.close();
      }
    } catch (error) {
      notice(error.message);
    }
    refreshCounts();
  });
}

// `l`: the entry's label field, or the dialog for the focused row of a list.
function askLabel(article, row) {
  if (article) {
    $("#label-form-name")?.focus();
    return true;
  }
  const dialog = $("#label-dialog");
  if (!row || !dialog?.showModal) return false;
  const ids = $("input[name=ids]", dialog);
  if (ids) ids.value = row.dataset.id;
  dialog.showModal();
  $("#label-dialog-form-name")?.focus();
  return true;
}

async function toggleRead(id, read) {
  setRead([id], read);
  try {
    await post("/reader/read", { ids: id, read: String(read) });
  } catch {
    setRead([id], !read);
    notice("Could not save that: you may be offline.");
  }
  refreshCounts();
}

async function toggleStar(button) {
  const starred = button.getAttribute("aria-pressed") !== "true";
  setStarred([button.dataset.star], starred);
  try {
    await post("/reader/star", { ids: button.dataset.star, starred: String(starred) });
  } catch {
    setStarred([button.dataset.star], !starred);
    notice("Could not save that: you may be offline.");
  }
  refreshCounts();
}

// ---- Keyboard: j/k, o/Enter, m, s, l, r, ? --------------------------------------------------

function rows() {
  return $$("#reader-list > li.reader-entry");
}

function focusedRow() {
  return document.activeElement?.closest?.("li.reader-entry") || $("#reader-list > li.is-current");
}

function moveTo(row) {
  if (!row) return;
  for (const other of $$("#reader-list > li.is-current")) other.classList.remove("is-current");
  row.classList.add("is-current");
  $("a.entry-link", row)?.focus();
  row.scrollIntoView({ block: "nearest" });
}

function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) {
    return;
  }
  const help = $("#shortcuts");
  const article = $("#reader-entry");
  const list = rows();
  const current = focusedRow();
  switch (event.key) {
    case "j":
    case "k": {
      if (!list.length) return;
      const index = current ? list.indexOf(current) : -1;
      const next = event.key === "j" ? Math.min(index + 1, list.length - 1) : Math.max(index - 1, 0);
      moveTo(list[next]);
      break;
    }
    case "o":
    case "Enter":
      if (event.key === "Enter" && target instanceof HTMLElement && target.closest("a, button")) return;
      if (current) $("a.entry-link", current)?.click();
      else return;
      break;
    case "m":
      if (article) toggleRead(article.dataset.id, article.dataset.read !== "true");
      else if (current) toggleRead(current.dataset.id, !current.classList.contains("is-read"));
      else return;
      break;
    case "s": {
      const button = article ? $("button[data-star]", article) : current ? $("button[data-star]", current) : null;
      if (!button) return;
      toggleStar(button);
      break;
    }
    case "l":
      if (!askLabel(article, current)) return;
      break;
    case "r":
      window.location.reload();
      break;
    case "?":
      if (help?.showModal && !help.open) help.showModal();
      break;
    default:
      return;
  }
  event.preventDefault();
}

// ---- Mark all read, with undo ---------------------------------------------------------------

function setupMarkAll() {
  const form = $("#mark-all-form");
  if (!form) return;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = Object.fromEntries(new FormData(form));
    try {
      const result = await post("/reader/mark-all", fields);
      setRead(rows().map((row) => row.dataset.id).filter((id) => Number(id) <= Number(fields.upTo)), true);
      refreshCounts();
      notice(`${result.count} marked read.`, {
        id: "undo",
        label: "Undo",
        run: async () => {
          await post("/reader/undo", { token: result.undo });
          window.location.reload();
        },
      });
    } catch {
      notice("Could not mark them read: you may be offline.");
    }
  });
}

// ---- Live: what other tabs (and the feeds) changed ------------------------------------------

export function onReaderEvent(message) {
  if (message.kind === "read") setRead(message.ids, message.value);
  if (message.kind === "starred") setStarred(message.ids, message.value);
  if (message.kind === "labelled") {
    setLabelled(message.ids, message.label, message.value);
    // A new label (or one no entry carries any more) is a new row of the home list.
    redrawHome();
  }
  if (message.kind === "hidden") {
    setHidden(message.ids, message.value);
    redrawHome();
  }
  if (message.kind === "subscriptions") redrawHome();
  refreshCounts();
}

export function onFeedChanged(message) {
  if (!document.body.dataset.page?.startsWith("reader")) return;
  refreshCounts();
  const list = $("#reader-list");
  if (!list || message.added === 0) return;
  const sources = list.dataset.sources || "";
  if (sources !== "*" && !sources.split(" ").includes(message.source)) return;
  const offer = () => {
    // An empty list fills at once; a list being read is left alone until the reader asks.
    if (list.children.length === 0) redrawList();
    else notice("New entries arrived.", { id: "show-new", label: "Show them", run: redrawList }, "#reader-new");
  };
  // A list of unread entries says so only when its count grew: new entries a rule marked read
  // (in the same write that stored them) are not new to it.
  const scope = list.dataset.scope;
  const before = shownCounts.get(scope);
  if (list.dataset.unreadOnly === undefined || before === undefined) return offer();
  // Decided by the next counts shown (the answer to the latest request, whichever that is).
  newEntriesCheck = { scope, before: newEntriesCheck?.before ?? before, offer };
  loadCounts();
}

async function redrawList() {
  try {
    const response = await fetch(window.location.href, { headers: { Accept: "text/html" } });
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    for (const id of ["reader-list", "reader-empty", "reader-more", "mark-all-form"]) {
      const fresh = $(`#${id}`, page);
      const current = $(`#${id}`);
      if (fresh && current) current.replaceWith(document.adoptNode(fresh));
    }
    setupMarkAll();
    const banner = $("#reader-new");
    if (banner) banner.hidden = true;
  } catch {
    // Offline: a reload brings them.
  }
}

async function redrawHome() {
  const home = $("#reader-home");
  if (!home) return;
  try {
    const response = await fetch("/reader", { headers: { Accept: "text/html" } });
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = $("#reader-home", page);
    if (fresh) home.replaceChildren(...Array.from(fresh.childNodes).map((node) => document.adoptNode(node)));
  } catch {
    // Offline: the next change or a reload brings it.
  }
}

// ---------------------------------------------------------------------------------------------

const onReaderPage = () => (document.body.dataset.page || "").startsWith("reader");
let listening = false;

/** The document's own listeners, once (a screen replaced in place keeps them): keys, stars and
 * labels, each only on the reader's screens. */
function listenOnce() {
  if (listening) return;
  listening = true;
  document.addEventListener("keydown", (event) => {
    if (onReaderPage()) onKey(event);
  });
  // An empty list when the stream opens asks once more: entries stored between drawing the page
  // and the stream's start (a new feed's first check) were in no event this page can hear.
  document.addEventListener("kiosk:live-open", () => {
    const list = $("#reader-list");
    if (onReaderPage() && list && list.children.length === 0) redrawList();
  });
  document.addEventListener("click", (event) => {
    if (!onReaderPage()) return;
    const star = event.target.closest?.("button[data-star]");
    if (star) {
      event.preventDefault();
      toggleStar(star);
    }
    // A row's "Add a label": the dialog `l` opens, for that row.
    const ask = event.target.closest?.("button[data-label-ask]");
    if (ask) askLabel(null, ask.closest("li.reader-entry"));
  });
  setupLabels();
}

export function setupReader() {
  const page = document.body.dataset.page || "";
  if ("setAppBadge" in navigator || page.startsWith("reader")) refreshCounts();
  if (!page.startsWith("reader")) return;
  listenOnce();
  setupMarkAll();
  $("#shortcuts-button")?.addEventListener("click", () => $("#shortcuts")?.showModal?.());
  const article = $("#reader-entry");
  if (article) {
    // Opening an entry marks it read: a POST from here, never a side effect of the GET.
    if (article.dataset.read !== "true") toggleRead(article.dataset.id, true);
    const form = $("#toggle-read")?.closest("form");
    form?.addEventListener("submit", (event) => {
      event.preventDefault();
      toggleRead(article.dataset.id, article.dataset.read !== "true");
    });
  }
}
