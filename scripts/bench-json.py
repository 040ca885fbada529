#!/usr/bin/env python3
"""Peak memory and time of one JSON parse, Kiosk's reader against JSONSerialization, on inputs of
2, 8 and 16 MB: a realistic JSON Feed (kiosk-bench's generator) and the hostile one of the
hardening review (nothing but empty objects). Each parse runs in a process of its own
(`kiosk-bench json-once`); its peak resident memory comes from wait4. The target: any JSON input
of N MB in at most 4N + 30 MB, and faster than JSONSerialization.

    swift build -c release --product kiosk-bench
    scripts/bench-json.py [--bench .build/release/kiosk-bench] [--sizes 2,8,16] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def measure(bench: str, parser: str, path: Path, entries: int) -> tuple[float, float, int]:
    """(milliseconds, peak MB, entries) of one parse in a fresh process."""
    process = subprocess.Popen([bench, "json-once", "--parser", parser, "--entries", str(entries), str(path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    out = process.stdout.read().decode() if process.stdout else ""
    err = process.stderr.read().decode() if process.stderr else ""
    if status != 0:
        raise RuntimeError(f"{parser} on {path.name} failed: {err.strip() or out.strip()}")
    _, _, milliseconds, entries = out.split()
    return float(milliseconds), usage.ru_maxrss / 1024, int(entries)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", default=".build/release/kiosk-bench")
    parser.add_argument("--sizes", default="2,8,16")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--entries", type=int, default=1000,
                        help="entries Kiosk keeps: 1000 as the server keeps of a feed (default), 100000 as `kiosk parse`")
    arguments = parser.parse_args()
    if not os.access(arguments.bench, os.X_OK):
        print(f"no kiosk-bench at {arguments.bench}: swift build -c release --product kiosk-bench", file=sys.stderr)
        return 2
    sizes = [int(size) for size in arguments.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="kiosk-bench-json-") as folder:
        inputs: list[tuple[str, Path]] = []
        subprocess.run([arguments.bench, "parse", "--dump", folder, "--formats", "json", "--sizes", arguments.sizes],
                       check=True, capture_output=True)
        for size in sizes:
            feed = Path(folder) / f"json-{size}MB.json"
            if feed.exists():
                inputs.append((f"JSON Feed, {size} MB", feed))
            empty = Path(folder) / f"empty-objects-{size}MB.json"
            count = (size * 1_000_000 - 40) // 3
            empty.write_text('{"version": "https://jsonfeed.org/version/1", "items": [{}' + ",{}" * (count - 1) + "]}")
            inputs.append((f"{{}} x {count:,}, {size} MB", empty))
        print(f"{'input':<28} {'parser':<11} {'best ms':>9} {'peak MB':>8} {'limit MB':>9} {'entries':>9}  K/F speed")
        failed = False
        for label, path in inputs:
            size_mb = path.stat().st_size / 1_000_000
            best: dict[str, tuple[float, float, int]] = {}
            for name in ("kiosk", "foundation"):
                runs = [measure(arguments.bench, name, path, arguments.entries) for _ in range(arguments.runs)]
                best[name] = (min(run[0] for run in runs), max(run[1] for run in runs), runs[0][2])
            limit = 4 * size_mb + 30
            ratio = best["foundation"][0] / best["kiosk"][0] if best["kiosk"][0] else float("inf")
            for name in ("kiosk", "foundation"):
                milliseconds, peak, entries = best[name]
                extra = f"  {ratio:.2f}x" if name == "kiosk" else ""
                print(f"{label:<28} {name:<11} {milliseconds:>9.1f} {peak:>8.1f} {limit:>9.1f} {entries:>9}{extra}")
            if best["kiosk"][1] > limit or ratio < 1:
                failed = True
        print("target: Kiosk's peak <= 4N + 30 MB and faster than JSONSerialization:", "missed" if failed else "met")
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
