#!/usr/bin/env bash
# Checks Sources/ against the project's code rules (no force unwraps, try!, as!,
# implicitly unwrapped optionals, or global mutable state) with the swift-syntax
# checker in Tools/CodeRules, a separate package so swift-syntax never enters the
# product's dependency graph. Exits 0 when clean, 1 on violations, 2 on usage errors.
#
# Usage: scripts/check-code-rules.sh [path ...]   (paths relative to the repo root; default: Sources)
set -euo pipefail

# Run from the repo root whatever the caller's cwd, so reported paths read Sources/...
cd "$(dirname "$0")/.."

# Debug, not release: on 2 cores swift-syntax builds much faster unoptimized,
# and the checker is quick either way.
echo "==> building Tools/CodeRules" >&2
swift build --package-path Tools/CodeRules -c debug
bin_dir="$(swift build --package-path Tools/CodeRules -c debug --show-bin-path)"

if [ "$#" -eq 0 ]; then
    set -- Sources
fi
echo "==> code-rules $*" >&2
exec "$bin_dir/code-rules" "$@"
