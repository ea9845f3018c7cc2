#!/usr/bin/env bash
# Fuzzes `momentum serve` from its own OpenAPI document with Schemathesis (issue 21, "no input
# crashes the process"): every operation gets generated and boundary inputs (huge and negative
# numbers, odd strings, missing fields), and the check `not_a_server_error` fails on any 5xx.
# Afterwards the server must still be running and answer GET /health with 200.
#
# Usage: bash scripts/security-fuzz.sh PATH/TO/momentum [SECONDS]
#   SECONDS   time budget of the Schemathesis run (default 150; the whole script stays under ~3 min)
#   FUZZ_EXAMPLES=N      examples per operation (default 40)
#   FUZZ_RENDER=1        also fuzz /api/v1/render/{kind}.wav (off by default: a generated plan of
#                        many hours renders gigabytes into the temporary data directory)
#
# Loopback only, a fresh temporary MOMENTUM_HOME; the server is stopped and the directory removed
# at the end. Exits non-zero on any 5xx, a Schemathesis error, or a server that died or stopped
# answering. The failing requests are printed as Schemathesis reports them (with a curl line).
set -euo pipefail
momentum=${1:?usage: security-fuzz.sh PATH/TO/momentum [SECONDS]}
seconds=${2:-150}
examples=${FUZZ_EXAMPLES:-40}

echo "== schemathesis"
command -v schemathesis >/dev/null \
    || pip install --quiet schemathesis 2>/dev/null \
    || pip install --quiet --break-system-packages schemathesis
schemathesis --version

home=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
MOMENTUM_HOME="$home" "$momentum" serve --host 127.0.0.1 --port "$port" >"$home/serve.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$home"' EXIT
for _ in $(seq 100); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/health" && break
    sleep 0.2
done
curl -sf -o /dev/null "http://127.0.0.1:$port/health" || { echo "server did not start:" >&2; cat "$home/serve.log" >&2; exit 1; }

exclude=()
[ "${FUZZ_RENDER:-0}" = 1 ] || exclude=(--exclude-path-regex '^/api/v1/render/')

echo "== fuzzing http://127.0.0.1:$port/openapi.yaml for at most ${seconds} s, $examples examples per operation"
started=$(date +%s)
status=0
# The request timeout catches a handler that hangs; --max-failures keeps a broken build from
# spending the whole budget on one crash after another.
timeout --kill-after=10 $((seconds + 60)) schemathesis run "http://127.0.0.1:$port/openapi.yaml" \
    --checks not_a_server_error \
    --max-examples "$examples" \
    --max-time "$seconds" \
    --request-timeout 20 \
    --workers 2 \
    --max-failures 50 \
    --seed 21 \
    --no-color \
    --suppress-health-check all \
    --generation-database none \
    "${exclude[@]}" \
    >"$home/schemathesis.log" 2>&1 || status=$?
elapsed=$(($(date +%s) - started))

# The summary and every failure as Schemathesis prints them, without the progress lines.
grep -v -E '^\s*(✅|⏭|❌|🚫)?\s*(GET|POST|PUT|PATCH|DELETE) /.*\[' "$home/schemathesis.log" | tail -n 400 || true
echo
echo "schemathesis exit $status after ${elapsed} s"

failed=0
if [ "$status" -ne 0 ]; then
    echo "FAIL: schemathesis found problems (see above)" >&2
    failed=1
fi
server_errors=$(grep -c -E '^\s*\[5[0-9][0-9]\]|Server error' "$home/schemathesis.log" || true)
echo "lines naming a server error: $server_errors"
[ "$server_errors" -eq 0 ] || failed=1

if ! kill -0 "$pid" 2>/dev/null; then
    echo "FAIL: the server died during the fuzzing; its last output:" >&2
    tail -n 30 "$home/serve.log" >&2
    exit 1
fi
health=$(curl -s -o /dev/null -m 5 -w '%{http_code}' "http://127.0.0.1:$port/health" || true)
if [ "$health" != 200 ]; then
    echo "FAIL: /health answered '$health' after the fuzzing" >&2
    failed=1
fi
if grep -q -E 'Fatal error|Illegal instruction|Trace/breakpoint' "$home/serve.log"; then
    echo "FAIL: the server log shows a trap:" >&2
    grep -E -B2 -A5 'Fatal error' "$home/serve.log" | head -n 40 >&2
    failed=1
fi
[ "$failed" -eq 0 ] && echo "security fuzz: ok (server alive, /health 200, no 5xx)"
exit "$failed"
