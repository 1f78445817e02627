#!/usr/bin/env bash
# A throwaway PostgreSQL server on 127.0.0.1 for the tests and the bench.
#   start: installs the server when it is missing, puts its data in a new temporary folder of its own
#          (outside the clone, owned by the server's user, so a clone in a folder that user cannot enter
#          works), starts it on a free port the system picks, and writes the connection string to
#          .tmp/postgres.env (CTXKIT_POSTGRES_URL=...), where the tests find it.
#   stop:  stops that server and removes its folder.
# Each clone runs its own server, so two checkouts can run their tests at once.
# CTXKIT_POSTGRES_PORT picks the port instead.
set -euo pipefail
cd "$(dirname "$0")/.."

ENV_FILE="$PWD/.tmp/postgres.env"
# Remembers the server's folder and port between `start` and `stop`.
STATE_FILE="$PWD/.tmp/postgres.server"

find_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

# initdb and the server refuse to run as root: run them as the postgres user when we are root, from a
# folder that user can enter.
as_owner() {
  if [ "$(id -u)" = "0" ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

# A port no one listens on now, as the system hands out to a listener on port 0.
free_port() {
  node -e 'const server = require("node:net").createServer(); server.listen(0, "127.0.0.1", () => { console.log(server.address().port); server.close(); });'
}

# Removes a server folder this script made (and nothing else, whatever the state file says).
remove_root() {
  case "$1" in
    */ctxkit-postgres.*) rm -rf "$1" ;;
  esac
}

# The folder and port of the server this clone started, from the state file; empty when there is none.
read_state() {
  ROOT=""
  PORT=""
  if [ -f "$STATE_FILE" ]; then
    ROOT="$(sed -n 's/^ROOT=//p' "$STATE_FILE")"
    PORT="$(sed -n 's/^PORT=//p' "$STATE_FILE")"
  fi
}

start() {
  local bin
  bin="$(find_bin)"
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "postgres.sh: installing PostgreSQL from the system packages" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bin="$(find_bin)"
  fi
  read_state
  if [ -n "$ROOT" ] && [ -f "$ROOT/data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$ROOT/data" status >/dev/null 2>&1; then
    echo "postgres.sh: already running ($(cat "$ENV_FILE"))" >&2
    return 0
  fi
  # A server this clone started before and that is gone: its folder goes too.
  remove_root "$ROOT"
  mkdir -p "$(dirname "$ENV_FILE")"
  ROOT="$(mktemp -d "${TMPDIR:-/tmp}/ctxkit-postgres.XXXXXX")"
  printf 'ROOT=%s\n' "$ROOT" >"$STATE_FILE"
  mkdir -p "$ROOT/data" "$ROOT/socket"
  [ "$(id -u)" = "0" ] && chown -R postgres "$ROOT"
  as_owner "$bin/initdb" -D "$ROOT/data" -U ctxkit --auth=trust -E UTF8 >/dev/null
  # The port is free when asked for, but another process may take it before the server does: try again.
  local attempt
  for attempt in 1 2 3; do
    PORT="${CTXKIT_POSTGRES_PORT:-$(free_port)}"
    if as_owner "$bin/pg_ctl" -D "$ROOT/data" -l "$ROOT/server.log" -w -t 60 start \
      -o "-c listen_addresses=127.0.0.1 -p $PORT -k $ROOT/socket -c fsync=on -c max_connections=200" >/dev/null; then
      break
    fi
    if [ "$attempt" = "3" ] || [ -n "${CTXKIT_POSTGRES_PORT:-}" ]; then
      echo "postgres.sh: the server did not start; its log is $ROOT/server.log" >&2
      exit 1
    fi
  done
  printf 'ROOT=%s\nPORT=%s\n' "$ROOT" "$PORT" >"$STATE_FILE"
  as_owner "$bin/createdb" -h 127.0.0.1 -p "$PORT" -U ctxkit ctxkit
  echo "CTXKIT_POSTGRES_URL=postgres://ctxkit@127.0.0.1:$PORT/ctxkit" >"$ENV_FILE"
  echo "postgres.sh: started on 127.0.0.1:$PORT, data in $ROOT" >&2
}

stop() {
  local bin
  bin="$(find_bin)"
  read_state
  if [ -n "$bin" ] && [ -n "$ROOT" ] && [ -d "$ROOT/data" ]; then
    as_owner "$bin/pg_ctl" -D "$ROOT/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  remove_root "$ROOT"
  rm -f "$STATE_FILE" "$ENV_FILE"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *)
    echo "usage: scripts/postgres.sh start|stop" >&2
    exit 2
    ;;
esac
