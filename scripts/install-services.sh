#!/usr/bin/env bash
# System packages the cluster tests need: Debian's PostgreSQL and Redis servers. The tests start
# throwaway instances of their own (tests/services.py); this script never starts, enables or
# configures a system service, and stops the ones the packages' install starts by itself.
# Idempotent: does nothing when both servers are already there. Runs as root in CI.
set -euo pipefail
have_postgres() { compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null; }
have_redis() { [ -x /usr/bin/redis-server ]; }
if have_postgres && have_redis; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-services: PostgreSQL or Redis is missing; run as root (apt-get install postgresql redis-server)" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# Packages' maintainer scripts start their services (invoke-rc.d); policy-rc.d answering 101
# forbids that for the length of this install, and is removed after it whatever happens.
policy=/usr/sbin/policy-rc.d
own_policy=0
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    own_policy=1
fi
cleanup() { if [ "$own_policy" = 1 ]; then rm -f "$policy"; fi; }
trap cleanup EXIT
# Another apt-get (a second checkout's setup, an unattended upgrade) may hold the lock: wait for it.
lock=(-o DPkg::Lock::Timeout=600)
apt-get "${lock[@]}" update -qq
packages=()
have_postgres || packages+=(postgresql)
have_redis || packages+=(redis-server)
apt-get "${lock[@]}" install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
