#!/usr/bin/env bash
# Smoke test of `momentum serve` as a person runs it: starts on a free loopback port with a fresh
# data directory, checks health, security headers, a logged run, JSON errors and streamed library
# uploads over real HTTP,
# then stops it with SIGTERM and expects a clean exit. On a network address with no way in yet it
# starts, prints where a phone reaches it and the owner's pairing code (which signs in), refuses
# every API request without one, and momentum doctor finds it answering.
set -euo pipefail
momentum=${1:?usage: smoke-serve.sh PATH/TO/momentum}
home=$(mktemp -d)
log="$home/serve.log"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
MOMENTUM_HOME="$home" MOMENTUM_PORT="$port" MOMENTUM_MAX_UPLOAD_MB=1 "$momentum" serve >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$home"' EXIT

python3 - "$port" <<'PY'
import json, sys, time, urllib.request, urllib.error
base = f"http://127.0.0.1:{sys.argv[1]}"
for _ in range(100):
    try:
        urllib.request.urlopen(base + "/health", timeout=1)
        break
    except Exception:
        time.sleep(0.1)
def call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()
status, headers, body = call("GET", "/health")
assert status == 200 and json.loads(body)["status"] == "ok", body
assert "frame-ancestors 'none'" in headers["Content-Security-Policy"], headers
import datetime
# A run is reported at instants near the server's now (within a day): start an hour ago.
begin = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0) - datetime.timedelta(hours=1)
stamp = lambda t: t.strftime("%Y-%m-%dT%H:%M:%SZ")
started = call("POST", "/api/v1/runs", {"kind": "meditation", "plan": {"durationMs": 60000, "countdownMs": 0}, "at": stamp(begin)})
assert started[0] == 201, started
run = json.loads(started[2])["id"]
stopped = call("POST", f"/api/v1/runs/{run}/stop", {"at": stamp(begin + datetime.timedelta(minutes=1))})
assert json.loads(stopped[2])["ending"]["logged"] is True, stopped
records = json.loads(call("GET", "/api/v1/log")[2])["records"]
assert len(records) == 1 and records[0]["countedSeconds"] == 60, records
status, _, body = call("POST", "/api/v1/log", {"kind": "meditation"})
assert status == 400 and json.loads(body)["error"]["code"] == "missing_field", body
status, _, body = call("GET", "/api/v1/log/..%2f..%2fetc%2fpasswd")
assert status == 400 and b"root:" not in body, body
status, _, body = call("GET", "/")
assert status == 200 and b"Momentum" in body, body
PY

# The reminders feed as a calendar app fetches it: a daily reminder set in the terminal while the
# server runs shows on the next fetch, in German, in the person's time zone.
MOMENTUM_HOME="$home" "$momentum" remind settings --add-daily "12:00 all focus" >/dev/null
MOMENTUM_HOME="$home" "$momentum" settings set progress.time-zone Europe/Berlin >/dev/null
curl -sf "http://127.0.0.1:$port/reminders.ics?lang=de" | python3 scripts/check-reminders-ics.py 6 Europe/Berlin

# Library uploads are streamed: a chunked body (no Content-Length) over the 1 MiB limit is
# stopped with 413, one that is not audio is refused with 422, and neither leaves a file.
head -c 2000000 /dev/zero >"$home/big.mp3"
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Transfer-Encoding: chunked' -H 'Content-Type: application/octet-stream' --data-binary @"$home/big.mp3" \
    "http://127.0.0.1:$port/api/v1/library/upload?name=big.mp3")
[ "$code" = 413 ] || { echo "an upload over the limit answered $code" >&2; exit 1; }
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Transfer-Encoding: chunked' -H 'Content-Type: application/octet-stream' --data-binary 'not audio' \
    "http://127.0.0.1:$port/api/v1/library/upload?name=notes.mp3")
[ "$code" = 422 ] || { echo "an upload that is not audio answered $code" >&2; exit 1; }
[ -z "$(ls -A "$home/library")" ] || { echo "a refused upload left files: $(ls -A "$home/library")" >&2; exit 1; }

kill -TERM "$pid"
wait "$pid"
grep -q "Open http://127.0.0.1:$port/" "$log"

# On a network address with no way in yet, it starts (pairing a phone needs it running), says how
# to let someone in, and answers every API request 401.
MOMENTUM_HOME="$home" "$momentum" serve --host 0.0.0.0 --port "$port" >"$home/open.txt" 2>&1 &
pid=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
grep -q "momentum pair --user" "$home/open.txt" || { echo "serve on 0.0.0.0 did not say how to pair" >&2; exit 1; }
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/v1/timers")
[ "$code" = 401 ] || { echo "off loopback without a credential /api/v1/timers answered $code" >&2; exit 1; }
# What it printed (issue 40): never 0.0.0.0; each network address a phone opens; with nothing
# paired, the owner's link, its QR code and the code — and that code signs a browser in.
python3 - "$home/open.txt" "$port" <<'PY'
import json, re, sys, urllib.request
text, port = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2]
assert "0.0.0.0" not in text, text
addresses = re.findall(r"^  (http://\S+)/$", text, re.M)
links = re.findall(r"^(http://\S+/pair\.html#([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}))$", text, re.M)
if addresses:  # the machine has a network address: a pairing code at the first one
    assert all(not a.startswith("http://127.") for a in addresses), addresses
    assert len(links) == 1 and links[0][0].startswith(addresses[0] + "/pair.html#"), (links, addresses)
    assert "█" in text and "No device is signed in yet" in text, text
    request = urllib.request.Request(f"http://127.0.0.1:{port}/pair", method="POST",
                                     data=json.dumps({"code": links[0][1]}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200 and "momentum_session" in response.headers.get("Set-Cookie", ""), response.headers
    print(f"ok    serve on 0.0.0.0 printed {len(addresses)} address(es) and a pairing code that signs in")
else:
    assert "network address" in text, text
    print("ok    serve on 0.0.0.0 on a machine without a network address says so")
PY
# momentum doctor finds this server answering on its port.
MOMENTUM_HOME="$home" MOMENTUM_PORT="$port" "$momentum" doctor >"$home/doctor.txt" || {
    cat "$home/doctor.txt" >&2; echo "doctor found a problem" >&2; exit 1; }
grep -q "answers, version" "$home/doctor.txt" || { cat "$home/doctor.txt" >&2; exit 1; }
kill -TERM "$pid"
wait "$pid"
echo "serve smoke: ok"
