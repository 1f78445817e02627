#!/usr/bin/env bash
# A throwaway Redis server on 127.0.0.1 for the tests and the bench: `start` installs the server when it is
# missing, keeps its data in a fresh temporary folder outside the clone, listens on a port the OS picks,
# persists every write before answering (appendfsync always), and writes the URL to .tmp/redis.env
# (CTXKIT_REDIS_URL=...); `stop` shuts it down and removes its folder.
set -euo pipefail
cd "$(dirname "$0")/.."

ENV_FILE="$PWD/.tmp/redis.env"
# Where the running server's folder is recorded, so `stop` finds it.
DIR_FILE="$PWD/.tmp/redis.dir"

running() {
  [ -f "$DIR_FILE" ] && [ -f "$(cat "$DIR_FILE")/redis.pid" ] && kill -0 "$(cat "$(cat "$DIR_FILE")/redis.pid")" 2>/dev/null
}

start() {
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "redis.sh: installing redis-server from the system packages" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
    # The package starts a system service on 6379; the tests use their own server.
    service redis-server stop >/dev/null 2>&1 || true
  fi
  if running; then
    echo "redis.sh: already running ($(cat "$ENV_FILE"))" >&2
    return 0
  fi
  local dir port
  dir="$(mktemp -d "${TMPDIR:-/tmp}/ctxkit-redis.XXXXXX")"
  # A port the OS hands out as free right now.
  port="$(node -e 'const server = require("node:net").createServer(); server.listen(0, "127.0.0.1", () => { console.log(server.address().port); server.close(); });')"
  redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --save "" --appendonly yes --appendfsync always \
    --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/server.log"
  # Ready once it answers.
  local tries=0
  until redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ]; then
      echo "redis.sh: the server did not answer on 127.0.0.1:$port; its log:" >&2
      cat "$dir/server.log" >&2 || true
      exit 1
    fi
    sleep 0.1
  done
  mkdir -p "$(dirname "$ENV_FILE")"
  echo "$dir" > "$DIR_FILE"
  echo "CTXKIT_REDIS_URL=redis://127.0.0.1:$port" > "$ENV_FILE"
  echo "redis.sh: started on 127.0.0.1:$port (data in $dir)" >&2
}

stop() {
  if [ -f "$DIR_FILE" ]; then
    local dir pid
    dir="$(cat "$DIR_FILE")"
    if [ -f "$dir/redis.pid" ]; then
      pid="$(cat "$dir/redis.pid")"
      kill "$pid" 2>/dev/null || true
      # SIGTERM makes the server flush and exit; wait for it, briefly.
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -rf "$dir"
  fi
  rm -f "$DIR_FILE" "$ENV_FILE"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: scripts/redis.sh start|stop" >&2; exit 2 ;;
esac
