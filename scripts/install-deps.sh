#!/usr/bin/env bash
# Installs what the tests need beyond Swift, only when it is missing (a fresh Debian machine
# has Swift and nothing else). Needs root or sudo for apt.
set -euo pipefail

need_apt=()
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)

if ((${#need_apt[@]})); then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing: ${need_apt[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need_apt[@]}"
fi
