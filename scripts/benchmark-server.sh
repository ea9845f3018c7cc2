#!/usr/bin/env bash
# Measures the server (SPEC §15): streak and calendar queries under 64 concurrent connections,
# with 20 years of daily practice in the database (the log `momentum-benchmarks seed` writes, as
# scripts/benchmark-progress.sh uses). Goal: p99 under 10 ms for each.
# Usage: scripts/benchmark-server.sh [--check]   (release build, as shipped; wrk drives the load
# from the same 2-core machine; --check exits non-zero when a goal is missed)
set -euo pipefail
cd "$(dirname "$0")/.."
check=${1:-}
seconds=${BENCH_SECONDS:-15}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
swift build -c release --product momentum-benchmarks >/dev/null
swift build -c release --product momentum >/dev/null
bin=$(swift build -c release --show-bin-path)
momentum="$bin/momentum"

work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
export MOMENTUM_HOME="$work/home"
"$bin/momentum-benchmarks" seed "$MOMENTUM_HOME"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
MOMENTUM_LOG_LEVEL=warning "$momentum" serve --port "$port" >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done

month=$(date +%Y-%m)
results=()
# /health is the floor: the framework and the middleware with no work behind them (no goal).
for route in "progress/streaks" "progress/calendar?month=$month" "sync/pull?after=1000&limit=100" "health"; do
    url="http://127.0.0.1:$port/api/v1/$route"
    [ "$route" = health ] && url="http://127.0.0.1:$port/health"
    curl -sf "$url" >/dev/null  # fail early on an error
    # Warm up: caches filled, and the database files settled since the server's start (what is
    # read once files stand still — the store revision, the household's people — is kept then).
    wrk -t2 -c64 -d3s "$url" >/dev/null
    wrk -t2 -c64 -d"${seconds}s" --latency "$url" >"$work/wrk.txt"
    results+=("$route|$(tr '\n' '\t' <"$work/wrk.txt")")
done

python3 - "$check" "${results[@]}" <<'PY'
import re, sys
check, runs = sys.argv[1], sys.argv[2:]
units = {"us": 0.001, "ms": 1.0, "s": 1000.0}
failed = False
print(f"{'route':<34} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8}  goal p99 < 10 ms")
for run in runs:
    route, text = run.split("|", 1)
    def latency(label):
        m = re.search(rf"\s{label}\s+([\d.]+)(us|ms|s)\b", text)
        return float(m.group(1)) * units[m.group(2)]
    p50, p99 = latency("50%"), latency("99%")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors: ([^\t]+)", text)
    has_goal = route != "health"
    ok = (p99 < 10 or not has_goal) and not errors
    failed |= not ok
    verdict = ("met" if ok else "MISSED") if has_goal else ("(floor)" if ok else "ERRORS")
    print(f"{route:<34} {rate:>8.0f} {p50:>8.2f} {p99:>8.2f}  {verdict}"
          + (f"  ({errors.group(0)})" if errors else ""))
if failed and check == "--check":
    sys.exit(1)
PY
