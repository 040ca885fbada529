#!/usr/bin/env python3
"""How long after an entry arrives its full article is kept ("Show full articles").

Usage: scripts/bench-article-arrival.py PATH/TO/kiosk   (builds nothing; runs for a minute)

Starts `kiosk --demo` with a data directory of its own, sets Business to "Show full articles"
through the feed's settings form, then watches the SQLite database every 0.25 s for a minute:
for each Business entry that appears (the demo feed gains one every 7 s), how long until its
article (or its failure) is kept. Prints one line per entry. Figures: docs/PERFORMANCE.md.
"""
import sqlite3, subprocess, time, urllib.request, os, tempfile, sys, socket
binp = sys.argv[1]
d = tempfile.mkdtemp()
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
p = subprocess.Popen([binp, "--demo", "--data-directory", d, "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try: urllib.request.urlopen(base + "/healthz"); break
        except Exception: time.sleep(0.2)
    req = urllib.request.Request(base + "/reader/feed/business/settings", data=b"title=&folder=News&fullArticles=on",
        headers={"Content-Type": "application/x-www-form-urlencoded", "Origin": base, "Sec-Fetch-Site": "same-origin"}, method="POST")
    try: print("settings:", urllib.request.urlopen(req).status)
    except urllib.error.HTTPError as e: print("settings:", e.code, e.read()[:200])
    db = sqlite3.connect(os.path.join(d, "demo", "kiosk.sqlite"))
    seen, done = {}, {}
    start = time.time()
    while time.time() - start < 60:
        now = time.time()
        for (eid,) in db.execute("SELECT id FROM entries WHERE source='business'"):
            seen.setdefault(eid, now)
        for (eid, err) in db.execute("SELECT entry_id, error FROM articles"):
            if eid not in done: done[eid] = (now, err)
        time.sleep(0.25)
    initial = [e for e, t in seen.items() if t - start < 1]
    later = sorted((e for e in seen if e not in initial), key=lambda e: seen[e])
    print(f"initial entries {len(initial)}, with article/failure kept: {sum(1 for e in initial if e in done)}")
    for e in later:
        if e in done: print(f"entry {e}: kept {done[e][0]-seen[e]:.1f} s after it appeared ({'failure: '+done[e][1][:60] if done[e][1] else 'article'})")
        else: print(f"entry {e}: not kept after {time.time()-seen[e]:.1f} s")
finally:
    p.terminate(); p.wait()
