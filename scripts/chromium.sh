#!/usr/bin/env bash
# Debian's Chromium for the browser tests (ctxkit inspect's page) and `pnpm bench inspect`.
#   install: does nothing when /usr/bin/chromium (or CTXKIT_CHROMIUM_PATH) is there; otherwise installs the
#            system package (about two minutes), its output in .tmp/chromium-install.log, shown when it fails.
# .ci/run starts it in the background once the servers are up, and waits for it before the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

CHROMIUM="${CTXKIT_CHROMIUM_PATH:-/usr/bin/chromium}"
LOG="$PWD/.tmp/chromium-install.log"

install() {
  if [ -x "$CHROMIUM" ]; then
    echo "chromium.sh: $CHROMIUM is there" >&2
    return 0
  fi
  mkdir -p "$(dirname "$LOG")"
  echo "chromium.sh: installing Chromium from the system packages (log: $LOG)" >&2
  if ! (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium) >"$LOG" 2>&1; then
    tail -n 30 "$LOG" >&2
    echo "chromium.sh: the install failed; the full log is $LOG" >&2
    exit 1
  fi
  if [ ! -x "$CHROMIUM" ]; then
    echo "chromium.sh: the package installed, but there is no $CHROMIUM" >&2
    exit 1
  fi
  echo "chromium.sh: installed $CHROMIUM" >&2
}

case "${1:-}" in
  install) install ;;
  *)
    echo "usage: scripts/chromium.sh install" >&2
    exit 2
    ;;
esac
