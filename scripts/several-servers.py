#!/usr/bin/env python3
"""Several `momentum serve` processes on one PostgreSQL, behind nginx (issue 27, docs/deploy.md).

    python3 scripts/several-servers.py PATH/TO/momentum

Starts a private PostgreSQL cluster (scripts/postgres-cluster.sh), two servers on it with
`--database` (each with its own data directory; their `library/` is one shared folder, as
docs/deploy.md says), and Debian's nginx balancing the two round robin (installed when missing).
Then checks, as a person's devices would see it:

- /health of both servers and through nginx; a push through nginx's push upstream (hashed by credential);
- REST: a timer made through server A is listed by server B; twenty writes and reads through
  nginx (alternating servers) agree;
- sync: a batch pushed to A is pulled from B with the same sequence numbers; pushes to both at
  once get distinct, gap-free numbers;
- live: a WebSocket client of B receives a change pushed to A within 200 ms;
- runs: a run started through A is paused through B, resumed and stopped through A, and the
  practice is logged once;
- the library: a guided meditation uploaded through A streams through B;
- Morse: a training session started through A is answered through B and through nginx round
  robin, and finished through nginx, saved once; a QSO contact started through A goes on
  through B (no server keeps them in memory: no `hash` routing needed).

Prints every check and exits non-zero if any failed. Python 3 standard library only.
"""

import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synclib  # noqa: E402
import wslib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def check(name, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + name + (f"  ({detail})" if detail and not ok else ""))
    if not ok:
        failures.append(name)


def request(port, method, path, body=None, headers=None, raw=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = dict(headers or {})
    data = raw
    if body is not None:
        sent["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    connection.request(method, path, body=data, headers=sent)
    response = connection.getresponse()
    payload = response.read()
    connection.close()
    try:
        return response.status, json.loads(payload) if payload else None
    except ValueError:
        return response.status, payload


def wait_for_health(port, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if request(port, "GET", "/health")[0] == 200:
                return True
        except OSError:
            time.sleep(0.1)
    return False


class LiveClient:
    """A WebSocket client of /api/v1/live that keeps reading frames into a list, with arrival times."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        status, first = wslib.handshake(self.sock, "/api/v1/live", f"127.0.0.1:{port}")
        self.status, self.first = status, first
        self.frames = []
        self.lock = threading.Lock()
        self.buffer = b""
        if status == 101:
            threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        while True:
            try:
                text = self.next_frame()
            except (OSError, ConnectionError):
                return
            with self.lock:
                self.frames.append((time.monotonic(), text))

    def next_frame(self):
        def need(count):
            while len(self.buffer) < count:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise ConnectionError("closed")
                self.buffer += chunk

        need(2)
        length, offset = self.buffer[1] & 0x7F, 2
        if length == 126:
            need(4)
            length, offset = int.from_bytes(self.buffer[2:4], "big"), 4
        elif length == 127:
            need(10)
            length, offset = int.from_bytes(self.buffer[2:10], "big"), 10
        need(offset + length)
        text = self.buffer[offset:offset + length].decode("utf-8", "replace")
        self.buffer = self.buffer[offset + length:]
        return text

    def wait_for(self, predicate, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self.lock:
                for arrived, text in self.frames:
                    if predicate(text):
                        return arrived
            time.sleep(0.002)
        return None


def nginx_config(tmp, listen, backends):
    upstream = "\n".join(f"        server 127.0.0.1:{port};" for port in backends)
    return f"""daemon off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/logs/error.log warn;
events {{ worker_connections 256; }}

http {{
    access_log off;
    client_body_temp_path {tmp}/temp/body;
    proxy_temp_path {tmp}/temp/proxy;
    fastcgi_temp_path {tmp}/temp/fastcgi;
    uwsgi_temp_path {tmp}/temp/uwsgi;
    scgi_temp_path {tmp}/temp/scgi;

    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      '';
    }}

    # The servers of docs/deploy.md "Several servers": any of them answers any request.
    upstream momentum {{
{upstream}
        keepalive 32;
    }}

    # A device's pushes to one server (hashed by its credential): one group commit for them.
    upstream momentum_push {{
        hash "$http_authorization$cookie_momentum_session" consistent;
{upstream}
        keepalive 16;
    }}

    server {{
        listen 127.0.0.1:{listen};
        client_max_body_size 500m;

        location = /api/v1/sync/push {{
            proxy_pass http://momentum_push;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_next_upstream error timeout http_502 http_503;
        }}

        location / {{
            proxy_pass http://momentum;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_buffering off;
            proxy_request_buffering off;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
            # A server that is down (restarting) is skipped: the request goes to the other.
            proxy_next_upstream error timeout http_502 http_503;
        }}
    }}
}}
"""


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    momentum = os.path.realpath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="momentum-several-")
    os.chmod(tmp, 0o755)
    processes = []
    cluster = os.path.join(tmp, "cluster")
    os.makedirs(cluster)
    try:
        url = subprocess.check_output(["bash", os.path.join(HERE, "postgres-cluster.sh"), "start", cluster],
                                      text=True).strip()
        print(f"== PostgreSQL {url}")
        shared_library = os.path.join(tmp, "shared-library")
        os.makedirs(shared_library)
        ports = [synclib.free_port(), synclib.free_port()]
        env = dict(os.environ, MOMENTUM_DATABASE_URL=url, LANG="en_GB.UTF-8", MOMENTUM_LOG_LEVEL="warning")
        for index, port in enumerate(ports):
            data = os.path.join(tmp, f"server-{index}")
            os.makedirs(data)
            # Every server's library folder is the same shared one (docs/deploy.md).
            os.symlink(shared_library, os.path.join(data, "library"))
            log = open(os.path.join(tmp, f"server-{index}.log"), "w")
            processes.append(subprocess.Popen(
                [momentum, "serve", "--port", str(port), "--data", data], stdout=log, stderr=subprocess.STDOUT,
                env=env))
        a, b = ports
        print(f"== two servers on it: A :{a}, B :{b}")
        check("server A answers /health", wait_for_health(a))
        check("server B answers /health", wait_for_health(b))

        # REST
        status, timer = request(a, "POST", "/api/v1/timers", {"name": "Deep work", "items": ["Read"]})
        check("a timer made through A", status == 201 or status == 200, f"HTTP {status} {timer}")
        status, listed = request(b, "GET", "/api/v1/timers")
        names = [t["name"] for t in (listed or {}).get("timers", [])]
        check("is listed by B", status == 200 and names == ["Deep work"], f"HTTP {status} {names}")

        # Sync: seqs from the database.
        device = synclib.Device("Phone", "n-phone-" + uuid.uuid4().hex[:8])
        _, changes = device.new_timer("Pushed to A")
        status, answer = request(a, "POST", "/api/v1/sync/push", {"changes": changes})
        seqs = (answer or {}).get("seqs", [])
        check("a batch pushed to A", status == 200 and len(seqs) == 3, f"HTTP {status} {answer}")
        status, page = request(b, "GET", "/api/v1/sync/pull?after=0&limit=1000")
        pulled = {c["change"]["stamp"]: c["seq"] for c in (page or {}).get("changes", [])}
        same = status == 200 and all(pulled.get(c["stamp"]) == s for c, s in zip(changes, seqs))
        check("is pulled from B with the same sequence numbers", same, f"HTTP {status}")
        results = {}

        def push_many(port, name):
            phone = synclib.Device(name, "n-" + name + "-" + uuid.uuid4().hex[:6])
            got = []
            for _ in range(20):
                _, batch = phone.new_timer(name)
                status, answer = request(port, "POST", "/api/v1/sync/push", {"changes": batch})
                got += (answer or {}).get("seqs", []) if status == 200 else [None]
            results[name] = got

        threads = [threading.Thread(target=push_many, args=(port, f"p{port}")) for port in ports]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        every = [s for got in results.values() for s in got]
        status, page = request(a, "GET", "/api/v1/sync/pull?after=0&limit=1000")
        logged = [c["seq"] for c in (page or {}).get("changes", [])]
        check("pushes to both servers at once get distinct numbers",
              None not in every and len(set(every)) == len(every) == 120, f"{len(set(every))} distinct of {len(every)}")
        check("and the log has no gaps", logged == list(range(logged[0], logged[0] + len(logged))) if logged else False,
              f"{logged[:5]}…")

        # Live: a client of B hears a push to A.
        live = LiveClient(b)
        check("a WebSocket client of B connects", live.status == 101 and (live.first or "").startswith('{"head"'),
              f"{live.status} {live.first}")
        _, batch = device.new_timer("Heard on B")
        sent = time.monotonic()
        status, _ = request(a, "POST", "/api/v1/sync/push", {"changes": batch})
        arrived = live.wait_for(lambda text: "Heard on B" in text, 2.0)
        delay = (arrived - sent) * 1000 if arrived else None
        check("and hears a change pushed to A within 200 ms", delay is not None and delay < 200,
              f"{'never' if delay is None else f'{delay:.0f} ms'}")
        if delay is not None:
            print(f"      ({delay:.1f} ms from the push to A to the frame on B)")

        # Runs: started on A, paused on B — at instants the browser reports, minutes ago, so the
        # practice is long enough to be logged.
        def ago(seconds):
            return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - seconds))

        plan = {"pattern": "4-0-4-0", "rounds": 40}
        status, run = request(a, "POST", "/api/v1/runs", {"kind": "breathing", "plan": plan, "at": ago(300)})
        run_id = (run or {}).get("id", "none")
        check("a run started through A", status == 201, f"HTTP {status} {run}")
        status, paused = request(b, "POST", f"/api/v1/runs/{run_id}/pause", {"at": ago(200)})
        check("is paused through B", status == 200 and (paused or {}).get("status") == "paused", f"HTTP {status} {paused}")
        status, shown = request(a, "GET", f"/api/v1/runs/{run_id}")
        check("and A shows it paused", status == 200 and (shown or {}).get("status") == "paused", f"HTTP {status}")
        status, resumed = request(a, "POST", f"/api/v1/runs/{run_id}/resume", {"at": ago(150)})
        check("resumed through A", status == 200 and (resumed or {}).get("status") == "running",
              f"HTTP {status} {resumed}")
        status, stopped = request(b, "POST", f"/api/v1/runs/{run_id}/stop", {"keep": True})
        logged = bool(((stopped or {}).get("ending") or {}).get("logged"))
        check("stopped through B and logged", status == 200 and logged, f"HTTP {status} {stopped}")
        status, again = request(a, "POST", f"/api/v1/runs/{run_id}/stop", {"keep": True})
        check("a second stop through A is refused", status == 409, f"HTTP {status} {again}")
        status, log = request(a, "GET", "/api/v1/log?kind=breathing")
        records = (log or {}).get("records", []) if isinstance(log, dict) else []
        check("the practice is logged once", status == 200 and len(records) == 1, f"HTTP {status}: {len(records)}")

        # The library: uploaded through A, streamed through B.
        fixture = None
        for root in (os.environ.get("MOMENTUM_FIXTURES", ""), os.path.join(os.path.dirname(HERE), "..", "shared", "fixtures"),
                     "/tmp/shared/fixtures"):
            for name in ("audio/id3v23-latin1.mp3", "id3v23-latin1.mp3"):
                if root and os.path.exists(os.path.join(root, name)):
                    fixture = os.path.join(root, name)
                    break
            if fixture:
                break
        if fixture:
            with open(fixture, "rb") as handle:
                body = handle.read()
            status, uploaded = request(a, "POST", "/api/v1/library/upload?name=talk.mp3", raw=body,
                                       headers={"Content-Type": "audio/mpeg"})
            item = (uploaded or {}).get("item", {}) if isinstance(uploaded, dict) else {}
            check("a guided meditation uploaded through A", status in (200, 201) and "id" in item,
                  f"HTTP {status} {uploaded}")
            status, streamed = request(b, "GET", f"/api/v1/library/{item.get('id', 'none')}/audio")
            check("streams whole through B", status == 200 and streamed == body, f"HTTP {status}")
        else:
            check("the audio fixture is there (../shared/fixtures)", False, "not found")

        # nginx in front of both.
        nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
        if nginx is None:
            subprocess.run("apt-get update -qq && apt-get install -y -qq nginx >/dev/null", shell=True, check=True)
            nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        for sub in ("logs", "temp"):
            os.makedirs(os.path.join(tmp, sub))
        os.chmod(os.path.join(tmp, "temp"), 0o777)
        front = synclib.free_port()
        with open(os.path.join(tmp, "nginx.conf"), "w") as conf:
            conf.write(nginx_config(tmp, front, ports))
        processes.append(subprocess.Popen([nginx, "-p", tmp, "-c", os.path.join(tmp, "nginx.conf")],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT))
        check("nginx balances both (/health)", wait_for_health(front))
        agreed = True
        for round_ in range(10):
            status, _ = request(front, "POST", "/api/v1/timers", {"name": f"Through nginx {round_}"})
            status2, listed = request(front, "GET", "/api/v1/timers")
            names = [t["name"] for t in (listed or {}).get("timers", [])]
            agreed &= status in (200, 201) and status2 == 200 and f"Through nginx {round_}" in names
        check("ten writes through nginx are each read back at once, whichever server answers", agreed)
        # Pushes go by their own upstream (hashed by credential): answered, and pulled through either.
        device = synclib.Device("Tablet", "n-tablet-" + uuid.uuid4().hex[:8])
        _, changes = device.new_timer("Pushed through nginx")
        status, answer = request(front, "POST", "/api/v1/sync/push", {"changes": changes})
        seqs = (answer or {}).get("seqs", [])
        status2, page = request(b, "GET", f"/api/v1/sync/pull?after={min(seqs or [1]) - 1}&limit=10")
        pulled = [c["seq"] for c in (page or {}).get("changes", [])]
        check("a push through nginx is merged and pulled from B", status == 200 and status2 == 200
              and len(seqs) == 3 and pulled[:3] == seqs, f"HTTP {status} {answer} {pulled}")

        # Morse: a session started through A, answered through B and through nginx (round robin,
        # so both servers), finished through nginx: every server reads it from the database.
        status, session = request(a, "POST", "/api/v1/morse/sessions", {"direction": "send", "seed": 7})
        session_id = (session or {}).get("id", "none")
        check("a Morse session started through A", status == 201, f"HTTP {status} {session}")
        status, session = request(b, "POST", f"/api/v1/morse/sessions/{session_id}/start")
        check("its training started through B", status == 200 and (session or {}).get("phase") == "training",
              f"HTTP {status} {session}")
        answered = 0
        for port in [b, front, front, front, front]:
            text = ((session or {}).get("item") or {}).get("text", "")
            status, session = request(port, "POST", f"/api/v1/morse/sessions/{session_id}/answer", {"answer": text})
            answered += status == 200 and ((session or {}).get("lastAttempt") or {}).get("isCorrect") is True
        check("answered right five times through B and nginx", answered == 5, f"{answered} of 5: {session}")
        status, ending = request(front, "POST", f"/api/v1/morse/sessions/{session_id}/end")
        check("finished through nginx and saved", status == 200 and (ending or {}).get("saved") is True,
              f"HTTP {status} {ending}")
        status, again = request(a, "POST", f"/api/v1/morse/sessions/{session_id}/end")
        check("a second ending through A finds none", status == 404, f"HTTP {status} {again}")
        status, history = request(b, "GET", "/api/v1/morse/sessions")
        check("the course saved it once", status == 200 and len((history or {}).get("sessions", [])) == 1,
              f"HTTP {status} {history}")
        status, contact = request(a, "POST", "/api/v1/morse/qso", {"mode": "answer", "callSign": "DL1ABC", "seed": 11})
        contact_id = (contact or {}).get("id", "none")
        status, sent = request(b, "POST", f"/api/v1/morse/qso/{contact_id}/send", {"text": "DE DL1ABC K"})
        check("a QSO started through A takes a transmission through B",
              status == 200 and len((sent or {}).get("transcript", [])) == 3, f"HTTP {status} {sent}")
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        subprocess.run(["bash", os.path.join(HERE, "postgres-cluster.sh"), "stop", cluster],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if failures:
            for index in range(2):
                path = os.path.join(tmp, f"server-{index}.log")
                if os.path.exists(path):
                    print(f"--- server {'AB'[index]} log (last lines)")
                    print("".join(open(path).readlines()[-15:]))
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
