#!/usr/bin/env bash
# Measures the server under load (SPEC §15, issue 27), with 20 years of daily practice in the
# database (the log `momentum-benchmarks seed` writes, as scripts/benchmark-progress.sh uses).
#
#   scripts/benchmark-server.sh [--postgres] [--check]
#
# The server runs on one core and the load generator (wrk, 64 connections) on the other
# (`taskset`); each route is warmed up for 3 s, then measured for BENCH_SECONDS (default 15).
# Routes alone: streaks, calendar, statistics, a sync pull of 100 changes, and /health (the
# floor: the framework with no work behind it). Then the mixed load: 32 readers (streaks, calendar
# and statistics in turn) while 8 devices push batches of 5 changes (a new focus timer each).
#
# Goals (SQLite): every read p99 < 10 ms alone and < 15 ms under the mixed load, pushes p99 <
# 20 ms, no errors. --check exits non-zero when one is missed. Release build, as shipped.
# After the mixed load it reports the sync log: changes kept by compaction of those ever logged
# (sequence numbers are never reused, so the highest is the count without compaction).
# BENCH_KEEP=DIR keeps the data directory there.
#
# --postgres: the same load on two servers sharing one PostgreSQL (docs/deploy.md "Several
# servers"), behind nginx balancing them round robin — pushes hashed by credential, as docs/deploy.md
# has it (the benchmark's devices share one, so one server merges them all: the best case); a
# private cluster (scripts/postgres-cluster.sh,
# durable settings: fsync and synchronous commit on), the same 20 years imported into it, and
# PostgreSQL, both servers and nginx on core 0, wrk on core 1. Goal: every route p99 < 25 ms and
# no errors.
set -euo pipefail
cd "$(dirname "$0")/.."
store=sqlite
check=""
for arg in "$@"; do
    case "$arg" in
    --postgres) store=postgres ;;
    --check) check=--check ;;
    *) echo "usage: $0 [--postgres] [--check]" >&2; exit 2 ;;
    esac
done
seconds=${BENCH_SECONDS:-15}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
command -v taskset >/dev/null || { apt-get update -qq && apt-get install -y -qq util-linux >/dev/null; }
swift build -c release --product momentum-benchmarks >/dev/null
swift build -c release --product momentum >/dev/null
bin=$(swift build -c release --show-bin-path)
momentum="$bin/momentum"

# One core for the server, another for wrk; on a single core both share it (and say so).
if [ "$(nproc)" -ge 2 ]; then
    server_cpu=(taskset -c 0)
    load_cpu=(taskset -c 1)
    pinning="server on core 0, wrk on core 1"
else
    server_cpu=()
    load_cpu=()
    pinning="one core: server and wrk share it (numbers not comparable)"
fi

work=$(mktemp -d)
chmod 755 "$work"
servers=()
cleanup() {
    for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    if [ "$store" = postgres ]; then bash scripts/postgres-cluster.sh stop "$work/cluster" >/dev/null 2>&1 || true; fi
    if [ -n "${BENCH_KEEP:-}" ]; then rm -rf "$BENCH_KEEP" && mv "$work/home" "$BENCH_KEEP"; fi
    rm -rf "$work"
}
trap cleanup EXIT
export MOMENTUM_HOME="$work/home"
"$bin/momentum-benchmarks" seed "$MOMENTUM_HOME"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_health() { for _ in $(seq 1 100); do curl -sf "$1/health" >/dev/null && return 0; sleep 0.1; done; return 1; }

if [ "$store" = sqlite ]; then
    port=$(free_port)
    MOMENTUM_LOG_LEVEL=warning "${server_cpu[@]}" "$momentum" serve --port "$port" >"$work/serve.log" 2>&1 &
    servers+=($!)
    base="http://127.0.0.1:$port"
    wait_health "$base"
    store_name="SQLite, one server"
else
    # PostgreSQL on the server core, durable as a real one; the same 20 years (ending yesterday:
    # an import refuses sessions in the future), exported as CSV and imported into it.
    # The database gets the core first, as docs/deploy.md has it on a shared machine (CPUWeight):
    # everything this script starts — servers, nginx, wrk (alone on its core) — runs in its
    # scheduling group at nice 10, PostgreSQL (its own group, pg_ctl starts a session) at 0.
    # Without it, servers answering cached reads flat out starve the backends their pushes wait
    # for (seconds, measured with `perf sched latency`).
    echo 10 >/proc/self/autogroup 2>/dev/null || echo "note: no autogroup here; the database has no priority" >&2
    mkdir "$work/cluster"
    database_url=$(PG_CLUSTER_DURABLE=1 "${server_cpu[@]}" bash scripts/postgres-cluster.sh start "$work/cluster")
    "$bin/momentum-benchmarks" seed "$work/export-home" --ending-yesterday >/dev/null
    MOMENTUM_HOME="$work/export-home" "$momentum" export --format csv -o "$work/log.csv" >/dev/null
    MOMENTUM_HOME="$work/pg-home" "$momentum" import --database "$database_url" "$work/log.csv" >/dev/null
    ports=()
    for index in 0 1; do
        port=$(free_port)
        ports+=("$port")
        MOMENTUM_LOG_LEVEL=warning "${server_cpu[@]}" "$momentum" serve --database "$database_url" --port "$port" \
            --data "$work/server-$index" >"$work/serve-$index.log" 2>&1 &
        servers+=($!)
        wait_health "http://127.0.0.1:$port"
    done
    command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] \
        || { apt-get update -qq && apt-get install -y -qq nginx >/dev/null; }
    nginx=$(command -v nginx || echo /usr/sbin/nginx)
    mkdir -p "$work/nginx/logs" "$work/nginx/temp"
    chmod 777 "$work/nginx/temp"
    front=$(free_port)
    # The balancer of docs/deploy.md, without TLS (the benchmark measures the servers).
    cat >"$work/nginx/nginx.conf" <<NGINX
daemon off;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx/temp/body;
    proxy_temp_path $work/nginx/temp/proxy;
    fastcgi_temp_path $work/nginx/temp/fastcgi;
    uwsgi_temp_path $work/nginx/temp/uwsgi;
    scgi_temp_path $work/nginx/temp/scgi;
    upstream momentum {
        server 127.0.0.1:${ports[0]};
        server 127.0.0.1:${ports[1]};
        keepalive 64;
    }
    # A person's pushes to one server (by their credential), so one group commit merges them
    # instead of two servers taking turns on the person's replica row.
    upstream momentum_push {
        hash "\$http_authorization\$cookie_momentum_session" consistent;
        server 127.0.0.1:${ports[0]};
        server 127.0.0.1:${ports[1]};
        keepalive 16;
    }
    server {
        listen 127.0.0.1:$front;
        location = /api/v1/sync/push {
            proxy_pass http://momentum_push;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host;
        }
        location / {
            proxy_pass http://momentum;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host;
        }
    }
}
NGINX
    "${server_cpu[@]}" "$nginx" -p "$work/nginx" -c "$work/nginx/nginx.conf" >"$work/nginx/out.log" 2>&1 &
    servers+=($!)
    base="http://127.0.0.1:$front"
    wait_health "$base"
    store_name="PostgreSQL, two servers behind nginx"
    [ ${#server_cpu[@]} -gt 0 ] && pinning="PostgreSQL, both servers and nginx on core 0, wrk on core 1"
fi

# The readers of the mixed load take the three progress routes in turn.
month=$(date +%Y-%m)
cat >"$work/readers.lua" <<LUA
local paths = {"/api/v1/progress/streaks", "/api/v1/progress/calendar?month=$month",
               "/api/v1/progress/statistics?period=month"}
local n = 0
request = function()
    n = n + 1
    return wrk.format("GET", paths[n % #paths + 1])
end
LUA
# A device's push: five fields of one of its timers (new at first, then edited again and again,
# as phones tick checklists and start runs), stamped by the device's own clock (docs/sync.md).
cat >"$work/push.lua" <<'LUA'
local counter = 0
local threads = 0
setup = function(thread)
    threads = threads + 1
    thread:set("tid", threads)
end
init = function(args)
    math.randomseed(os.time() * 1000 + (tid or 0))
    node = string.format("bench-%d-%06d", tid or 0, math.random(0, 999999))
    last = 0
end
local function stamp()
    local wall = os.time() * 1000
    if wall > last then last, counter = wall, 0 else counter = counter + 1 end
    if counter > 65535 then last, counter = last + 1, 0 end
    return string.format("%013d-%05d-%s", last, counter, node)
end
local function uuid()
    return string.format("%08x-%04x-4%03x-%04x-%012x", math.random(0, 0xffffffff), math.random(0, 0xffff),
        math.random(0, 0xfff), 0x8000 + math.random(0, 0x3fff), math.random(0, 0xffffffffffff))
end
local timers = {}
local pushes = 0
request = function()
    pushes = pushes + 1
    local slot = pushes % 200 + 1
    timers[slot] = timers[slot] or uuid()
    local id = timers[slot]
    local fields = {{"name", '"Bench ' .. pushes .. '"'}, {"durationMs", tostring(60000 * (pushes % 60 + 1))},
                    {"sortOrder", tostring(pushes % 7)}, {"notes", '"round ' .. pushes .. '"'},
                    {"createdAt", tostring(os.time() * 1000)}}
    local changes = {}
    for i, f in ipairs(fields) do
        changes[i] = string.format(
            '{"type":"focusTimer","id":"%s","op":"set","field":"%s","value":%s,"stamp":"%s","device":"Bench phone"}',
            id, f[1], f[2], stamp())
    end
    return wrk.format("POST", "/api/v1/sync/push", {["Content-Type"] = "application/json"},
        '{"changes":[' .. table.concat(changes, ",") .. ']}')
end
LUA

run_wrk() { # name connections url [lua] -> results line
    local name=$1 connections=$2 url=$3 script=${4:-}
    local args=(-t2 -c"$connections" --latency)
    [ -n "$script" ] && args+=(-s "$script")
    "${load_cpu[@]}" wrk "${args[@]}" -d"${seconds}s" "$url" >"$work/wrk-$name.txt"
}

results=()
for route in "progress/streaks" "progress/calendar?month=$month" "progress/statistics?period=month" \
    "sync/pull?after=1000&limit=100" "health"; do
    url="$base/api/v1/$route"
    [ "$route" = health ] && url="$base/health"
    curl -sf "$url" >/dev/null  # fail early on an error
    # Warm up: caches filled, and the database files settled since the server's start (what is
    # read once files stand still — the store revision, the household's people — is kept then).
    "${load_cpu[@]}" wrk -t2 -c64 -d3s "$url" >/dev/null
    run_wrk alone 64 "$url"
    results+=("$route|alone|$(tr '\n' '\t' <"$work/wrk-alone.txt")")
done

# The mixed load: both wrk processes on the load core at once, each measuring its own requests.
"${load_cpu[@]}" wrk -t1 -c8 -d3s -s "$work/push.lua" "$base/" >/dev/null
run_wrk readers 32 "$base/" "$work/readers.lua" &
readers=$!
run_wrk pushes 8 "$base/" "$work/push.lua"
wait "$readers"
results+=("reads (32 readers, mixed)|mixed|$(tr '\n' '\t' <"$work/wrk-readers.txt")")
results+=("pushes (8 devices, mixed)|push|$(tr '\n' '\t' <"$work/wrk-pushes.txt")")

sleep 1  # the compaction that the last group of pushes may have started
if [ "$store" = sqlite ]; then
    log=$(python3 - "$MOMENTUM_HOME/momentum.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
kept, head, size = db.execute("SELECT COUNT(*), MAX(seq), SUM(LENGTH(message)) FROM syncLog").fetchone()
print(f"sync log after the mixed load: {kept} changes kept of {head} ever logged; {size / 1e6:.1f} MB of"
      f" changes kept, about {size / kept * head / 1e6:.1f} MB without compaction")
PY
    )
else
    psql="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)/psql"
    counted=$("$psql" --no-psqlrc -At "$database_url" \
        -c "SELECT COUNT(*) || ' changes kept of ' || COALESCE(MAX(seq), 0) || ' ever logged' FROM sync_log" \
        2>/dev/null || echo "?")
    log="sync log after the mixed load: $counted"
fi

python3 - "$check" "$pinning" "$log" "$store" "$store_name" "${results[@]}" <<'PY'
import re, sys
check, pinning, log, store, store_name, runs = (*sys.argv[1:6], sys.argv[6:])
units = {"us": 0.001, "ms": 1.0, "s": 1000.0}
goals = {"alone": 10.0, "mixed": 15.0, "push": 20.0}
if store == "postgres":
    goals = {"alone": 25.0, "mixed": 25.0, "push": 25.0}
failed = False
print(f"store: {store_name} · {pinning}")
print(f"{'route':<34} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8}  goal")
for run in runs:
    route, kind, text = run.split("|", 2)
    def latency(label):
        m = re.search(rf"\s{label}\s+([\d.]+)(us|ms|s)\b", text)
        return float(m.group(1)) * units[m.group(2)]
    p50, p99 = latency("50%"), latency("99%")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors: ([^\t]+)", text)
    goal = None if route == "health" else goals[kind]
    # No request answered at all (every one waited past wrk's timeout) is no measurement.
    answered = rate > 0
    ok = (goal is None or p99 < goal) and not errors and answered
    failed |= not ok
    verdict = (f"p99 < {goal:g} ms " + ("met" if ok else "MISSED")) if goal else ("(floor)" if ok else "ERRORS")
    if not answered:
        verdict = "NO ANSWER within wrk's 2 s timeout"
    print(f"{route:<34} {rate:>8.0f} {p50:>8.2f} {p99:>8.2f}  {verdict}"
          + (f"  ({errors.group(0)})" if errors else ""))
print(log)
if failed and check == "--check":
    sys.exit(1)
PY
