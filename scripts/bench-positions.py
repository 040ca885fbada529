#!/usr/bin/env python3
"""What keeping a listener's place costs: requests per minute of playback on one device.

Usage: KIOSK_BIN=PATH/TO/kiosk .venv-e2e/bin/python scripts/bench-positions.py [SECONDS]
(builds nothing; SECONDS of playback, 120 by default)

Starts `kiosk --demo` through the browser tests' harness, subscribes a headless Chromium phone to
the demo podcast, plays episode 1 looped (it is 19 s long) and counts the player's position
saves (a wrapper around `fetch`: Chromium's Resource Timing leaves out `keepalive` requests),
with each form body's size and the gaps between saves. Figures: docs/PERFORMANCE.md.
"""
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))
import harness  # noqa: E402
from harness import js, make_driver  # noqa: E402
from test_podcast import from_the_start, media, open_entry, start_playing, subscribe  # noqa: E402

seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 120
server = harness.start_server("positions", Path(tempfile.mkdtemp()))
phone = make_driver("phone")
try:
    subscribe(phone, server, "Kiosk Demo Podcast")
    open_entry(phone, "Episode 1")
    from_the_start(phone)
    js(phone, """
        window.saves = [];
        const original = window.fetch;
        window.fetch = (url, options) => {
          if (String(url).endsWith('/position')) window.saves.push([Date.now(), String(options?.body ?? '').length]);
          return original(url, options);
        };
        document.getElementById('player-media').loop = true;""")
    start_playing(phone)
    start = time.monotonic()
    time.sleep(seconds)
    played = time.monotonic() - start
    position = media(phone, "return m.currentTime")
    saves = js(phone, "return window.saves")
    print(json.dumps({
        "played_s": round(played, 1), "element_at_s": round(position, 1), "saves": len(saves),
        "saves_per_minute": round(len(saves) * 60 / played, 2),
        "body_bytes": sorted({size for _, size in saves}),
        "gaps_s": [round((b[0] - a[0]) / 1000, 1) for a, b in zip(saves, saves[1:])],
    }, indent=1))
finally:
    phone.quit()
    server.stop()
