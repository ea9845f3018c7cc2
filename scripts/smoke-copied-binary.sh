#!/usr/bin/env bash
# The binary copied alone serves its web app (issue 40): `momentum` is copied into an empty
# folder, started from another working directory with a new MOMENTUM_HOME and no
# MOMENTUM_PUBLIC_DIR, and must answer `/`, its scripts and styles and `/openapi.yaml` with the
# very bytes of the source tree (the web app is built into the executable).
set -euo pipefail
momentum=${1:?usage: smoke-copied-binary.sh PATH/TO/momentum}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
mkdir -p "$work/bin" "$work/home" "$work/elsewhere"
cp "$momentum" "$work/bin/momentum"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# `exec`: the background job is the server itself, so SIGTERM below reaches it (not a subshell).
(cd "$work/elsewhere" && exec env -u MOMENTUM_PUBLIC_DIR MOMENTUM_HOME="$work/home" MOMENTUM_PORT="$port" \
    "$work/bin/momentum" serve >"$work/serve.log" 2>&1) &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

python3 - "$port" "$here/Sources/MomentumServer" <<'PY'
import sys, time, urllib.request
base, source = f"http://127.0.0.1:{sys.argv[1]}", sys.argv[2]
for _ in range(100):
    try:
        urllib.request.urlopen(base + "/health", timeout=1)
        break
    except Exception:
        time.sleep(0.1)
checks = [
    ("/", "Public/index.html", "text/html"),
    ("/app.js", "Public/app.js", "javascript"),
    ("/app.css", "Public/app.css", "text/css"),
    ("/js/i18n.js", "Public/js/i18n.js", "javascript"),
    ("/openapi.yaml", "Resources/openapi.yaml", "yaml"),
]
for path, file, kind in checks:
    with urllib.request.urlopen(base + path, timeout=10) as response:
        body = response.read()
        assert response.status == 200, (path, response.status)
        assert kind in response.headers["Content-Type"], (path, response.headers["Content-Type"])
    with open(f"{source}/{file}", "rb") as f:
        assert body == f.read(), f"{path} is not the source's {file}"
    print(f"ok    {path} ({len(body)} bytes) from a binary copied alone")
PY
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
if [ "$status" -ne 0 ]; then
    echo "momentum serve exited $status after SIGTERM:" >&2
    cat "$work/serve.log" >&2
    exit 1
fi
echo "ok    a clean exit on SIGTERM"
