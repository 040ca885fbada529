#!/usr/bin/env bash
# The reader view's speed next to trafilatura 2.0.0's, over the same saved pages, in one run:
#   scripts/bench-extract-reference.sh [ROUNDS]
# Builds kiosk and kiosk-bench (release), makes its own virtualenv in .build-bench/venv with
# trafilatura==2.0.0 from PyPI, then times `kiosk-bench extract` (in-process) and trafilatura's
# extract() (in-process too, one Python process) over every */source.html of the corpus, and
# prints both and the ratio. Last, the peak memory (max RSS, /usr/bin/time -v) of `kiosk extract`
# on a page of about 10 MB made by joining the corpus pages' bodies. Figures: docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"
corpus="${SHARED_DIR:-../shared}/corpus/readability"
out=.build-bench
mkdir -p "$out"

swift build -c release --product kiosk-bench >/dev/null
swift build -c release --product kiosk >/dev/null
bin="$(swift build -c release --show-bin-path)"

if ! "$out/venv/bin/python" -c 'import trafilatura' 2>/dev/null; then
    python3 -m venv "$out/venv"
    # lxml 6 moved lxml.html.clean (which trafilatura's justext imports) to a package of its own.
    "$out/venv/bin/pip" install --quiet --disable-pip-version-check trafilatura==2.0.0 lxml_html_clean
fi

echo "== kiosk-bench extract ($rounds rounds)"
kiosk_out=$("$bin/kiosk-bench" extract --corpus "$corpus" --rounds "$rounds")
printf '%s\n' "$kiosk_out"
kiosk_rate=$(printf '%s\n' "$kiosk_out" | sed -nE 's/^best round: .* ms, ([0-9.]+) pages\/s.*/\1/p')

echo "== trafilatura $("$out/venv/bin/python" -c 'import trafilatura; print(trafilatura.__version__)') ($rounds rounds)"
traf_out=$("$out/venv/bin/python" - "$corpus" "$rounds" <<'PY'
import os, statistics, sys, time
import trafilatura
corpus, rounds = sys.argv[1], int(sys.argv[2])
pages = []
for name in sorted(os.listdir(corpus)):
    path = os.path.join(corpus, name, "source.html")
    if os.path.isfile(path):
        with open(path, "rb") as f:
            pages.append(f.read())
size = sum(len(p) for p in pages)
print("%d pages, %.2f MB, %d rounds (+1 warm-up)" % (len(pages), size / 1e6, rounds))
def once():
    for page in pages:
        trafilatura.extract(page, url="http://fakehost/test/page.html")
once()
times = []
for _ in range(rounds):
    start = time.perf_counter(); once(); times.append(time.perf_counter() - start)
for label, t in (("best", min(times)), ("median", statistics.median(times))):
    print("%s round: %.1f ms, %.1f pages/s, %.2f MB/s" % (label, t * 1000, len(pages) / t, size / 1e6 / t))
PY
)
printf '%s\n' "$traf_out"
traf_rate=$(printf '%s\n' "$traf_out" | sed -nE 's/^best round: .* ms, ([0-9.]+) pages\/s.*/\1/p')
python3 -c "print('ratio (best rounds): kiosk %.1f pages/s / trafilatura %.1f pages/s = %.1fx' % ($kiosk_rate, $traf_rate, $kiosk_rate / $traf_rate))"

echo "== peak memory: kiosk extract on a page of about 10 MB"
scripts/extract-memory-check.py --write-real-page "$out/large-page.html" --shared "${SHARED_DIR:-../shared}"
/usr/bin/time -v "$bin/kiosk" extract --json "$out/large-page.html" 2> "$out/time.txt" | python3 -c "
import json, sys
line = sys.stdin.readline()
got = json.loads(line)
print('result: %s' % (got.get('error') or '%d words' % got['wordCount']))"
grep -E "Maximum resident set size|Elapsed \(wall clock\)" "$out/time.txt"
