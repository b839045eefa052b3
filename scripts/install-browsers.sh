#!/usr/bin/env bash
# System packages the browser tests need: Debian's Chromium, driven by the Python
# playwright package (never `playwright install`: it downloads its own builds).
# Idempotent: does nothing when /usr/bin/chromium is already there. Runs as root in CI.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-browsers: /usr/bin/chromium is missing; run as root (apt-get install chromium)" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# Another apt-get (a second checkout's setup, an unattended upgrade) may hold the lock: wait for it.
lock=(-o DPkg::Lock::Timeout=600)
apt-get "${lock[@]}" update -qq
apt-get "${lock[@]}" install -y -qq chromium fonts-dejavu-core >/dev/null
