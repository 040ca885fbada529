#!/usr/bin/env bash
# Runs ../shared/tools/feedcompare.py over the shared corpora with `kiosk parse --json` and fails
# when agreement drops below the floor. The feedkit floor is below 95% only because of oracle
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

# The reader view: `kiosk extract` over Mozilla Readability's 130 test pages, scored by
# extractcompare.py (text F1 over word 4-shingles, titles). TODO before landing: measure, then set
# the floor just under the figure (and write it in docs/PERFORMANCE.md), so it can only go up.
extract_floor_f1="${KIOSK_EXTRACT_FLOOR_F1:-0.0}"
out=$(python3 "$shared/tools/extractcompare.py" --extractor "$kiosk extract --json --list" \
    --corpus "$shared/corpus/readability" --show 0)
summary=$(printf '%s\n' "$out" | tail -n 1)
echo "readability: $summary"
mean=$(printf '%s\n' "$summary" | sed -E 's/^extraction: mean F1 ([0-9.]+),.*/\1/')
python3 -c "import sys; sys.exit(0 if float('$mean') >= $extract_floor_f1 else 1)" || {
    printf '%s\n' "$out" >&2
    echo "corpus-check: reader view mean F1 $mean (floor $extract_floor_f1)" >&2
    exit 1
}
