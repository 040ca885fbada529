#!/usr/bin/env bash
# Installs what Kiosk needs beyond Swift, only what is missing (a fresh Debian machine has Swift
# and nothing else), so a second run is quick. Needs root or sudo for apt.
#
# Usage: scripts/install-deps.sh [runtime|tests]
#   runtime  what building and running need: libsqlite3-dev (GRDB links SQLite)
#   tests    (the default) that, plus the browser tests' python3, python3-venv, chromium,
#            chromium-driver and fonts, newsboat and tmux (the sync test), postgresql and haproxy
#            (the cluster tests), nginx (a proxy's defaults), gdb (a hung test's threads), and selenium + pytest in a
#            virtualenv at .venv-e2e/
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-tests}"
case "$mode" in
    runtime | tests) ;;
    *)
        echo "usage: $0 [runtime|tests]" >&2
        exit 2
        ;;
esac

# Versions of the Python packages the browser tests run on (.venv-e2e/).
selenium_version="4.51.0"
http_ece_version=1.2.1
py_vapid_version=1.9.6
pytest_version="8.3.5"
# axe-core 4.12.1, for the accessibility tests: its axe.min.js ships in this package (installed
# without its Playwright dependency; the tests inject the script with Selenium).
axe_package_version="0.1.8"
venv=".venv-e2e"

installed() {  # Debian package name
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

need_apt=()
installed libsqlite3-dev || need_apt+=(libsqlite3-dev)
if [ "$mode" = tests ]; then
    command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
    # Debian's python3 makes virtualenvs only with python3-venv (ensurepip); another python3 on the
    # PATH (pyenv) may have it built in.
    if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
        installed python3-venv || need_apt+=(python3-venv)
    fi
    installed chromium || need_apt+=(chromium)
    installed chromium-driver || need_apt+=(chromium-driver)
    # Metric-compatible fonts, so pages and screenshots render alike on every machine.
    installed fonts-liberation || need_apt+=(fonts-liberation)
    # newsboat, a real Google Reader API client, synced against Kiosk (driven through tmux).
    installed newsboat || need_apt+=(newsboat)
    installed tmux || need_apt+=(tmux)
    # The cluster: Debian's PostgreSQL (the store's contract tests run on it too) and haproxy.
    installed postgresql || need_apt+=(postgresql)
    installed haproxy || need_apt+=(haproxy)
    # nginx: its default proxy_pass in front of a Kiosk without accounts (e2e/test_owner_proxy.py).
    installed nginx || need_apt+=(nginx)
    # gdb: a Swift test stage that hangs has its threads printed before it is stopped (the
    # toolchain's lldb needs a libpython Debian does not ship).
    installed gdb || need_apt+=(gdb)
fi

if ((${#need_apt[@]})); then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || {
            echo "install-deps: need root or sudo to install ${need_apt[*]}" >&2
            exit 1
        }
        sudo="sudo"
    fi
    echo "installing: ${need_apt[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi

[ "$mode" = tests ] || exit 0

# The virtualenv: made anew when missing or broken (its python3 moved), topped up when a pinned
# version is not the one installed.
if ! "$venv/bin/python" -c 'pass' >/dev/null 2>&1; then
    echo "creating $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python" - "$selenium_version" "$pytest_version" >/dev/null 2>&1 <<'PY'; then
import sys
from importlib.metadata import version
sys.exit(0 if (version("selenium"), version("pytest")) == (sys.argv[1], sys.argv[2]) else 1)
PY
    echo "installing into $venv: selenium==$selenium_version pytest==$pytest_version"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check \
        "selenium==$selenium_version" "pytest==$pytest_version"
fi
# The other side of Web Push in the tests: a push service that decrypts with http-ece and checks
# the VAPID JWT with py-vapid (code that is not Kiosk's).
if ! "$venv/bin/python" - "$http_ece_version" "$py_vapid_version" >/dev/null 2>&1 <<'PY'; then
import sys
from importlib.metadata import version
sys.exit(0 if (version("http-ece"), version("py-vapid")) == (sys.argv[1], sys.argv[2]) else 1)
PY
    echo "installing into $venv: http-ece==$http_ece_version py-vapid==$py_vapid_version"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check \
        "http-ece==$http_ece_version" "py-vapid==$py_vapid_version"
fi
if ! "$venv/bin/python" - "$axe_package_version" >/dev/null 2>&1 <<'PY'; then
import sys
from importlib.metadata import version
sys.exit(0 if version("axe-playwright-python") == sys.argv[1] else 1)
PY
    echo "installing into $venv: axe-playwright-python==$axe_package_version (axe-core's axe.min.js)"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
        "axe-playwright-python==$axe_package_version"
fi
