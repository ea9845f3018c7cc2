#!/usr/bin/env bash
# Measures the progress computations on 20 years of daily practice (SPEC §15, issue 3):
#   1. in the core: totals, calendar month, streaks with jokers, strength, year statistics (goal < 5 ms)
#   2. end to end: `momentum stats --year` on a database holding that log (goal < 100 ms)
# Usage: scripts/benchmark-progress.sh            (release build; takes a few minutes the first time)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product momentum-benchmarks >/dev/null
swift build -c release --product momentum >/dev/null
bin=$(swift build -c release --show-bin-path)

echo "== core (median of 50 runs)"
"$bin/momentum-benchmarks" progress

data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
"$bin/momentum-benchmarks" seed "$data"

echo "== end to end: momentum stats --year (whole process: start, open database, read log, compute, print)"
if command -v hyperfine >/dev/null; then
    hyperfine --warmup 3 --runs 30 "$bin/momentum stats --year --data $data"
else
    python3 - "$bin/momentum" "$data" <<'PY'
import statistics, subprocess, sys, time
binary, data = sys.argv[1], sys.argv[2]
samples = []
for run in range(33):
    started = time.perf_counter()
    subprocess.run([binary, "stats", "--year", "--data", data], check=True, stdout=subprocess.DEVNULL)
    if run >= 3:
        samples.append((time.perf_counter() - started) * 1000)
samples.sort()
print(f"median {statistics.median(samples):.1f} ms, p90 {samples[int(len(samples) * 0.9)]:.1f} ms, "
      f"min {samples[0]:.1f} ms over {len(samples)} runs")
PY
fi
