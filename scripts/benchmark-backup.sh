#!/usr/bin/env bash
# Measures a whole backup and its restore (issue 22): 20 years of daily practice plus a library
# of synthetic WAV files, exported to a ZIP archive and restored into an empty data directory.
# Reports wall time and peak memory (max RSS) of each, for a small and a large library: the
# peak memory must not grow with the library (the audio is streamed, never held in memory).
# Usage: scripts/benchmark-backup.sh [LIBRARY_MB]     (default 500; release build)
set -euo pipefail
cd "$(dirname "$0")/.."
library_mb=${1:-500}
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
command -v taskset >/dev/null || { apt-get update -qq && apt-get install -y -qq util-linux >/dev/null; }
dpkg -s zlib1g-dev >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq zlib1g-dev >/dev/null; }
swift build -c release --product momentum-benchmarks >/dev/null
swift build -c release --product momentum >/dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One data directory with the log of 20 years, then a library of `mb` megabytes of 10 MB WAVs.
make_data() { # dir mb
    "$bin/momentum-benchmarks" seed "$1" --ending-yesterday >/dev/null
    local files=$(( $2 / 10 ))
    python3 - "$work/wav-$2" "$files" <<'PY'
import os, struct, sys
folder, count = sys.argv[1], int(sys.argv[2])
os.makedirs(folder, exist_ok=True)
rate, seconds = 44100, 118          # 16-bit mono: about 10 MB each
frames = rate * seconds
for n in range(count):
    data_bytes = frames * 2
    header = b"RIFF" + struct.pack("<I", 36 + data_bytes) + b"WAVEfmt " + struct.pack(
        "<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16) + b"data" + struct.pack("<I", data_bytes)
    with open(os.path.join(folder, f"talk-{n:03d}.wav"), "wb") as f:
        f.write(header)
        # Distinct content per file (the library keeps one copy of equal audio).
        block = os.urandom(64 * 1024)
        written = 0
        while written < data_bytes:
            chunk = block[: min(len(block), data_bytes - written)]
            f.write(chunk)
            written += len(chunk)
PY
    "$bin/momentum" library import "$work/wav-$2"/*.wav --data "$1" >/dev/null
}

measure() { # label, command...
    local label=$1; shift
    /usr/bin/time -f "%e %M" -o "$work/time" taskset -c 0 "$@" >/dev/null
    read -r seconds kilobytes <"$work/time"
    printf '%-34s %8.2f s   peak %6d MB\n' "$label" "$seconds" $(( kilobytes / 1024 ))
}

for mb in 50 "$library_mb"; do
    source_dir="$work/source-$mb"
    make_data "$source_dir" "$mb"
    sync
    archive="$work/backup-$mb.zip"
    echo "== 20 years of practice + ${mb} MB library ($(ls "$source_dir/library" | wc -l) files)"
    # Warm-up: one export that is not counted (page cache, dynamic linking).
    "$bin/momentum" export -o "$archive" --data "$source_dir" >/dev/null
    measure "export -o backup.zip" "$bin/momentum" export -o "$archive" --data "$source_dir"
    printf '%-34s %8s MB\n' "archive size" $(( $(stat -c %s "$archive") / 1024 / 1024 ))
    measure "import backup.zip (empty directory)" "$bin/momentum" import "$archive" --data "$work/restored-$mb"
    measure "import again (everything kept)" "$bin/momentum" import "$archive" --data "$work/restored-$mb"
    "$bin/momentum" export -o "$work/a-$mb.json" --data "$source_dir" >/dev/null
    "$bin/momentum" export -o "$work/b-$mb.json" --data "$work/restored-$mb" >/dev/null
    cmp "$work/a-$mb.json" "$work/b-$mb.json" && echo "restored document: byte-identical"
    diff -r "$source_dir/library" "$work/restored-$mb/library" && echo "restored audio: byte-identical"
    rm -rf "$work/wav-$mb" "$work/restored-$mb" "$archive"
done
