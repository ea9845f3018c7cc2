#!/usr/bin/env bash
# What a practice kept for offline costs on a phone, per format (issue 43, docs/offline.md):
# renders the practices a person saves — a 20-minute sit, silent and with each ambient bed, a
# 10-minute breathing session, a 20-minute workout — as the run's stream is made (22.05 kHz mono
# WAV), then encodes each with the reference encoders (flac -8; MP3 at 64 and 32 kbit/s; AAC at
# 48 kbit/s, through ffmpeg) and prints MB per minute and per practice. Then it serves and times
# what the server itself answers a device (GET /api/v1/runs/prepared/{key}/audio, FLAC): server on
# core 0, curl on core 1, three times each, with `flac -t` on the answer.
# Usage: scripts/measure-offline-audio.sh [PATH/TO/momentum]   (default: a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ge 1 ]; then
    momentum=$1
else
    swift build -c release --product momentum >/dev/null
    momentum="$(swift build -c release --show-bin-path)/momentum"
fi
need=()
command -v flac >/dev/null || need+=(flac)
command -v ffmpeg >/dev/null || need+=(ffmpeg)
command -v soxi >/dev/null || need+=(sox)
command -v curl >/dev/null || need+=(curl)
command -v taskset >/dev/null || need+=(util-linux)
if [ ${#need[@]} -gt 0 ]; then apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null; fi
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
export MOMENTUM_HOME="$work/home"

render() { "$momentum" render "$@" --rate 22050 >/dev/null; }
render meditation 20 --countdown 10 --interval 5 --ambient silent -o "$work/sit-silent.wav"
for bed in rain ocean stream brown; do
    render meditation 20 --countdown 10 --interval 5 --ambient "$bed" --volume 0.5 -o "$work/sit-$bed.wav"
done
render breathing box --minutes 10 -o "$work/breathing.wav"
render workout --work 40 --rest 20 --rounds 20 -o "$work/workout.wav"

for wav in "$work"/*.wav; do
    name=${wav%.wav}
    flac -s -8 -f "$wav" -o "$name.flac"
    ffmpeg -loglevel error -y -i "$wav" -c:a libmp3lame -b:a 64k "$name.64.mp3"
    ffmpeg -loglevel error -y -i "$wav" -c:a libmp3lame -b:a 32k "$name.32.mp3"
    ffmpeg -loglevel error -y -i "$wav" -c:a aac -b:a 48k "$name.48.m4a"
done
python3 - "$work" <<'PY'
import os, subprocess, sys
work = sys.argv[1]
formats = [("wav", "WAV"), ("flac", "FLAC -8"), ("64.mp3", "MP3 64k"), ("32.mp3", "MP3 32k"), ("48.m4a", "AAC 48k")]
print(f"{'practice':14s} {'min':>5s}  " + "  ".join(f"{label:>16s}" for _, label in formats))
print(f"{'':14s} {'':>5s}  " + "  ".join(f"{'MB/min · MB':>16s}" for _ in formats))
for wav in sorted(f for f in os.listdir(work) if f.endswith(".wav")):
    name = wav[:-4]
    minutes = float(subprocess.check_output(["soxi", "-D", os.path.join(work, wav)])) / 60
    cells = []
    for extension, _ in formats:
        size = os.path.getsize(os.path.join(work, f"{name}.{extension}")) / 1e6
        cells.append(f"{size / minutes:7.3f} · {size:6.2f}")
    print(f"{name:14s} {minutes:5.1f}  " + "  ".join(f"{cell:>16s}" for cell in cells))
PY

# What the server answers a device: a saved sit's prepared sound as FLAC, timed.
"$momentum" meditate presets add Silent 20 --countdown 10 --interval 5 --ambient silent >/dev/null
"$momentum" meditate presets add Rain 20 --countdown 10 --interval 5 --ambient rain --volume 0.5 >/dev/null
pin_server=(); pin_load=()
if [ "$(nproc)" -ge 2 ]; then pin_server=(taskset -c 0); pin_load=(taskset -c 1); fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${pin_server[@]}" "$momentum" serve --port "$port" >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
keys=$(curl -sf "http://127.0.0.1:$port/api/v1/runs/prepared" | python3 -c '
import json, sys
practices = json.load(sys.stdin)["practices"]
wanted = [p for p in practices if p["kind"] == "meditation"] + [p for p in practices if p["key"] == "workout.tabata"]
for p in wanted: print(p["key"], p["name"])')
echo
echo "GET /api/v1/runs/prepared/{key}/audio (FLAC), server on core 0, curl on core 1:"
while read -r key name; do
    for _ in 1 2 3; do
        "${pin_load[@]}" curl -sf -o "$work/prepared.flac" -w "  $name: %{size_download} bytes in %{time_total} s\n" \
            "http://127.0.0.1:$port/api/v1/runs/prepared/$key/audio"
    done
    # The reference decoder checks every frame's CRC (the MD5 is unset: the file is made as sent).
    if ! checked=$(flac -s -t "$work/prepared.flac" 2>&1); then echo "$checked" >&2; exit 1; fi
    echo "  flac -t: ok"
done <<<"$keys"
