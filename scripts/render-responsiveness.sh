#!/usr/bin/env bash
# Rendering keeps the server responsive (issue 21). Starts the real server on a free loopback port
# with a temporary MOMENTUM_HOME and a small render cache, asks for two 10-hour renders at once,
# and meanwhile times /health 20 times: the slowest must answer within 1 s. Then hangs up on the
# long renders and checks the server stops rendering (its CPU time stops growing, no partial
# file), and finally fills the render cache past its cap and checks it stays under it.
# Usage: scripts/render-responsiveness.sh PATH/TO/momentum
set -euo pipefail
momentum=$(realpath "$1")
if ! command -v curl >/dev/null || ! command -v python3 >/dev/null; then
    apt-get update -qq && apt-get install -y -qq curl python3 >/dev/null
fi
work=$(mktemp -d)
export MOMENTUM_HOME="$work/home"
cache_mb=80
cache="$MOMENTUM_HOME/cache/renders"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$momentum" serve --host 127.0.0.1 --port "$port" --render-cache-mb "$cache_mb" >"$work/serve.log" 2>&1 &
server=$!
pids+=("$server")
base="http://127.0.0.1:$port"
for _ in $(seq 100); do
    curl -fs -o /dev/null "$base/health" && break
    sleep 0.1
done
curl -fs -o /dev/null "$base/health"

# CPU time (user + system) of the server so far, in seconds.
cpu_seconds() {
    python3 - "$server" <<'PY'
import os, sys
fields = open(f"/proc/{sys.argv[1]}/stat").read().rsplit(")", 1)[1].split()
print((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))
PY
}

plan() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$1"; }
ten_hours=$(plan '{"durationMs":36000000,"countdownMs":0}')
# Two 10-hour sits at once; the rates differ, so neither is the other's cache hit.
for rate in 44100 48000; do
    curl -s -o /dev/null -D "$work/headers-$rate.txt" -w '%{http_code} %{size_download}\n' \
        "$base/api/v1/render/meditation.wav?rate=$rate&plan=$ten_hours" >"$work/render-$rate.txt" 2>/dev/null &
    pids+=("$!")
done
long_renders=("${pids[@]:1}")
sleep 0.5
cpu_before=$(cpu_seconds)
for _ in $(seq 20); do
    curl -fs -o /dev/null -w '%{time_total}\n' "$base/health" >>"$work/health.txt"
    sleep 0.1
done
cpu_during=$(python3 -c "print(f'{$(cpu_seconds) - $cpu_before:.2f}')")
python3 - "$work/health.txt" <<'PY'
import statistics, sys
times = sorted(float(line) for line in open(sys.argv[1]))
print(f"/health while two 10-hour renders were asked for: {len(times)} requests, "
      f"p50 {statistics.median(times) * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms")
assert times[-1] < 1.0, f"/health took {times[-1]:.3f} s"
PY
echo "server CPU while measuring (about 3 s): ${cpu_during} s"
# On two cores one render runs; the other waits up to 10 s for its turn, then gets 503.
for _ in $(seq 150); do
    grep -qs '^503' "$work"/render-*.txt && break
    sleep 0.1
done
for rate in 44100 48000; do
    if [ -s "$work/render-$rate.txt" ]; then
        echo "render at $rate Hz answered $(cut -d' ' -f1 "$work/render-$rate.txt")," \
            "$(grep -i '^retry-after' "$work/headers-$rate.txt" | tr -d '\r')"
    else
        echo "render at $rate Hz still streaming: $(head -1 "$work/headers-$rate.txt" | tr -d '\r')"
    fi
done

# Hang up on the long renders: the server stops rendering.
for pid in "${long_renders[@]}"; do kill "$pid" 2>/dev/null || true; done
sleep 1
cpu_before=$(cpu_seconds)
sleep 2
cpu_after=$(python3 -c "print(f'{$(cpu_seconds) - $cpu_before:.2f}')")
echo "server CPU in the 2 s after the clients hung up: ${cpu_after} s"
python3 -c "assert $cpu_after < 0.3, 'the server is still rendering'"
if ls -a "$cache" 2>/dev/null | grep -q '\.partial$'; then
    echo "a partial render was left in the cache" >&2
    exit 1
fi
# Short renders past the cache's cap: the oldest go, the folder stays under it.
for minutes in 3 4 5 6 7; do
    curl -fs -o /dev/null "$base/api/v1/render/meditation.wav?plan=$(plan "{\"durationMs\":$((minutes * 60000))}")"
done
cache_bytes=$(du -sb "$cache" | cut -f1)
echo "render cache after five renders of 16–37 MB: $(ls "$cache" | wc -l) files, $((cache_bytes / 1048576)) MiB (cap ${cache_mb} MiB)"
[ "$cache_bytes" -le $((cache_mb * 1048576)) ]

kill -0 "$server"
curl -fs -o /dev/null "$base/health"
echo "render responsiveness checks passed"
