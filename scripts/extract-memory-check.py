#!/usr/bin/env python3
"""Peak memory of `kiosk extract` on pages up to the 10 MB limit (#32): each page is extracted by a
process of its own, its peak resident memory read from the kernel (wait4's ru_maxrss, what
`/usr/bin/time -v` prints), and the check fails when any goes over the limit (100 MB).

The pages: the element-dense hostile page (10 MB of small sections), the most tree the extractor
allows (`ArticleLimits.maxTreeBytes`) followed by 9 MB of words, tiny links with two attributes
each, 10 MB of one text run, and (when ../shared/corpus is there) 10 MB of real pages joined,
which must still be read as an article.

Usage: scripts/extract-memory-check.py KIOSK_BINARY [--limit-mb 100] [--shared ../shared]
       scripts/extract-memory-check.py --write-real-page FILE [--shared ../shared]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

LIMIT_BYTES = 10 * 1_048_576
PARAGRAPH = ("<p>The river rose three metres overnight, and by morning the lower town was under water, "
             "its streets turned to canals.</p>")


def page(body: str) -> str:
    return f"<html><head><title>Hostile</title></head><body>{body}</body></html>"


def section(index: int) -> str:
    """One part of the element-dense page (`kiosk-bench hostile-pages`' "many parts"): 14 nodes."""
    return (f"<section><h2>Part {index}</h2>{PARAGRAPH}<div>line<br><br>line<table><tr><td>a</td></tr></table>"
            "</div></section>")


def sections(count: int) -> str:
    return "".join(section(i) for i in range(count))


def filled_with_words(body: str) -> str:
    room = LIMIT_BYTES - len(body.encode()) - 200
    return page(body + "<p>" + "word " * (room // 5) + "</p>")


def dense() -> str:
    parts, size = [], 0
    while size < LIMIT_BYTES - 8_192:
        parts.append(section(len(parts)))
        size += len(parts[-1])
    return page("".join(parts))


def joined_real_pages(corpus: Path) -> str | None:
    """About 10 MB of the reader-view corpus's page bodies, one after another (also the page of
    scripts/bench-extract-reference.sh, through --write-real-page)."""
    if not corpus.is_dir():
        return None
    bodies = []
    for name in sorted(os.listdir(corpus)):
        source = corpus / name / "source.html"
        if source.is_file():
            text = source.read_text(encoding="utf-8", errors="replace")
            found = re.search(r"<body[^>]*>(.*)</body>", text, re.S | re.I)
            bodies.append(found.group(1) if found else text)
    parts, size, index = [], 0, 0
    while size < 10_000_000:
        body = '<div class="page">' + bodies[index % len(bodies)] + "</div>"
        index += 1
        if size + len(body.encode()) > 10_400_000:
            continue
        parts.append(body)
        size += len(body.encode())
    return "<!doctype html><html><head><title>Many pages in one</title></head><body>" + "".join(parts) + "</body></html>"


def measure(binary: str, path: Path) -> tuple[int, str]:
    """Peak resident bytes of `kiosk extract --json PATH`, and its outcome."""
    process = subprocess.Popen([binary, "extract", "--json", str(path)], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    line = output.decode("utf-8", "replace").splitlines()[0] if output else "{}"
    got = json.loads(line)
    outcome = got.get("error") or f"article, {got.get('wordCount', 0)} words"
    return usage.ru_maxrss * 1024, outcome


def cases(shared: str) -> list[tuple[str, str, str | None]]:
    """(name, html, what the outcome must start with)."""
    made: list[tuple[str, str, str | None]] = [
        ("10 MB of small sections (element-dense)", dense(), "the page is too complex"),
        # Just under the tree's budget (the sections alone reckon 31.9 MB of 32), so it is read.
        ("the most tree allowed, then 9 MB of words", filled_with_words(sections(14_300)), "the article is too long"),
        ("76,000 links of two attributes, then words", filled_with_words(
            "<p>" + "".join(f'<a href="/articles/long-path/{i:08d}" class="link-item">w</a>' for i in range(76_000))
            + "</p>"), None),
        ("10 MB of one text run", "a" * LIMIT_BYTES, "the article is too long"),
    ]
    real = joined_real_pages(Path(shared) / "corpus" / "readability")
    if real is not None:
        made.append(("10 MB of real pages joined", real, "article"))
    return made


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?")
    parser.add_argument("--limit-mb", type=float, default=100)
    parser.add_argument("--shared", default=os.environ.get("SHARED_DIR", "../shared"))
    parser.add_argument("--write-pages", metavar="DIRECTORY", help=argparse.SUPPRESS)
    parser.add_argument("--write-real-page", metavar="FILE",
                        help="only write the joined real pages to FILE (scripts/bench-extract-reference.sh)")
    args = parser.parse_args()

    if args.write_real_page:
        real = joined_real_pages(Path(args.shared) / "corpus" / "readability")
        if real is None:
            parser.error(f"{args.shared}/corpus/readability not found")
        Path(args.write_real_page).write_text(real, encoding="utf-8")
        print("%s: %.2f MB" % (args.write_real_page, os.path.getsize(args.write_real_page) / 1e6))
        return 0

    if args.write_pages:
        manifest = []
        for number, (name, html, expected) in enumerate(cases(args.shared)):
            path = Path(args.write_pages) / f"page-{number}.html"
            path.write_text(html, encoding="utf-8")
            manifest.append({"name": name, "path": str(path), "expected": expected})
        (Path(args.write_pages) / "manifest.json").write_text(json.dumps(manifest))
        return 0
    if not args.binary:
        parser.error("the kiosk binary is needed")

    failures = []
    with tempfile.TemporaryDirectory() as directory:
        # The pages are made by another process: a child's peak memory counts its parent's at the
        # moment it was started (Linux keeps the high-water mark across fork and exec), and this
        # process must stay small for the figures to be kiosk's own.
        subprocess.run([sys.executable, __file__, "--write-pages", directory, "--shared", args.shared], check=True)
        manifest = json.loads((Path(directory) / "manifest.json").read_text())
        print(f"{'page':<46} {'MB':>6}  {'peak MB':>7}  outcome")
        for case in manifest:
            name, path, expected = case["name"], Path(case["path"]), case["expected"]
            peak, outcome = measure(args.binary, path)
            print(f"{name:<46} {path.stat().st_size / 1_048_576:6.1f}  {peak / 1_048_576:7.1f}  {outcome[:70]}")
            if peak > args.limit_mb * 1_048_576:
                failures.append(f"{name}: {peak / 1_048_576:.1f} MB at the peak (limit {args.limit_mb:.0f} MB)")
            if expected is not None and not outcome.startswith(expected):
                failures.append(f"{name}: expected '{expected}...', got '{outcome}'")
    for failure in failures:
        print(f"extract-memory-check: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
