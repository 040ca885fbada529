#!/usr/bin/env bash
# Fuzzes one parser with libFuzzer (the Swift toolchain's) under AddressSanitizer:
#   scripts/fuzz.sh TARGET SECONDS      TARGET: feedparser | html | article | dates | opml | greader | all
# Each target is the code it exercises compiled with its harness in Fuzz/ (KioskCore is
# Foundation-only, so its sources build as one module; the Google Reader API's parameter parsing
# is three files of KioskSync). The corpus starts from the fixtures and the shared feed corpus and
# grows in .build-fuzz/corpus-TARGET; a crash is saved in .build-fuzz/crashes-TARGET and fails the
# run (make it a regression test, then delete it).
set -euo pipefail
cd "$(dirname "$0")/.."

target="${1:?usage: scripts/fuzz.sh feedparser|html|article|dates|opml|greader|all SECONDS}"
seconds="${2:?usage: scripts/fuzz.sh TARGET SECONDS}"
if [ "$target" = all ]; then
    for each in feedparser html article dates opml greader; do "$0" "$each" "$seconds"; done
    exit 0
fi

out=.build-fuzz
mkdir -p "$out"
core=$(find Sources/KioskCore -name '*.swift' | sort)
# KioskHTML's files join KioskCore's in one module: their imports of the package's modules dropped.
pages() {
    rm -rf "$out/html-src" && mkdir -p "$out/html-src"
    find Sources/KioskHTML -name '*.swift' | while read -r file; do
        sed -e '/^import Kiosk/d' "$file" > "$out/html-src/$(basename "$file")"
    done
    echo "$core $(ls "$out"/html-src/*.swift)"
}
case "$target" in
    feedparser) harness=Fuzz/FeedParserFuzz.swift; sources="$core" ;;
    html) harness=Fuzz/HTMLFuzz.swift; sources="$(pages)" ;;
    article) harness=Fuzz/ArticleFuzz.swift; sources="$(pages)" ;;
    dates) harness=Fuzz/DateFuzz.swift; sources="$core" ;;
    opml) harness=Fuzz/OPMLFuzz.swift; sources="$core" ;;
    greader)
        harness=Fuzz/GoogleReaderFuzz.swift
        # One module: the files' imports of the package's own modules are dropped.
        mkdir -p "$out/greader-src"
        for file in Sources/KioskSync/GoogleReader/FormFields.swift Sources/KioskSync/GoogleReader/ItemID.swift \
            Sources/KioskSync/GoogleReader/StreamID.swift Sources/KioskModel/Sources/SourceID.swift; do
            sed -e '/^import Kiosk/d' "$file" > "$out/greader-src/$(basename "$file")"
        done
        sources=$(ls "$out"/greader-src/*.swift)
        ;;
    *) echo "fuzz: unknown target $target" >&2; exit 2 ;;
esac

binary="$out/$target"
# Rebuilt when a source or the harness is newer than the binary.
if [ ! -x "$binary" ] || [ -n "$(find $sources "$harness" -newer "$binary" 2>/dev/null | head -n 1)" ]; then
    echo "fuzz: building $target"
    # shellcheck disable=SC2086
    # (gold's "cannot export local symbol __asan_..." warnings are the sanitizer's, and harmless)
    swiftc -sanitize=fuzzer,address -parse-as-library -O -package-name kiosk -module-name "Fuzz_$target" $sources "$harness" -o "$binary" \
        2> >(grep -v "ld.gold: warning: Cannot export local symbol" >&2)
fi

corpus="$out/corpus-$target"
crashes="$out/crashes-$target"
mkdir -p "$corpus" "$crashes"
if [ -z "$(ls -A "$corpus")" ]; then
    case "$target" in
        feedparser | html)
            cp Sources/KioskTesting/Fixtures/*.xml "$corpus"/
            if [ -d ../shared/corpus ]; then
                # awk, not head: head stopping early would end find with SIGPIPE, which pipefail makes fatal.
                find ../shared/corpus -type f \( -name '*.xml' -o -name '*.rss' -o -name '*.atom' -o -name '*.json' \) -size -64k \
                    | awk 'NR <= 400' | while read -r file; do cp "$file" "$corpus/$(echo "$file" | md5sum | cut -c1-16)"; done
            fi
            ;;
        article)
            # Small pages: the shared reader-view pages are mostly larger than a fuzz input.
            cp Sources/KioskTesting/Fixtures/*.xml "$corpus"/
            if [ -d ../shared/corpus/readability ]; then
                find ../shared/corpus/readability -name source.html -size -64k | sort | awk 'NR <= 60' \
                    | while read -r file; do cp "$file" "$corpus/$(echo "$file" | md5sum | cut -c1-16)"; done
            fi
            ;;
        dates)
            i=0
            for seed in "Sat, 19 Jan 2019 08:47:23 +0000" "2019-02-07T16:00:51Z" "2019-02-07T16:00:51.123+05:30" \
                "Thu, 01 Jan 1970 00:00:00 GMT" "Sun, 6 Nov 1994 08:49:37 EST" "20190207T160051Z" "2019-W06-4" "2019-038"; do
                printf '%s' "$seed" > "$corpus/seed-$i"; i=$((i + 1))
            done
            ;;
        opml) cp Sources/KioskTesting/Fixtures/opml/* "$corpus"/ ;;
        greader)
            printf '%s' 'T=abc&i=tag:google.com,2005:reader/item/000000000000003c&i=59&a=user/-/state/com.google/read' > "$corpus/seed-0"
            printf '%s' 's=feed/business&ac=edit&a=user/-/label/News%20Room&r=user/123/label/Old&t=Name+here' > "$corpus/seed-1"
            printf '%s' 'n=1000&output=json&ot=1700000000&s=user/-/state/com.google/reading-list&xt=user/-/state/com.google/read&c=58' > "$corpus/seed-2"
            ;;
    esac
fi

echo "fuzz: $target for $seconds s"
# The Swift runtime's backtracer would stop a crashing fuzzer for minutes; libFuzzer reports it.
SWIFT_BACKTRACE=enable=no timeout -k 10 "$((seconds + 120))" "$binary" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$crashes/" \
    -print_final_stats=1 "$corpus" 2>&1 | grep -E "^(#[0-9]+[[:space:]]+(DONE|INITED)|stat::number_of_executed_units|stat::new_units_added|==[0-9]+==ERROR|SUMMARY)|Done " || true
if [ -n "$(ls -A "$crashes")" ]; then
    echo "fuzz: $target found a crash: $(ls "$crashes")" >&2
    exit 1
fi
