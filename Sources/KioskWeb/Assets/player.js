// The episode player (EpisodePlayer.swift draws it): skips, a speed kept per feed on this device,
// a sleep timer, and the lock screen's and headphones' controls through the Media Session API.
// Without this script the media element's own controls still play the episode.

const SPEEDS_KEY = "kiosk-player-speed"; // { feedID: "1.5" }

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
    // Private browsing or a full store: the speed holds for this page only.
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

function setupMediaSession(player, media) {
  if (!("mediaSession" in navigator)) return;
  const artwork = player.dataset.artwork ? [{ src: player.dataset.artwork, sizes: "512x512" }] : [];
  const describe = () => {
    navigator.mediaSession.metadata = new MediaMetadata({
      title: player.dataset.title || "",
      artist: player.dataset.artist || "",
      album: player.dataset.artist || "",
      artwork,
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
  };
  for (const [action, handler] of Object.entries(handlers)) {
    try {
      navigator.mediaSession.setActionHandler(action, handler);
    } catch {
      // An action this browser does not know.
    }
  }
  media.addEventListener("play", describe);
}

export function setupPlayer() {
  const player = document.getElementById("player");
  const media = document.getElementById("player-media");
  if (!player || !media) return;
  const feed = player.dataset.feed || "";
  const status = document.getElementById("player-status");
  const say = (text) => {
    if (status) status.textContent = text;
  };

  const play = document.getElementById("player-play");
  play?.addEventListener("click", () => {
    if (media.paused) media.play().catch(() => say("This episode cannot be played here."));
    else media.pause();
  });
  const showPlaying = () => {
    if (!play) return;
    play.textContent = media.paused ? "Play" : "Pause";
    play.setAttribute("aria-pressed", media.paused ? "false" : "true");
  };
  media.addEventListener("play", showPlaying);
  media.addEventListener("pause", showPlaying);

  for (const button of player.querySelectorAll("button[data-skip]")) {
    button.addEventListener("click", () => skip(media, Number(button.dataset.skip)));
  }

  const speed = document.getElementById("player-speed");
  const applySpeed = (value) => {
    const rate = Number(value);
    if (!Number.isFinite(rate) || rate <= 0) return;
    media.playbackRate = rate;
    media.defaultPlaybackRate = rate;
  };
  const kept = savedSpeeds()[feed];
  if (speed && kept && [...speed.options].some((option) => option.value === kept)) {
    speed.value = kept;
    applySpeed(kept);
  }
  speed?.addEventListener("change", () => {
    applySpeed(speed.value);
    saveSpeed(feed, speed.value);
  });
  // A new source (or the browser) resets the rate; the chosen one holds.
  media.addEventListener("loadedmetadata", () => speed && applySpeed(speed.value));

  const sleep = document.getElementById("player-sleep");
  let sleepTimer = null;
  sleep?.addEventListener("change", () => {
    clearTimeout(sleepTimer);
    sleepTimer = null;
    const minutes = Number(sleep.value);
    if (!minutes) {
      say("");
      return;
    }
    const until = new Date(Date.now() + minutes * 60_000);
    say(`Stops at ${until.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`);
    sleepTimer = setTimeout(() => {
      media.pause();
      sleep.value = "0";
      say("Stopped by the sleep timer");
    }, minutes * 60_000);
  });

  media.addEventListener("error", () => {
    say("This episode cannot be played here. The link below downloads it.");
    player.classList.add("player-failed");
  });
  media.addEventListener("ended", () => say("Finished"));
  media.addEventListener("timeupdate", () => {
    player.dataset.position = String(Math.floor(media.currentTime));
    if (Number.isFinite(media.duration) && !sleepTimer && !media.paused) {
      say(`${clock(media.duration - media.currentTime)} left`);
    }
  });
  setupMediaSession(player, media);
}
