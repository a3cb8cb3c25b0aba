#!/usr/bin/env bash
# The first step of `npm test`: the server, cluster and browser tests start their own throwaway
# PostgreSQL, redis-server and nginx and drive Debian's Chromium (tests/support/*.ts), and
# promtool checks the alerting rules (tests/unit/ops-rules.test.ts). This
# checks that those programs are on the machine and, when some are missing, installs them from
# Debian's packages: as root directly, or through sudo when it needs no password. Without those
# rights it stops at once and prints the exact command to run. Nothing here starts a service.
#
# TEST_DEPS=skip skips the check (a machine that provides the programs some other way).
set -euo pipefail

if [ "${TEST_DEPS:-}" = "skip" ]; then exit 0; fi

missing=()
chrome="${CHROME_PATH:-/usr/bin/chromium}"
[ -x "$chrome" ] || missing+=(chromium fonts-dejavu-core)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
# promtool checks and tests the alerting rules (ops/prometheus; Debian ships it with prometheus).
command -v promtool >/dev/null 2>&1 || [ -x /usr/bin/promtool ] || missing+=(prometheus)

if [ "${#missing[@]}" -eq 0 ]; then
  echo "test-deps: chromium, postgresql, redis-server, nginx and promtool are installed"
  exit 0
fi

command="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" = "0" ]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo="sudo"
else
  echo "test-deps: the tests need Debian packages that are missing: ${missing[*]}" >&2
  echo "test-deps: install them as root, then run npm test again:" >&2
  echo "  sudo sh -c '$command'" >&2
  exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "test-deps: missing ${missing[*]} and this is not a Debian-like system (no apt-get); install them by hand" >&2
  exit 1
fi

echo "test-deps: installing the Debian packages the tests need: ${missing[*]}"
echo "test-deps: $ ${sudo:+sudo }$command"
$sudo apt-get update
# The packages' own services are not wanted (the tests start private instances): none starts on install.
policy=/usr/sbin/policy-rc.d
had_policy=0
[ -e "$policy" ] && had_policy=1
if [ "$had_policy" = "0" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
  $sudo chmod +x "$policy"
fi
status=0
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}" || status=$?
if [ "$had_policy" = "0" ]; then $sudo rm -f "$policy"; fi
if [ "$status" -ne 0 ]; then
  echo "test-deps: apt-get install failed (exit $status)" >&2
  exit "$status"
fi
echo "test-deps: installed ${missing[*]}"
