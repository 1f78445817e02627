#!/usr/bin/env bash
# A throwaway PostgreSQL server on 127.0.0.1 for the tests and the bench: `start` installs the server when
# it is missing, creates a data directory under .tmp/postgres, starts it and writes the connection string
# to .tmp/postgres.env (CTXKIT_POSTGRES_URL=...); `stop` stops it and removes the data.
set -euo pipefail
cd "$(dirname "$0")/.."

ROOT="$(pwd)/.tmp/postgres"
ENV_FILE="$(pwd)/.tmp/postgres.env"
PORT="${CTXKIT_POSTGRES_PORT:-54329}"

find_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

# initdb and the server refuse to run as root: run them as the postgres user when we are root.
as_owner() {
  if [ "$(id -u)" = "0" ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
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
  if [ -f "$ROOT/data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$ROOT/data" status >/dev/null 2>&1; then
    echo "postgres.sh: already running ($(cat "$ENV_FILE"))" >&2
    return 0
  fi
  rm -rf "$ROOT"
  mkdir -p "$ROOT/data" "$ROOT/socket"
  [ "$(id -u)" = "0" ] && chown -R postgres "$ROOT"
  as_owner "$bin/initdb" -D "$ROOT/data" -U ctxkit --auth=trust -E UTF8 >/dev/null
  as_owner "$bin/pg_ctl" -D "$ROOT/data" -l "$ROOT/server.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $ROOT/socket -c fsync=on -c max_connections=200" >/dev/null
  as_owner "$bin/createdb" -h 127.0.0.1 -p "$PORT" -U ctxkit ctxkit
  echo "CTXKIT_POSTGRES_URL=postgres://ctxkit@127.0.0.1:$PORT/ctxkit" > "$ENV_FILE"
  echo "postgres.sh: started on 127.0.0.1:$PORT" >&2
}

stop() {
  local bin
  bin="$(find_bin)"
  if [ -n "$bin" ] && [ -d "$ROOT/data" ]; then
    as_owner "$bin/pg_ctl" -D "$ROOT/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$ROOT" "$ENV_FILE"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: scripts/postgres.sh start|stop" >&2; exit 2 ;;
esac
