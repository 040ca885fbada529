// The episode player (EpisodePlayer.swift draws it): Play, skips, a speed kept per feed on this
// device, a sleep timer, and the lock screen's and headphones' controls (Media Session). Once an
// episode has started it is this document's "session": leaving its page for another screen of
// Kiosk (navigation.js swaps the screen in place) moves the same media element into the dock, a
// mini-player at the bottom of a phone's screen or of a tablet's sidebar, where it goes on
// playing until stopped; coming back to the episode's page puts it back in its player. Without
// this script the media element's own controls still play the episode.

import { queuePlace } from "./offline.js";
import { sendForm } from "./reader.js";

const SPEEDS_KEY = "kiosk-player-speed"; // { feedID: "1.5" }
/** Episodes saved for offline, whole, under their `/media` address (sw.js answers from it). */
const MEDIA_CACHE = "kiosk-media-v1";
/** The space saved episodes may take on this device, in MB (Settings; SettingsPage's default). */
const MEDIA_LIMIT_KEY = "kiosk-media-limit-mb";
const DEFAULT_MEDIA_LIMIT_MB = 500;
/** While playing, the place is saved this often (and on pause, end and leaving the page). */
const SAVE_EVERY_MS = 10_000;
/** This page's own id: the place it saves comes back on the live stream, and it is not news here. */
const CLIENT = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => byte.toString(16).padStart(2, "0")).join("");

/** The episode this document is playing: its media element and what the dock says of it. */
let session = null; // { media, feed, title, artist, artwork, href, stopped }
let sleepTimer = null;

export function isListening() {
  return (
    !!session &&
    !session.stopped &&
    !session.media.error &&
    (!session.media.paused || session.media.currentTime > 0)
  );
}

/** Everything of the player kept on this device (the speeds per feed): the sign-in page wipes it,
 * with the offline copy, so another account never sees which feeds this one follows. */
export function forgetPlayer() {
  try {
    localStorage.removeItem(SPEEDS_KEY);
  } catch {
    // Storage unavailable: nothing was kept.
  }
  // And the episodes saved for offline (sw.js deletes them too, seeing this page), and which.
  if ("caches" in window) caches.delete(MEDIA_CACHE).catch(() => {});
  try {
    localStorage.removeItem(KEEP_KEY);
    localStorage.removeItem(KEPT_KEY);
    localStorage.removeItem(KEPT_AT_KEY);
  } catch {
    // Storage unavailable: nothing was kept.
  }
}

function savedSpeeds() {
  try {
    const speeds = JSON.parse(localStorage.getItem(SPEEDS_KEY) || "{}");
    return speeds && typeof speeds === "object" ? speeds : {};
  } catch {
    return {};
  }
}

function saveSpeed(feed, speed) {
  const speeds = savedSpeeds();
  if (speed === "1") delete speeds[feed];
  else speeds[feed] = speed;
  try {
    localStorage.setItem(SPEEDS_KEY, JSON.stringify(speeds));
  } catch {
    // Private browsing or a full store: the speed holds for this document only.
  }
}

function clock(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor(whole / 60) % 60;
  const rest = String(whole % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

function skip(media, seconds) {
  const end = Number.isFinite(media.duration) ? media.duration : Infinity;
  media.currentTime = Math.min(Math.max(0, media.currentTime + seconds), end);
}

function toggle(media) {
  if (media.paused) media.play().catch(() => {});
  else media.pause();
}

function applySpeed(media, value) {
  const rate = Number(value);
  if (!Number.isFinite(rate) || rate <= 0) return;
  media.playbackRate = rate;
  media.defaultPlaybackRate = rate;
}

// ---- The session: one media element, whichever page or dock holds it ---------------------------

function begin(player, media) {
  if (session && session.media !== media) stop();
  if (session?.media === media) return;
  session = {
    media,
    feed: player.dataset.feed || "",
    title: player.dataset.title || "",
    artist: player.dataset.artist || "",
    artwork: player.dataset.artwork || "",
    href: location.pathname,
    stopped: false,
    sleep: null, // { minutes, until } while the sleep timer runs
    positionURL: player.dataset.positionUrl || "",
    savedAt: 0,
  };
  const current = session;
  // The account's place, kept on the server for every device: while playing every few seconds,
  // and whenever it stops.
  // (A stopped session's listeners go quiet: the element may be played again as a new one.)
  media.addEventListener("timeupdate", () => {
    if (!current.stopped && !media.paused && Date.now() - current.savedAt >= SAVE_EVERY_MS) savePlace(current);
  });
  media.addEventListener("pause", () => current.stopped || savePlace(current));
  media.addEventListener("ended", () => current.stopped || savePlace(current, true));
  media.addEventListener("play", () => {
    if (current.stopped) return;
    current.markedPlayed = false; // played again after "Mark as played"
    savePlace(current);
  });
  media.addEventListener("play", () => drawDock());
  media.addEventListener("pause", () => drawDock());
  media.addEventListener("ended", () => drawDock());
  media.addEventListener("timeupdate", () => drawDock());
  // A file that cannot be played is no episode to keep: no dock, links load pages again.
  media.addEventListener("error", () => {
    if (session?.media === media) stop();
  });
  setupMediaSession(media);
}

/** Sends where `state`'s media is to its episode's position address (a page of a feed the user
 * follows), one save after another so the last one sent is the last one kept; `still` says it is
 * not playing (the page or the session is ending). A lost save is no harm: the next one carries
 * the place. */
function savePlace(state, finished = false, still = false) {
  const media = state.media;
  if (!state.positionURL || !Number.isFinite(media.currentTime)) return;
  // Before its length is known the element is at 0:00 whatever the account's place (the resume
  // comes with the length), and one that failed has no place at all: nothing to say.
  if (media.readyState < 1 || media.error) return;
  if (state.markedPlayed && !finished) return;
  state.savedAt = Date.now();
  const fields = {
    seconds: media.currentTime.toFixed(1),
    playing: String(!still && !media.paused && !media.ended),
    finished: String(finished || media.ended),
    client: CLIENT,
  };
  if (Number.isFinite(media.duration) && media.duration > 0) fields.duration = media.duration.toFixed(1);
  const send = () =>
    // Without a network the place waits with the read and star changes made offline.
    sendForm(state.positionURL, fields).catch(() => queuePlace(state.positionURL, fields));
  // A page being left cannot wait for the save before: this one goes at once (keepalive).
  state.sending = still ? send() : (state.sending || Promise.resolve()).then(send);
}

// The page going away while playing (closed, reloaded): the place as it is, no longer playing
// (a pause saved it already otherwise).
addEventListener("pagehide", () => {
  if (session && !session.stopped && !session.media.paused) savePlace(session, false, true);
});

/** Where another device (or tab) of this account is in an episode, from the live stream: the
 * episode's page says so, and takes it up from there unless it is playing itself. */
export function onPositionElsewhere(message) {
  const place = message.position;
  if (!place || place.client === CLIENT) return;
  const player = document.getElementById("player");
  if (!player || player.dataset.entry !== String(message.ids[0])) return;
  const line = document.getElementById("player-elsewhere");
  if (line) {
    line.textContent = placeSentence(place.seconds, message.value, place.finished, place.device);
    line.hidden = false;
  }
  const resume = place.finished ? 0 : Number(place.seconds);
  player.dataset.resume = String(resume);
  // This page's own media (the dock's may be another episode's); moved only while it is still.
  const media = player.querySelector("#player-media");
  if (media && media.paused && media.readyState >= 1 && Number.isFinite(resume)) media.currentTime = resume;
}

/** The words EpisodePlayer.Place.sentence draws: "Paused at 23:10 on iPhone". */
function placeSentence(seconds, playing, finished, device) {
  if (finished) return `Played to the end on ${device}`;
  return playing ? `Playing on ${device} (${clock(seconds)})` : `Paused at ${clock(seconds)} on ${device}`;
}

function stop() {
  if (!session) return;
  if (!session.media.paused) savePlace(session, false, true);
  session.stopped = true;
  session.media.pause();
  clearTimeout(sleepTimer);
  sleepTimer = null;
  document.getElementById("dock")?.remove();
  document.body.classList.remove("has-dock");
  if ("mediaSession" in navigator) {
    // The lock screen and headphones let go of it too.
    for (const action of MEDIA_ACTIONS) {
      try {
        navigator.mediaSession.setActionHandler(action, null);
      } catch {
        // An action this browser does not know.
      }
    }
    navigator.mediaSession.metadata = null;
    navigator.mediaSession.playbackState = "none";
  }
  session = null;
}

const MEDIA_ACTIONS = ["play", "pause", "seekbackward", "seekforward", "seekto", "stop"];

function setupMediaSession(media) {
  if (!("mediaSession" in navigator)) return;
  const describe = () => {
    if (!session || session.media !== media) return;
    navigator.mediaSession.metadata = new MediaMetadata({
      title: session.title,
      artist: session.artist,
      album: session.artist,
      artwork: session.artwork ? [{ src: session.artwork, sizes: "512x512" }] : [],
    });
  };
  const handlers = {
    play: () => media.play(),
    pause: () => media.pause(),
    seekbackward: (details) => skip(media, -(details.seekOffset || 15)),
    seekforward: (details) => skip(media, details.seekOffset || 30),
    seekto: (details) => {
      media.currentTime = details.seekTime;
    },
    stop: () => stop(),
  };
  for (const [action, handler] of Object.entries(handlers)) {
    try {
      navigator.mediaSession.setActionHandler(action, handler);
    } catch {
      // An action this browser does not know.
    }
  }
  media.addEventListener("play", describe);
  describe();
}

// ---- The dock: the mini-player while the episode's page is not shown ---------------------------

function button(id, text, label, onClick, primary = false) {
  const element = document.createElement("button");
  element.type = "button";
  element.id = id;
  element.className = primary ? "button primary dock-button" : "button dock-button";
  element.textContent = text;
  if (label) element.setAttribute("aria-label", label);
  element.addEventListener("click", onClick);
  return element;
}

function dock() {
  if (!session) return;
  let element = document.getElementById("dock");
  if (!element) {
    element = document.createElement("section");
    element.id = "dock";
    element.className = "dock";
    element.setAttribute("aria-label", "Now playing");
    const holder = document.createElement("div");
    holder.className = "dock-media";
    const title = document.createElement("a");
    title.className = "dock-title";
    title.id = "dock-title";
    const artist = document.createElement("span");
    artist.className = "dock-artist";
    const words = document.createElement("div");
    words.className = "dock-words";
    words.append(title, artist);
    const progress = document.createElement("progress");
    progress.className = "dock-progress";
    progress.id = "dock-progress";
    progress.setAttribute("aria-label", "Played");
    const controls = document.createElement("div");
    controls.className = "dock-controls";
    controls.append(
      button("dock-back", "−15", "Back 15 seconds", () => session && skip(session.media, -15)),
      button("dock-play", "Pause", null, () => session && toggle(session.media), true),
      button("dock-stop", "✕", "Stop", () => stop()),
    );
    element.append(holder, words, controls, progress);
    document.body.append(element);
  }
  const holder = element.querySelector(".dock-media");
  if (session.media.parentElement !== holder) {
    session.media.controls = false;
    holder.replaceChildren(session.media); // the same element: it plays on
  }
  element.classList.toggle("dock-video", session.media.tagName === "VIDEO");
  const title = element.querySelector(".dock-title");
  title.textContent = session.title;
  title.setAttribute("href", session.href);
  element.querySelector(".dock-artist").textContent = session.artist;
  document.body.classList.add("has-dock");
  drawDock();
}

/** A Play/Pause button (the page's or the dock's) saying what pressing it does now. */
function showPlayState(button, media) {
  button.textContent = media.paused ? "Play" : "Pause";
  button.setAttribute("aria-pressed", media.paused ? "false" : "true");
}

function drawDock() {
  const element = document.getElementById("dock");
  if (!element || !session) return;
  const media = session.media;
  const play = element.querySelector("#dock-play");
  showPlayState(play, media);
  const progress = element.querySelector("#dock-progress");
  if (Number.isFinite(media.duration) && media.duration > 0) {
    progress.max = media.duration;
    progress.value = media.currentTime;
    progress.setAttribute("aria-valuetext", `${clock(media.currentTime)} of ${clock(media.duration)}`);
  }
}

function undock(into) {
  document.getElementById("dock")?.remove();
  document.body.classList.remove("has-dock");
  if (session && session.media !== into) {
    session.media.controls = true;
    into.replaceWith(session.media);
  }
}

// Leaving a screen (navigation.js): the episode goes on in the dock.
document.addEventListener("kiosk:leaving", () => {
  if (isListening()) dock();
});

// ---- The player on an episode's page ------------------------------------------------------------

export function setupPlayer() {
  setupMediaSettings();
  setupKeepEpisodes();
  keepNext().catch(() => {});
  const player = document.getElementById("player");
  let media = document.getElementById("player-media");
  if (!player || !media) {
    if (isListening()) dock();
    return;
  }
  // The episode playing in the dock is this page's: it comes back into its player.
  if (isListening() && sameFile(session.media, media)) {
    undock(media);
    media = session.media;
  } else if (isListening()) {
    dock();
  }
  // The account's place, wherever it was saved: playing starts there.
  if (media !== session?.media) resumeAt(player, media);
  setupOffline(player, media);
  const feed = player.dataset.feed || "";
  const status = document.getElementById("player-status");
  const say = (text) => {
    if (status) status.textContent = text;
  };

  const play = document.getElementById("player-play");
  play?.addEventListener("click", () => {
    begin(player, media);
    if (media.paused) media.play().catch(() => say("This episode cannot be played here."));
    else media.pause();
  });
  const showPlaying = () => {
    if (!play || !play.isConnected) return;
    showPlayState(play, media);
  };
  media.addEventListener("play", () => {
    begin(player, media); // the native controls and the lock screen start it too
    showPlaying();
  });
  media.addEventListener("pause", showPlaying);
  showPlaying();

  const played = document.getElementById("player-played");
  played?.addEventListener("click", () => {
    // The pause this causes is no place to keep: the episode is finished.
    const state = session?.media === media ? session : { media, positionURL: player.dataset.positionUrl || "", savedAt: 0 };
    state.markedPlayed = true;
    if (!media.paused) media.pause();
    savePlace(state, true);
    player.dataset.resume = "0";
    say("Marked as played");
  });

  for (const control of player.querySelectorAll("button[data-skip]")) {
    control.addEventListener("click", () => skip(media, Number(control.dataset.skip)));
  }

  const speed = document.getElementById("player-speed");
  const kept = savedSpeeds()[feed];
  if (speed && kept && [...speed.options].some((option) => option.value === kept)) speed.value = kept;
  if (speed && (kept || media === session?.media)) applySpeed(media, speed.value);
  speed?.addEventListener("change", () => {
    applySpeed(media, speed.value);
    saveSpeed(feed, speed.value);
  });
  // A new source (or the browser) resets the rate; the chosen one holds.
  media.addEventListener("loadedmetadata", () => speed && speed.isConnected && applySpeed(media, speed.value));

  const sleep = document.getElementById("player-sleep");
  sleep?.addEventListener("change", () => {
    clearTimeout(sleepTimer);
    sleepTimer = null;
    if (session?.media === media) session.sleep = null;
    const minutes = Number(sleep.value);
    if (!minutes) {
      say("");
      return;
    }
    begin(player, media);
    const until = new Date(Date.now() + minutes * 60_000);
    session.sleep = { minutes: sleep.value, until };
    say(stopsAt(until));
    sleepTimer = setTimeout(() => {
      media.pause();
      sleepTimer = null;
      if (session) session.sleep = null;
      const shown = document.getElementById("player-sleep");
      if (shown) shown.value = "0";
      const status = document.getElementById("player-status");
      if (status) status.textContent = "Stopped by the sleep timer";
    }, minutes * 60_000);
  });
  // Back on the episode's page with a sleep timer running: it shows, and "Off" cancels it.
  if (sleep && session?.media === media && session.sleep) {
    sleep.value = session.sleep.minutes;
    say(stopsAt(session.sleep.until));
  }

  media.addEventListener("error", () => {
    say("This episode cannot be played here. The link below downloads it.");
    player.classList.add("player-failed");
  });
  media.addEventListener("ended", () => say("Finished"));
  setupChapters(player, media);
  setupTranscript(player, media);
  media.addEventListener("timeupdate", () => {
    if (!player.isConnected) return;
    player.dataset.position = String(Math.floor(media.currentTime));
    if (Number.isFinite(media.duration) && !sleepTimer && !media.paused) {
      say(`${clock(media.duration - media.currentTime)} left`);
    }
  });
}

/** Starts `media` at the page's saved place (`data-resume`, which the live stream keeps current)
 * once its length is known, unless someone already moved it. */
/** "Save for offline": the whole file through Kiosk into Cache Storage, and a second tap removes
 * it. A saved episode plays from the device (its `/media` address, which sw.js answers with the
 * ranges asked), network or not. */
async function setupOffline(player, media) {
  const button = document.getElementById("player-offline");
  const src = player.dataset.offlineSrc;
  if (!button || !src || !("caches" in window)) return;
  const key = new URL(src, location.href).href;
  // The episode's page is kept beside it, so it opens (with its player) without a network.
  const page = location.origin + location.pathname;
  let cache;
  try {
    cache = await caches.open(MEDIA_CACHE);
  } catch {
    return; // No Cache Storage here (private browsing): nothing to save into.
  }
  let saved = !!(await cache.match(key));
  const status = document.getElementById("player-status");
  const show = () => {
    button.textContent = saved ? "Saved for offline" : "Save for offline";
    button.setAttribute("aria-pressed", String(saved));
  };
  button.hidden = false;
  show();
  // Not yet started: it plays from the saved copy.
  if (saved && media !== session?.media && media.paused && media.getAttribute("src") !== src) {
    // What the publisher's address said (offline: it failed) is not this copy's.
    player.classList.remove("player-failed");
    if (status) status.textContent = "";
    media.src = src;
    resumeAt(player, media);
  }
  button.addEventListener("click", async () => {
    if (saved) {
      await Promise.all([cache.delete(key), cache.delete(page)]);
      // One the feed's "Keep the next 3" saved stays removed: not saved again.
      const kept = readJSON(KEPT_KEY, {});
      if (kept[key]) {
        kept[key].dismissed = true;
        writeJSON(KEPT_KEY, kept);
      }
      saved = false;
      show();
      if (status) status.textContent = "Removed from this device";
      return;
    }
    button.disabled = true;
    button.textContent = "Saving…";
    try {
      saved = await saveEpisode(cache, key, page);
      if (status) {
        status.textContent = saved
          ? "Saved on this device"
          : "Not enough room on this device: remove a saved episode, or allow more in Settings.";
      }
    } catch {
      if (status) status.textContent = "This episode could not be saved.";
    }
    button.disabled = false;
    show();
  });
}

/** Keeps the file at `key` (a `/media` address) and its episode's `page` in `cache`: true when
 * kept, false when it would pass the space allowed; throws when it cannot be had. */
async function saveEpisode(cache, key, page) {
  const room = mediaLimit() * 1_000_000 - (await savedEpisodes(cache)).bytes;
  const response = await fetch(key);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  // Too big by its announced length: not read at all.
  if (Number(response.headers.get("Content-Length")) > room) {
    response.body?.cancel().catch(() => {});
    return false;
  }
  const blob = await response.blob();
  if (blob.size > room) return false;
  // The episode's own page, not where a redirect led (the sign-in page of an ended session).
  const copy = await fetch(page, { headers: { Accept: "text/html" } });
  if (!copy.ok || copy.redirected || new URL(copy.url).pathname !== new URL(page).pathname) {
    throw new Error("the episode's page could not be kept");
  }
  await cache.put(page, copy);
  await cache.put(
    key,
    new Response(blob, {
      headers: {
        "Content-Type": response.headers.get("Content-Type") || "application/octet-stream",
        "Content-Length": String(blob.size),
      },
    }),
  );
  return true;
}

// ---- "Keep the next 3 unplayed": per feed, on this device -----------------------------------------

const KEEP_KEY = "kiosk-keep-episodes"; // [feedID]
const KEPT_KEY = "kiosk-kept-episodes"; // { mediaURL: { feed, page } }: what keepNext saved
const KEPT_AT_KEY = "kiosk-kept-at"; // when this device last looked (ms since 1970)
/** How often (at most) this device looks for new episodes to keep, whatever the screens. */
const KEEP_EVERY_MS = 5 * 60_000;

function readJSON(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key) || "null");
    return value && typeof value === "object" ? value : fallback;
  } catch {
    return fallback;
  }
}

function writeJSON(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage unavailable: the choice holds for this document only.
  }
}

/** For each feed this device keeps episodes of: its newest unplayed ones saved, and the ones it
 * saved that are played (or gone) removed. At most every few minutes, one run at a time (across
 * this device's tabs too, where the browser has Web Locks). */
let keeping = null;
async function keepNext(force = false) {
  while (keeping) await keeping.catch(() => {});
  const run = () => keepRun(force);
  keeping = navigator.locks ? navigator.locks.request("kiosk-keep-episodes", run) : run();
  try {
    await keeping;
  } finally {
    keeping = null;
  }
}

async function keepRun(force) {
  const feeds = readJSON(KEEP_KEY, []);
  const kept = readJSON(KEPT_KEY, {});
  if (!("caches" in window) || !navigator.onLine) return;
  if (!feeds.length && !Object.keys(kept).length) return;
  if (!force && Date.now() - Number(readJSON(KEPT_AT_KEY, [0])[0]) < KEEP_EVERY_MS) return;
  writeJSON(KEPT_AT_KEY, [Date.now()]);
  const cache = await caches.open(MEDIA_CACHE);
  let full = false;
  for (const feed of new Set([...feeds, ...Object.values(kept).map((item) => item.feed)])) {
    let wanted = [];
    if (feeds.includes(feed)) {
      const response = await fetch(`/reader/feed/${encodeURIComponent(feed)}/episodes.json`, {
        headers: { Accept: "application/json" },
      });
      if (response.status === 404) {
        // Unsubscribed (or no media proxy now): nothing of it is kept any more.
        writeJSON(KEEP_KEY, readJSON(KEEP_KEY, []).filter((id) => id !== feed));
      } else if (!response.ok) {
        continue;
      } else {
        wanted = (await response.json()).episodes || [];
      }
    }
    const keys = new Set(wanted.map((episode) => new URL(episode.media, location.href).href));
    for (const [media, item] of Object.entries(kept)) {
      if (item.feed !== feed || keys.has(media)) continue;
      await Promise.all([cache.delete(media), cache.delete(item.page)]);
      delete kept[media];
    }
    for (const episode of wanted) {
      const media = new URL(episode.media, location.href).href;
      const page = new URL(episode.page, location.href).href;
      if (full || kept[media]?.dismissed || (await cache.match(media))) continue;
      try {
        if (!(await saveEpisode(cache, media, page))) full = true; // no more room, for any feed
        else kept[media] = { feed, page };
      } catch {
        // This one another time.
      }
    }
  }
  // Signed out meanwhile (the sign-in page cleared the choice): nothing is written back.
  if (feeds.length && localStorage.getItem(KEEP_KEY) === null) return;
  // An episode removed by hand meanwhile stays removed.
  for (const [media, item] of Object.entries(readJSON(KEPT_KEY, {}))) {
    if (item.dismissed && kept[media]) kept[media].dismissed = true;
  }
  writeJSON(KEPT_KEY, kept);
}

/** A feed's settings: "Keep the next 3 unplayed episodes" on this device. */
function setupKeepEpisodes() {
  const section = document.getElementById("keep-episodes");
  const box = document.getElementById("feed-keep-episodes");
  if (!section || !box || !("caches" in window)) return;
  const feed = section.dataset.feed;
  section.hidden = false;
  box.checked = readJSON(KEEP_KEY, []).includes(feed);
  const status = document.getElementById("keep-episodes-status");
  box.addEventListener("change", async () => {
    const feeds = readJSON(KEEP_KEY, []).filter((id) => id !== feed);
    if (box.checked) feeds.push(feed);
    writeJSON(KEEP_KEY, feeds);
    if (status) status.textContent = box.checked ? "Saving the next episodes…" : "Removing the episodes kept…";
    try {
      await keepNext(true);
      const count = Object.values(readJSON(KEPT_KEY, {})).filter((item) => item.feed === feed && !item.dismissed).length;
      if (status) {
        status.textContent = box.checked
          ? `${count} episode${count === 1 ? "" : "s"} kept on this device`
          : "No episodes of this feed kept on this device";
      }
    } catch {
      if (status) status.textContent = "The episodes could not be saved now; Kiosk tries again later.";
    }
  });
}

function mediaLimit() {
  try {
    return Number(localStorage.getItem(MEDIA_LIMIT_KEY)) || DEFAULT_MEDIA_LIMIT_MB;
  } catch {
    return DEFAULT_MEDIA_LIMIT_MB;
  }
}

/** How many episodes are saved on this device, and their bytes. */
async function savedEpisodes(cache) {
  let count = 0;
  let bytes = 0;
  for (const request of await cache.keys()) {
    if (new URL(request.url).pathname !== "/media") continue;
    const kept = await cache.match(request);
    count += 1;
    bytes += Number(kept?.headers.get("Content-Length")) || (kept ? (await kept.blob()).size : 0);
  }
  return { count, bytes };
}

/** Settings: the space saved episodes may take here, and what they take now. */
async function setupMediaSettings() {
  const select = document.getElementById("media-limit");
  const used = document.getElementById("media-used");
  if (!select || !used || !("caches" in window)) return;
  const limit = String(mediaLimit());
  if ([...select.options].some((option) => option.value === limit)) select.value = limit;
  select.addEventListener("change", () => {
    try {
      localStorage.setItem(MEDIA_LIMIT_KEY, select.value);
    } catch {
      // Storage unavailable: the default holds.
    }
    describe();
  });
  const describe = async () => {
    const { count, bytes } = await savedEpisodes(await caches.open(MEDIA_CACHE));
    const megabytes = (bytes / 1_000_000).toFixed(1);
    used.textContent = `Saved episodes on this device: ${count} (${megabytes} MB of ${select.selectedOptions[0]?.textContent ?? ""})`;
    used.hidden = false;
  };
  describe().catch(() => {});
}

function resumeAt(player, media) {
  const apply = () => {
    const resume = Number(player.dataset.resume || 0);
    if (!(resume > 0) || media.currentTime > 0) return;
    const end = Number.isFinite(media.duration) ? media.duration : Infinity;
    media.currentTime = Math.min(resume, end);
  };
  if (media.readyState >= 1) apply();
  else media.addEventListener("loadedmetadata", apply, { once: true });
}

// ---- Chapters and transcript: fetched for the page's player, lists that seek and follow playback -

/** The `field` list Kiosk answers at the section's `data-src` (what it fetched from the
 * publisher), or [] when there is none or it cannot be had: the player works without it. */
async function episodeList(section, field) {
  try {
    const response = await fetch(section.dataset.src, { headers: { Accept: "application/json" } });
    const data = await response.json();
    return Array.isArray(data[field]) && section.isConnected ? data[field] : [];
  } catch {
    return [];
  }
}

/** The index of the last item that has started at `time` (`lead` seconds early), or -1. */
function startedAt(items, time, lead) {
  let current = -1;
  items.forEach((item, index) => {
    if (time + lead >= item.start) current = index;
  });
  return current;
}

async function setupChapters(player, media) {
  const section = document.getElementById("chapters");
  const list = document.getElementById("chapter-list");
  if (!section || !list || !section.dataset.src) return;
  const chapters = await episodeList(section, "chapters");
  if (!chapters.length) return;
  const items = chapters.map((chapter) => {
    const item = document.createElement("li");
    const jump = document.createElement("button");
    jump.type = "button";
    jump.className = "chapter";
    jump.dataset.start = String(chapter.start);
    const time = document.createElement("span");
    time.className = "chapter-time";
    time.textContent = clock(chapter.start);
    const title = document.createElement("span");
    title.className = "chapter-title";
    title.textContent = chapter.title; // text, never markup: the title is the publisher's
    jump.append(time, title);
    jump.addEventListener("click", () => {
      begin(player, media);
      media.currentTime = Number(chapter.start);
      if (media.paused) media.play().catch(() => {});
    });
    item.append(jump);
    return item;
  });
  list.replaceChildren(...items);
  section.hidden = false;
  const mark = () => {
    if (!list.isConnected) return;
    const current = startedAt(chapters, media.currentTime, 0.25);
    items.forEach((item, index) => {
      const jump = item.firstChild;
      if (index === current) jump.setAttribute("aria-current", "true");
      else jump.removeAttribute("aria-current");
    });
  };
  media.addEventListener("timeupdate", mark);
  media.addEventListener("seeked", mark);
  mark();
}

// ---- The transcript: its lines under the player, the one being said marked and kept in view -----

async function setupTranscript(player, media) {
  const section = document.getElementById("transcript");
  const box = document.getElementById("transcript-lines");
  if (!section || !box || !section.dataset.src) return;
  const cues = await episodeList(section, "cues");
  if (!cues.length) return;
  const lines = cues.map((cue) => {
    const line = document.createElement("p");
    line.className = "transcript-line";
    line.dataset.start = String(cue.start);
    line.textContent = cue.text; // text, never markup: the words are the publisher's
    line.addEventListener("click", () => {
      begin(player, media);
      media.currentTime = Number(cue.start);
    });
    return line;
  });
  box.replaceChildren(...lines);
  section.hidden = false;
  let shown = -1;
  const follow = () => {
    if (!box.isConnected) return;
    const current = startedAt(cues, media.currentTime, 0.1);
    if (current === shown) return;
    if (shown >= 0) lines[shown].removeAttribute("aria-current");
    shown = current;
    if (current < 0) return;
    lines[current].setAttribute("aria-current", "true");
    // Within its own box: the page itself does not move under the reader.
    const line = lines[current];
    box.scrollTop = Math.max(0, line.offsetTop - box.clientHeight / 3);
  };
  media.addEventListener("timeupdate", follow);
  media.addEventListener("seeked", follow);
  follow();
}

function stopsAt(until) {
  return `Stops at ${until.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
}

function sameFile(a, b) {
  const saved = b.closest("#player")?.dataset.offlineSrc;
  return (
    (a.currentSrc || a.src) === (b.currentSrc || b.src) ||
    a.getAttribute("src") === b.getAttribute("src") ||
    (!!saved && a.getAttribute("src") === saved)
  );
}
