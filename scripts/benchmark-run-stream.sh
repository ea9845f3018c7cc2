#!/usr/bin/env bash
# Measures a run's audio stream, GET /api/v1/runs/{id}/audio (issue 24): the release server pinned
# to core 0 on a temporary data directory with a token, the clients on core 1.
#   - time to the first byte of a 60-minute sit's start and of a range in its middle (20 tries each)
#   - the whole sit sent to one client as fast as it reads
#   - /health latency while 5 clients stream whole 60-minute sits at once (curl --limit-rate)
#   - the server's resident memory while 5 clients stream a 10-minute and then a 60-minute sit
# Prints a table. Usage: scripts/benchmark-run-stream.sh
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v curl >/dev/null || missing+=(curl)
command -v python3 >/dev/null || missing+=(python3)
command -v taskset >/dev/null || missing+=(util-linux)
if ((${#missing[@]})); then apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null; fi
swift build -c release --product momentum >/dev/null
momentum="$(swift build -c release --show-bin-path)/momentum"
work=$(mktemp -d)
export MOMENTUM_HOME="$work/home"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

token=$("$momentum" token create --name benchmark | tail -n 1)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
taskset -c 0 "$momentum" serve --host 127.0.0.1 --port "$port" --require-token >"$work/serve.log" 2>&1 &
server=$!
pids+=("$server")
base="http://127.0.0.1:$port"
auth=(-H "Authorization: Bearer $token")
for _ in $(seq 100); do
    curl -fs -o /dev/null "${auth[@]}" "$base/health" && break
    sleep 0.1
done

client() { taskset -c 1 curl -s "${auth[@]}" "$@"; }
start_sit() { # minutes
    client -H 'Content-Type: application/json' -X POST "$base/api/v1/runs" \
        -d "{\"kind\":\"meditation\",\"plan\":{\"durationMs\":$(($1 * 60000)),\"countdownMs\":15000,\"intervalGongs\":{\"mode\":\"every\",\"minutes\":5},\"ambientID\":\"rain\",\"ambientVolume\":0.15}}" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])'
}
rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
stats() { # label file (seconds, one a line)
    python3 - "$1" "$2" <<'PY'
import sys
label, times = sys.argv[1], sorted(float(line) for line in open(sys.argv[2]))
pick = lambda q: times[min(len(times) - 1, round(q * (len(times) - 1)))] * 1000
print(f"| {label:<52} | {len(times):>3} | {pick(0.5):>8.1f} ms | {pick(0.99):>8.1f} ms |")
PY
}

sixty=$(start_sit 60)
audio="$base/api/v1/runs/$sixty/audio"
size=$(client -r 0-43 -D - -o /dev/null "$audio" | tr -d '\r' | awk -F/ '/^[Cc]ontent-[Rr]ange/ {print $2}')
middle=$(( (size / 2) / 2 * 2 ))
# Warm-up: the first requests load the code and the cue sounds.
for _ in 1 2 3; do client -r 0-65535 -o /dev/null "$audio"; client -r "$middle-$((middle + 65535))" -o /dev/null "$audio"; done
for _ in $(seq 20); do client -r 0-1048575 -o /dev/null -w '%{time_starttransfer}\n' "$audio" >>"$work/first.txt"; done
for _ in $(seq 20); do
    client -r "$middle-$((middle + 1048575))" -o /dev/null -w '%{time_starttransfer}\n' "$audio" >>"$work/middle.txt"
done

# Five listeners at once, each at 2x real time (22.05 kHz 16-bit mono is 44.1 kB/s).
listeners=()
stream_five() { # run id, seconds
    listeners=()
    for _ in 1 2 3 4 5; do
        client --limit-rate 88k --max-time "$2" -o /dev/null "$base/api/v1/runs/$1/audio" &
        listeners+=("$!")
    done
}
# One listener as fast as it can read: how quickly the whole sit is made.
whole=$(client -o /dev/null -w '%{time_total} %{speed_download}' "$audio")
idle=$(rss_kb)
# The 10-minute sit first: memory only grows, so the later peak cannot hide an earlier one.
ten=$(start_sit 10)
stream_five "$ten" 15
sleep 1
peak_ten=0
for _ in $(seq 40); do
    rss=$(rss_kb); ((rss > peak_ten)) && peak_ten=$rss
    sleep 0.3
done
wait "${listeners[@]}" 2>/dev/null || true

stream_five "$sixty" 20
sleep 1
peak_sixty=0
for _ in $(seq 40); do
    client -o /dev/null -w '%{time_total}\n' "$base/health" >>"$work/health.txt"
    rss=$(rss_kb); ((rss > peak_sixty)) && peak_sixty=$rss
    sleep 0.3
done
wait "${listeners[@]}" 2>/dev/null || true

echo
echo "60-minute sit with rain and interval gongs every 5 min: $size bytes ($((size / 1024 / 1024)) MB, 22.05 kHz 16-bit mono)"
echo "$whole" | awk '{printf "whole 60-minute sit to one client at full speed: %.2f s (%.0f MB/s, %.0fx real time)\n", $1, $2 / 1e6, 3629 / $1}'
echo "| Measure                                              |   n |      p50    |      p99    |"
echo "|------------------------------------------------------|-----|-------------|-------------|"
stats "first byte, 60-min sit, its first MB" "$work/first.txt"
stats "first byte, 60-min sit, a MB in the middle" "$work/middle.txt"
stats "/health while 5 clients stream 60-min sits" "$work/health.txt"
echo
echo "| Server memory (VmRSS) while 5 clients stream | peak    |"
echo "|----------------------------------------------|---------|"
printf '| %-44s | %4d MB |\n' "none (idle, after the requests above)" $((idle / 1024)) "10-minute sit" $((peak_ten / 1024)) "60-minute sit" $((peak_sixty / 1024))
