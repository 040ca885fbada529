#!/usr/bin/env python3
"""Stops the package's layout drifting from what it says about itself.

Usage: scripts/check-layout.py BIN_DIR   (BIN_DIR holds the built `kiosk` and `kiosk-bench`)

Checks, each failure printed as one line:
  1. every target imports each dependency it declares, and declares each module it imports
     (system modules aside), and every package in Package.swift is used by some target;
  2. no two tracked paths differ only by case (one folder on macOS's default disk);
  3. docs/ARCHITECTURE.md's target tables name every target with exactly the targets and
     libraries Package.swift gives it;
  4. docs/ARCHITECTURE.md's command tables list exactly the subcommands `kiosk --help`,
     `kiosk user --help` and `kiosk-bench --help` print;
  5. every flag README's settings table names is one `kiosk serve --help` lists (the table itself
     is held to Settings.swift by KioskSettingsTests);
  6. the model, the store's protocols and the accounts compile against no HTTP client or TLS
     module, not even one a dependency brings along: the compiler's dependency files (`*.d` in
     BIN_DIR/TARGET.build) list every module it loaded, its dependencies' dependencies included;
  7. docs/ARCHITECTURE.md's list of SQLite migrations is the one KioskSQLite registers, in order.
Run by scripts/test.sh after the build; exits 1 on any failure.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SYSTEM_MODULES = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Dispatch",
    "Darwin", "Glibc", "Musl", "Synchronization", "Testing", "XCTest", "os", "_Concurrency",
}
IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?"
    r"import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?(\w+)",
    re.MULTILINE,
)


def dump_package():
    out = subprocess.run(
        ["swift", "package", "dump-package"], cwd=REPO, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out)


def declared(target):
    """(targets, products) a target declares, by name (a product's module has its name here)."""
    targets, products = set(), set()
    for dep in target.get("dependencies", []):
        if "byName" in dep:
            targets.add(dep["byName"][0])
        elif "target" in dep:
            targets.add(dep["target"][0])
        elif "product" in dep:
            products.add((dep["product"][0], dep["product"][1]))
    return targets, products


def imports_of(folder):
    found = set()
    for swift in folder.rglob("*.swift"):
        found.update(IMPORT.findall(swift.read_text(encoding="utf-8")))
    return found - SYSTEM_MODULES


def folder_of(target):
    if target.get("path"):
        return REPO / target["path"]
    return REPO / ("Tests" if target["type"] == "test" else "Sources") / target["name"]


def check_imports(package, failures):
    used_packages = set()
    for target in package["targets"]:
        targets, products = declared(target)
        used_packages.update(package_name.lower() for _, package_name in products)
        modules = targets | {name for name, _ in products}
        imported = imports_of(folder_of(target))
        for name in sorted(modules - imported):
            failures.append(f"{target['name']} declares {name} and never imports it")
        for name in sorted(imported - modules - {target["name"]}):
            failures.append(f"{target['name']} imports {name} without declaring it")
    for dependency in package["dependencies"]:
        kind = next(iter(dependency))  # sourceControl, fileSystem or registry
        identity = dependency[kind][0]["identity"]
        if identity.lower() not in used_packages:
            failures.append(f"Package.swift depends on {identity} and no target uses it")


def check_case_collisions(failures):
    paths = subprocess.run(
        ["git", "ls-files"], cwd=REPO, check=True, capture_output=True, text=True
    ).stdout.split("\n")
    seen, reported = {}, set()
    for path in filter(None, paths):
        parts = path.split("/")
        for depth in range(1, len(parts) + 1):
            prefix = "/".join(parts[:depth])
            other = seen.setdefault(prefix.lower(), prefix)
            if other != prefix and (other, prefix) not in reported:
                reported.add((other, prefix))
                failures.append(f"'{other}' and '{prefix}' differ only by case")
                break  # what lies below the first differing folder says nothing new


def table_rows(text, heading):
    """Rows of the first table under `heading`, as lists of cells (header and rule skipped)."""
    section = text.split(heading, 1)
    if len(section) < 2:
        return None
    rows = []
    for line in section[1].lstrip("\n").splitlines():
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        rows.append(cells)
    return rows[2:]


def names(cell):
    return set(re.findall(r"`([^`]+)`", cell))


def check_target_tables(package, doc, failures):
    expected = {}
    for target in package["targets"]:
        targets, products = declared(target)
        expected[target["name"]] = (target["type"] == "test", targets, {n for n, _ in products})
    documented = {}
    for heading, tests in (("## Targets", False), ("### Test targets", True)):
        rows = table_rows(doc, heading)
        if rows is None:
            failures.append(f"docs/ARCHITECTURE.md has no '{heading}' table")
            continue
        for cells in rows:
            if len(cells) < 4:
                failures.append(f"docs/ARCHITECTURE.md '{heading}': a row without 4 cells: {cells}")
                continue
            named = sorted(names(cells[0])) or [cells[0]]
            if len(named) != 1:
                failures.append(f"docs/ARCHITECTURE.md '{heading}': a row names {len(named)} targets: {cells[0]}")
                continue
            name = named[0]
            if name.startswith("Tools/"):
                if not (REPO / name / "Package.swift").exists():
                    failures.append(f"docs/ARCHITECTURE.md lists {name}, which is no package")
                continue
            documented[name] = (tests, names(cells[2]), names(cells[3]))
    for name in sorted(set(expected) - set(documented)):
        failures.append(f"docs/ARCHITECTURE.md does not list the target {name}")
    for name in sorted(set(documented) - set(expected)):
        failures.append(f"docs/ARCHITECTURE.md lists {name}, which Package.swift does not have")
    for name in sorted(set(expected) & set(documented)):
        is_test, targets, products = expected[name]
        doc_test, doc_targets, doc_products = documented[name]
        if is_test != doc_test:
            failures.append(f"docs/ARCHITECTURE.md lists {name} in the wrong table")
        if targets != doc_targets:
            failures.append(
                f"docs/ARCHITECTURE.md: {name} uses {sorted(targets)}, the table says {sorted(doc_targets)}"
            )
        if products != doc_products:
            failures.append(
                f"docs/ARCHITECTURE.md: {name} uses libraries {sorted(products)}, the table says {sorted(doc_products)}"
            )


def subcommands(binary, *args):
    out = subprocess.run([binary, *args, "--help"], check=True, capture_output=True, text=True).stdout
    found, listing = [], False
    for line in out.splitlines():
        if line.startswith("SUBCOMMANDS:"):
            listing = True
        elif listing and re.match(r"^  [a-z][a-z0-9-]*( |$)", line):
            found.append(line.split()[0])
        elif listing and line and not line.startswith(" "):
            listing = False
    return set(found)


def check_command_tables(bin_dir, doc, failures):
    rows = table_rows(doc, "## Commands")
    if rows is None:
        failures.append("docs/ARCHITECTURE.md has no '## Commands' table")
        return
    documented = set()
    command = re.compile(r"^kiosk(-bench)?( [a-z][a-z0-9-]*)+$")
    for cells in rows:
        documented |= {name for name in names(" ".join(cells)) if command.match(name)}
    expected = set()
    for program, args in (("kiosk", ()), ("kiosk", ("user",)), ("kiosk-bench", ())):
        for name in subcommands(str(Path(bin_dir) / program), *args):
            expected.add(" ".join((program, *args, name)))
    for name in sorted(expected - documented):
        failures.append(f"docs/ARCHITECTURE.md's commands table lacks `{name}`")
    for name in sorted(documented - expected):
        failures.append(f"docs/ARCHITECTURE.md's commands table lists `{name}`, which --help does not")


def check_settings_flags(bin_dir, failures):
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    rows = table_rows(readme, "### Settings")
    if rows is None:
        failures.append("README.md has no '### Settings' table")
        return
    help_text = subprocess.run(
        [str(Path(bin_dir) / "kiosk"), "serve", "--help"], check=True, capture_output=True, text=True
    ).stdout
    offered = set(re.findall(r"(--[a-z][a-z0-9-]*)", help_text))
    for cells in rows:
        for flag in names(cells[1]):
            if flag not in offered:
                failures.append(f"README's settings table names {flag}, which `kiosk serve --help` does not list")


#: Targets that must not reach an HTTP client or TLS, and the modules that would mean they do.
NO_NETWORK_TARGETS = ["KioskModel", "KioskStore", "KioskAccounts"]
NETWORK_MODULES = {"AsyncHTTPClient", "NIOSSL", "NIOHTTP1", "NIOHTTPCompression", "NIOSOCKS"}


def check_no_network(bin_dir, failures):
    for target in NO_NETWORK_TARGETS:
        build = Path(bin_dir) / f"{target}.build"
        deps = list(build.glob("*.d"))
        if not deps:
            failures.append(f"{target}: no compiler dependency files in {build} (build first)")
            continue
        loaded = set()
        for path in deps:
            loaded.update(re.findall(r"/(\w+)\.swiftmodule", path.read_text(encoding="utf-8", errors="replace")))
        reached = sorted(loaded & NETWORK_MODULES)
        if reached:
            failures.append(f"{target} compiles against {', '.join(reached)}: it must not reach an HTTP client or TLS")


def check_migrations(doc, failures):
    source = (REPO / "Sources" / "KioskSQLite" / "Migrations.swift").read_text(encoding="utf-8")
    registered = re.findall(r'registerMigration\("(\w+)"', source)
    listed = re.search(r"named `DatabaseMigrator` migrations:(.*?)\)", doc, re.S)
    said = re.findall(r"`(\w+)`", listed.group(1)) if listed else []
    if said != registered:
        failures.append(f"docs/ARCHITECTURE.md lists the SQLite migrations {said}, Migrations.swift registers {registered}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    failures = []
    package = dump_package()
    doc = (REPO / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    check_imports(package, failures)
    check_case_collisions(failures)
    check_target_tables(package, doc, failures)
    check_command_tables(sys.argv[1], doc, failures)
    check_settings_flags(sys.argv[1], failures)
    check_no_network(sys.argv[1], failures)
    check_migrations(doc, failures)
    for failure in failures:
        print(f"layout: {failure}")
    targets = len(package["targets"])
    if failures:
        print(f"layout: {len(failures)} failures over {targets} targets")
        sys.exit(1)
    print(f"layout: {targets} targets, their imports, paths, and docs/ARCHITECTURE.md's tables agree; "
          f"{', '.join(NO_NETWORK_TARGETS)} reach no HTTP client or TLS")


if __name__ == "__main__":
    main()
