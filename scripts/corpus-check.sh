#!/usr/bin/env bash
# Runs ../shared/tools/feedcompare.py over the shared feed corpora with `kiosk parse --json`, and
# extractcompare.py over the reader-view pages and snippetcompare.py over trafilatura's evaluation
# pages with `kiosk extract --json --list`, and fails when agreement drops below a floor. The feedkit floor is below 95% only because of oracle
# errors listed in docs/PARSING.md (feedparser reads a bare `&utm_medium` as `&utm;_medium`).
set -euo pipefail
cd "$(dirname "$0")/.."
kiosk="${1:-.build/debug/kiosk}"
shared="${SHARED_DIR:-../shared}"
if [ ! -d "$shared/corpus" ]; then
    echo "corpus-check: $shared/corpus not found, skipped"
    exit 0
fi
kiosk="$(cd "$(dirname "$kiosk")" && pwd)/$(basename "$kiosk")"

check() {  # corpus, minimum agreement in percent
    local out summary percent errors
    out=$(python3 "$shared/tools/feedcompare.py" --parser "$kiosk parse --json" \
        --corpus "$shared/corpus/$1" --oracle "$shared/corpus/$1.oracle.jsonl" --show 0)
    summary=$(printf '%s\n' "$out" | tail -n 1)
    echo "$1: $summary"
    percent=$(printf '%s\n' "$summary" | sed -E 's/^agreement: ([0-9.]+)%.*/\1/')
    errors=$(printf '%s\n' "$summary" | sed -E 's/.*, ([0-9]+) parser errors$/\1/')
    python3 -c "import sys; sys.exit(0 if float('$percent') >= $2 and int('$errors') == 0 else 1)" || {
        printf '%s\n' "$out" >&2
        echo "corpus-check: $1 agreement $percent% (floor $2%), $errors parser errors" >&2
        exit 1
    }
}

check feedparser 98
check feedkit 89

# Podcast and media tags, which feedparser's oracle does not cover: the values FeedKit's own test
# files hold (iTunes, Podcasting 2.0, Media RSS in RSS and in Atom, JSON Feed attachments).
(cd "$shared/corpus/feedkit" && "$kiosk" parse --json iTunes.xml Podcast.xml Media.xml AtomMedia.xml feed.json) |
    python3 -c '
import json, sys
got = {r["file"]: r["entries"] for r in map(json.loads, sys.stdin)}
want = [
    ("iTunes.xml", 0, {"duration": 18030, "season": 3, "episode": 2, "explicit": False}),
    ("Podcast.xml", 0, {"transcripts": ["https://example.com/episode1/transcript.txt",
                                        "https://example.com/episode1/transcript.vtt"]}),
    ("Podcast.xml", 1, {"transcripts": ["https://example.com/episode2/transcript.txt"]}),
    ("Media.xml", 0, {"media": ["http://www.foo.com/song64kbps.mp3", "http://www.foo.com/song.wav",
                                "http://www.foo.com/video.mov", "http://www.foo.com/movie.mov"]}),
    ("AtomMedia.xml", 0, {"media": ["http://www.foo.com/song64kbps.mp3", "http://www.foo.com/song.wav",
                                    "http://www.foo.com/video.mov", "http://www.foo.com/movie.mov"]}),
    ("feed.json", 0, {"enclosures": ["http://therecord.co/downloads/The-Record-sp1e1-ChrisParrish-128.m4a",
                                     "http://therecord.co/downloads/The-Record-sp1e1-ChrisParrish-256.m4a"]}),
]
wrong = [(f, i, k, v, got[f][i].get(k)) for f, i, fields in want for k, v in fields.items() if got[f][i].get(k) != v]
for f, i, k, v, g in wrong:
    print("corpus-check: %s entry %d %s: want %r, got %r" % (f, i, k, v, g), file=sys.stderr)
print("media tags: %d of %d fields as FeedKit'"'"'s files hold them" % (sum(len(x[2]) for x in want) - len(wrong), sum(len(x[2]) for x in want)))
sys.exit(1 if wrong else 0)
'

# The reader view: `kiosk extract` over Mozilla Readability's 130 test pages, scored by
# extractcompare.py (text F1 over word 4-shingles, titles). The floors sit just under the figures
# measured (docs/PERFORMANCE.md, "Article extraction": mean F1 0.992, 1 page below 0.8, titles
# 100%), so they can only go up.
extract_floor_f1="${KIOSK_EXTRACT_FLOOR_F1:-0.990}"
extract_max_below="${KIOSK_EXTRACT_MAX_BELOW:-2}"
extract_floor_titles="${KIOSK_EXTRACT_FLOOR_TITLES:-99}"
if [ ! -d "$shared/corpus/readability" ]; then
    echo "corpus-check: $shared/corpus/readability not found, reader view skipped"
    exit 0
fi
out=$(python3 "$shared/tools/extractcompare.py" --extractor "$kiosk extract --json --list" \
    --corpus "$shared/corpus/readability" --show 0)
summary=$(printf '%s\n' "$out" | tail -n 1)
echo "readability: $summary"
mean=$(printf '%s\n' "$summary" | sed -nE 's/^extraction: mean F1 ([0-9.]+),.*/\1/p')
below=$(printf '%s\n' "$summary" | sed -nE 's/.*pages below 0\.8: ([0-9]+) of.*/\1/p')
titles=$(printf '%s\n' "$summary" | sed -nE 's/.*title agreement ([0-9.]+)%.*/\1/p')
python3 -c "import sys; sys.exit(0 if '$mean' and '$below' and '$titles' and float('$mean') >= $extract_floor_f1 \
    and int('$below') <= $extract_max_below and float('$titles') >= $extract_floor_titles else 1)" || {
    printf '%s\n' "$out" >&2
    echo "corpus-check: reader view mean F1 ${mean:-?} (floor $extract_floor_f1), ${below:-?} pages below 0.8" \
        "(at most $extract_max_below), titles ${titles:-?}% (floor $extract_floor_titles%)" >&2
    exit 1
}

# The reader view on pages it was not tuned on: trafilatura's 499 evaluation pages with their
# hand-picked snippets, scored by snippetcompare.py as trafilatura scores itself (F over "with"
# snippets found and "without" snippets leaked). trafilatura 2.0.0 scores 0.923 there, Kiosk
# 0.940; the floor sits just under Kiosk's own figure (docs/PERFORMANCE.md, "Article
# extraction"), so it only goes up.
snippet_floor="${KIOSK_SNIPPET_FLOOR_F:-0.938}"
if [ ! -d "$shared/corpus/trafilatura" ]; then
    echo "corpus-check: $shared/corpus/trafilatura not found, snippets skipped"
    exit 0
fi
out=$(python3 "$shared/tools/snippetcompare.py" --extractor "$kiosk extract --json --list" \
    --corpus "$shared/corpus/trafilatura" --show 0)
summary=$(printf '%s\n' "$out" | tail -n 1)
echo "trafilatura pages: $summary"
f=$(printf '%s\n' "$summary" | sed -nE 's/^snippets: F=([0-9.]+) .*/\1/p')
python3 -c "import sys; sys.exit(0 if '$f' and float('$f') >= $snippet_floor else 1)" || {
    printf '%s\n' "$out" >&2
    echo "corpus-check: snippet F ${f:-?} (floor $snippet_floor)" >&2
    exit 1
}
