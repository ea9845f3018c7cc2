#!/usr/bin/env bash
# Checks rendered audio with ordinary tools, as a listener's software would see it (issue 5):
# files open in sox (and ffprobe when installed) with the right format and length, stay under
# -1 dBFS without DC, Morse timing holds end to end, and memory does not grow with length.
# Usage: scripts/check-render.sh PATH/TO/momentum
set -euo pipefail
momentum=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MOMENTUM_HOME="$work/home"

"$momentum" render meditation 2 --countdown 5 --interval 1 --ambient rain --stereo --rate 22050 -o "$work/sit.wav" >/dev/null
sox --i "$work/sit.wav"
[ "$(soxi -r "$work/sit.wav")" = 22050 ] && [ "$(soxi -c "$work/sit.wav")" = 2 ] && [ "$(soxi -b "$work/sit.wav")" = 16 ]
# 5 s countdown + 2 min + the end gong's 14 s ring.
[ "$(soxi -D "$work/sit.wav")" = "139.000000" ]
sox "$work/sit.wav" -n stats 2>&1 | python3 -c '
import sys
stats = {}
for line in sys.stdin:
    parts = line.split()
    if line.startswith("Pk lev dB"): stats["peak"] = float(parts[3])
    if line.startswith("DC offset"): stats["dc"] = abs(float(parts[2]))
assert stats["peak"] <= -1.0 + 0.01, stats
assert stats["dc"] < 0.001, stats
print("peak", stats["peak"], "dBFS, DC offset", stats["dc"])'
if command -v ffprobe >/dev/null; then
    ffprobe -v error -show_entries stream=codec_name,sample_rate,channels -of csv=p=0 "$work/sit.wav" | grep -q "pcm_s16le,22050,2"
fi

"$momentum" morse render "PARIS " --wpm 20 --fwpm 10 -o "$work/paris.wav" >/dev/null
[ "$(soxi -D "$work/paris.wav")" = "6.000000" ]

if "$momentum" morse render "CQ" --wpm 0 -o "$work/bad.wav" 2>/dev/null; then
    echo "--wpm 0 should have failed" >&2
    exit 1
fi
if "$momentum" morse render "CQ" -o "$work/missing/cq.wav" 2>/dev/null; then
    echo "a missing folder should have failed" >&2
    exit 1
fi
[ ! -e "$work/bad.wav" ] && [ ! -e "$work/missing" ]

# Constant memory: a 60-minute sit peaks at about the memory of a 10-minute one.
python3 - "$momentum" "$work" <<'PY'
import resource, subprocess, sys
momentum, work = sys.argv[1], sys.argv[2]
def peak(minutes):
    # A fresh child per measurement: ru_maxrss of RUSAGE_CHILDREN is the largest child so far,
    # so the shorter render goes first.
    subprocess.run([momentum, "render", "meditation", str(minutes), "--interval", "5", "--ambient", "rain",
                    "-o", f"{work}/m{minutes}.wav"], check=True, stdout=subprocess.DEVNULL)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
short = peak(10)
long = peak(60)
print(f"peak memory: 10 min {short / 1024:.1f} MB, 60 min {long / 1024:.1f} MB")
assert long <= short + 2048, (short, long)
PY
echo "render checks passed"
