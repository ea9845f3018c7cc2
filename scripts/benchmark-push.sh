#!/usr/bin/env bash
# Web Push under load (issue 42): 1,000 subscriptions due in the same minute, delivered by a real
# `momentum serve` (release build) to a local push service, while /health is measured.
#
#   scripts/benchmark-push.sh
#
# The household has 20 people (the most there may be), each with a daily reminder at the same
# minute and 50 subscriptions — more than the 20 a person may make (`PushSubscription.maximumPerPerson`),
# written straight into each person's database so that one server has 1,000 to send. Each has a
# real P-256 key, so every push is encrypted and signed as in use. The push service (Python,
# answering 201) and wrk (on /health, 4 connections, from 10 s before the minute to 20 s after)
# run on core 1, the server on core 0.
#
# Reports: the time from the minute until the last push arrived (and the first, and the median),
# pushes received, the server's peak resident memory (VmHWM) and its resident memory before, and
# /health's p50/p99 meanwhile. Goals: all within 10 s, /health p99 < 50 ms.
# The minute is the next one at least 70 s away: a run takes about two minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
people=20
per_person=50
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
command -v taskset >/dev/null || { apt-get update -qq && apt-get install -y -qq util-linux >/dev/null; }
command -v curl >/dev/null || { apt-get update -qq && apt-get install -y -qq curl >/dev/null; }
python3 -c 'import cryptography' 2>/dev/null || python3 -m pip install --quiet cryptography 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages cryptography
swift build -c release --product momentum >/dev/null
momentum="$(swift build -c release --show-bin-path)/momentum"

if [ "$(nproc)" -ge 2 ]; then
    server_cpu=(taskset -c 0)
    load_cpu=(taskset -c 1)
else
    server_cpu=()
    load_cpu=()
    echo "note: one core: the server and the load share it (numbers not comparable)" >&2
fi

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
export MOMENTUM_HOME="$work/home"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The push service: counts pushes and keeps when each arrived.
push_port=$(free_port)
cat >"$work/push_service.py" <<'PY'
import sys, time, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
arrivals = open(sys.argv[2], "a", buffering=1)
lock = threading.Lock()
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with lock:
            arrivals.write(f"{time.time():.4f} {self.path}\n")
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
ThreadingHTTPServer.request_queue_size = 256
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
PY
: >"$work/arrivals"
"${load_cpu[@]}" python3 "$work/push_service.py" "$push_port" "$work/arrivals" &
pids+=($!)

# The minute: the next whole one at least 70 s away, in the server's (this machine's) zone.
# Quiet hours (22:00–08:00 by default) are moved well away from it: two to three hours later.
read -r due hhmm quiet < <(python3 -c '
import datetime
at = datetime.datetime.now().astimezone() + datetime.timedelta(seconds=70)
at = (at + datetime.timedelta(minutes=1)).replace(second=0, microsecond=0)
quiet = lambda hours: (at + datetime.timedelta(hours=hours)).strftime("%H:%M")
print(int(at.timestamp()), at.strftime("%H:%M"), quiet(2) + "-" + quiet(3))')

# The people and their reminders (before the server starts: the terminal writes them).
"$momentum" remind settings --quiet "$quiet" --add-daily "$hhmm daily mindfulness bench" >/dev/null
for index in $(seq 2 "$people"); do
    "$momentum" user add "Person$index" >/dev/null
    "$momentum" remind settings --user "Person$index" --quiet "$quiet" --add-daily "$hhmm daily mindfulness bench" \
        >/dev/null
done

# 50 subscriptions per person, each with its own key, straight into each database.
python3 - "$MOMENTUM_HOME" "$per_person" "http://127.0.0.1:$push_port" <<'PY'
import base64, glob, os, sqlite3, sys, time, uuid
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
home, per_person, origin = sys.argv[1], int(sys.argv[2]), sys.argv[3]
b64 = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()
databases = [os.path.join(home, "momentum.sqlite")] + sorted(glob.glob(os.path.join(home, "people", "*", "momentum.sqlite")))
now = int(time.time() * 1000)
for number, path in enumerate(databases):
    db = sqlite3.connect(path)
    for index in range(per_person):
        key = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        db.execute("INSERT INTO pushSubscription (id, endpoint, p256dh, auth, deviceName, createdAtMs) VALUES (?, ?, ?, ?, ?, ?)",
                   (str(uuid.uuid4()), f"{origin}/push/{number}/{index}", b64(key), b64(os.urandom(16)), f"Device {index}", now))
    db.commit()
    db.close()
print(f"{len(databases)} people, {len(databases) * per_person} subscriptions", file=sys.stderr)
PY

port=$(free_port)
MOMENTUM_LOG_LEVEL=warning MOMENTUM_PUSH_ALLOW="http://127.0.0.1:$push_port" \
    "${server_cpu[@]}" "$momentum" serve --port "$port" >"$work/serve.log" 2>&1 &
server=$!
pids+=($server)
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
rss_before=$(awk '/VmRSS/ {print $2}' "/proc/$server/status")

# /health from 10 s before the minute to 20 s after.
python3 -c "import time; time.sleep(max(0, $due - 10 - time.time()))"
"${load_cpu[@]}" wrk -t1 -c4 -d30s --latency "http://127.0.0.1:$port/health" >"$work/wrk.txt" 2>&1
peak=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")

python3 - "$work/arrivals" "$due" "$((people * per_person))" "$rss_before" "$peak" "$work/wrk.txt" <<'PY'
import re, statistics, sys
path, due, expected, before, peak, wrk = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
times = sorted(float(line.split()[0]) for line in open(path) if line.strip())
text = open(wrk).read()
def latency(percent):
    match = re.search(rf"^\s*{percent}%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
    if not match: return "?"
    value, unit = float(match.group(1)), match.group(2)
    return f"{value / 1000 if unit == 'us' else value * 1000 if unit == 's' else value:.1f}"
print(f"pushes received: {len(times)} of {expected}")
if times:
    print(f"after the minute: first {times[0] - due:.2f} s, median {statistics.median(times) - due:.2f} s, "
          f"last {times[-1] - due:.2f} s (goal: all within 10 s)")
print(f"server memory: {before / 1024:.1f} MiB resident before, peak {peak / 1024:.1f} MiB (VmHWM)")
print(f"/health meanwhile: p50 {latency(50)} ms, p99 {latency(99)} ms (goal: p99 < 50 ms)")
errors = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors: .*", text)
if errors: print(errors.group(0))
PY
