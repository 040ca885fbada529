#!/usr/bin/env python3
"""Regenerates the named character reference table inside HTMLEntities.swift.

The table comes from Python's html.entities.html5 (the WHATWG list, 2,231 names including
the legacy ones without ';'). Only the text between the BEGIN/END GENERATED TABLE markers
is replaced, so the hand-written decoder around it stays editable.

Usage: python3 scripts/gen-html-entities.py [path/to/HTMLEntities.swift]
"""
import html.entities
import os
import sys

BEGIN = "    // BEGIN GENERATED TABLE (scripts/gen-html-entities.py)\n"
END = "    // END GENERATED TABLE\n"
WIDTH = 110


def table_text() -> str:
    entries = []
    for name in sorted(html.entities.html5):
        value = html.entities.html5[name]
        assert name.replace(";", "").isalnum() and name.isascii(), name
        entries.append(name + "=" + ",".join("%X" % ord(ch) for ch in value))
    lines = [""]
    for entry in entries:
        if lines[-1] and len(lines[-1]) + 1 + len(entry) > WIDTH:
            lines.append("")
        lines[-1] = (lines[-1] + " " + entry).strip()
    body = "".join("        " + line + "\n" for line in lines)
    return (
        BEGIN
        + "    /// `name=HEX[,HEX]` pairs separated by spaces and newlines; %d names.\n" % len(entries)
        + '    static let packedTable = """\n'
        + body
        + '        """\n'
        + END
    )


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "Sources", "KioskCore", "HTML", "HTMLEntities.swift")
    path = sys.argv[1] if len(sys.argv) > 1 else default
    with open(path, encoding="utf-8") as f:
        source = f.read()
    start = source.index(BEGIN)
    end = source.index(END, start) + len(END)
    with open(path, "w", encoding="utf-8") as f:
        f.write(source[:start] + table_text() + source[end:])
    print("wrote %d names to %s" % (len(html.entities.html5), path))


if __name__ == "__main__":
    main()
