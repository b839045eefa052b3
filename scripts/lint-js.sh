#!/usr/bin/env bash
# Lint the page's JavaScript (src/cardtable/web/static) with ESLint, pinned, installed on first use
# into build/lint-js by npm (nothing global; `make clean` removes it). Settings:
# scripts/eslint.config.mjs. Needs node and npm: Debian's `nodejs` and `npm` packages, installed
# here when this runs as root and they are missing (as scripts/install-browsers.sh does for Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
ESLINT=9.9.1
DIR=build/lint-js
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        export DEBIAN_FRONTEND=noninteractive
        lock=(-o DPkg::Lock::Timeout=600)
        apt-get "${lock[@]}" update -qq
        apt-get "${lock[@]}" install -y -qq nodejs npm >/dev/null
    else
        echo "lint-js: node and npm are missing: apt-get install nodejs npm (as root)" >&2
        exit 1
    fi
fi
if [ ! -x "$DIR/node_modules/.bin/eslint" ] || [ "$(cat "$DIR/.version" 2>/dev/null)" != "$ESLINT" ]; then
    rm -rf "$DIR"
    mkdir -p "$DIR"
    echo '{"private": true}' > "$DIR/package.json"
    npm install --prefix "$DIR" --no-audit --no-fund --silent "eslint@$ESLINT"
    echo "$ESLINT" > "$DIR/.version"
fi
exec "$DIR/node_modules/.bin/eslint" --config scripts/eslint.config.mjs --max-warnings 0 "${@:-src/cardtable/web/static}"
