#!/usr/bin/env python3
"""The attacks of issue 21 against a real `momentum serve`, as a careful attacker would try them.

Usage: python3 scripts/security-matrix.py PATH/TO/momentum

(The web app's static files are built into the binary, so it runs from anywhere.)

Starts its own servers (free loopback ports, temporary MOMENTUM_HOME each, all stopped at the end):

* Off loopback (bound to 0.0.0.0, reached over 127.0.0.1 with an IP-literal Host): every route ×
  method of the server's own /openapi.yaml × path spelling (`//`, `/api//v1`, `/./`, `x/..`, `%2F`,
  `%2e`, a trailing slash, …) × credential (none, wrong bearer, wrong cookie, revoked bearer, revoked
  cookie, feed-scoped bearer, valid bearer, valid cookie). Without valid credentials nothing may
  reach a handler (401 on the route as written, else 400 `bad_path`/401/404) and the data, read back
  with a valid token, must be unchanged; with them nothing may be refused as unauthorized or answer
  5xx. Then the feed scope, logout, the session cookie's attributes, the open routes and a WebSocket
  upgrade per spelling and credential.
* On loopback (127.0.0.1): a foreign `Origin` on every state-changing route (403 `cross_origin`,
  data unchanged), the own origin and no origin accepted; non-JSON bodies (415); a rebinding `Host`
  on every route and static file (421 `host_not_allowed`), the accepted Host spellings,
  `--allowed-host`; the WebSocket's Origin check; a client that never finishes its headers (cut off
  within ~30 s) and an idle keep-alive connection (closed within ~60 s), measured.
* The token rule by address (`--host 127.5.5.5.example` is no loopback), and that no secret passed as
  `?token=` (or in a header) reaches the server's output at `MOMENTUM_LOG_LEVEL=debug`.
* The issue's other reproductions (huge and non-finite numbers, instants before 1970 or centuries
  ahead, NUL in names, a bad chunk size) answer 4xx, and the server still answers afterwards.

Prints the counts per expectation and every violation (method, path, credential, status) and exits 1
if there is any. Needs Python 3 and PyYAML (installed with pip if missing). Takes about 1–2 minutes.
"""

import base64
import collections
import datetime
import http.client
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import wave

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wslib  # noqa: E402  (beside this script)

try:
    import yaml
except ImportError:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "pyyaml"], check=False)
    try:
        import yaml
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--break-system-packages", "pyyaml"],
                       check=True)
        import yaml

EVIL_ORIGIN = "http://evil.example"
REBIND_HOST = "rebind.evil.example"
COOKIE = "momentum_session"
STATE_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
STATIC_FILES = ["/", "/index.html", "/login.html", "/app.js", "/app.css", "/sw.js", "/manifest.webmanifest",
                "/icon.svg"]
HEADER_TIMEOUT_LIMIT = 35    # the server promises 30 s; a little slack for a loaded machine
IDLE_TIMEOUT_LIMIT = 70      # the server promises 60 s


# ---------------------------------------------------------------------------------------------
# Reporting


class Report:
    """Counts per expectation and every violation, printed at the end."""

    def __init__(self):
        self.counts = collections.OrderedDict()
        self.violations = []
        self.notes = []
        self.lock = threading.Lock()

    def check(self, expectation, ok, detail=""):
        with self.lock:
            passed, failed = self.counts.get(expectation, (0, 0))
            self.counts[expectation] = (passed + (1 if ok else 0), failed + (0 if ok else 1))
            if not ok:
                self.violations.append((expectation, detail))
        return ok

    def note(self, text):
        print("  " + text, flush=True)
        self.notes.append(text)

    def print_summary(self):
        print("\n== summary (passed/total per expectation)")
        width = max((len(name) for name in self.counts), default=10)
        for name, (passed, failed) in self.counts.items():
            mark = "ok  " if failed == 0 else "FAIL"
            print(f"  {mark} {name.ljust(width)}  {passed}/{passed + failed}")
        if self.violations:
            print(f"\n== {len(self.violations)} violations")
            for expectation, detail in self.violations:
                print(f"  [{expectation}] {detail}")
        else:
            print("\n== no violations")


REPORT = Report()


# ---------------------------------------------------------------------------------------------
# HTTP with the path sent exactly as written


class Answer:
    def __init__(self, status, headers=None, body=b"", error=None):
        self.status = status            # 0: no answer (connection closed, reset or timed out)
        self.headers = headers or {}
        self.body = body
        self.error = error

    def code(self):
        """The JSON error code, if the body is a Momentum error."""
        try:
            return json.loads(self.body)["error"]["code"]
        except Exception:
            return None

    def json(self):
        try:
            return json.loads(self.body)
        except Exception:
            return None

    def describe(self):
        if self.status == 0:
            return f"no answer ({self.error})"
        code = self.code()
        return f"{self.status}" + (f" {code}" if code else "")


class Client:
    """One keep-alive connection to address:port; reconnects when the server closes it."""

    def __init__(self, port, host=None, timeout=15, address="127.0.0.1"):
        self.port = port
        self.address = address
        self.host = host or f"{address}:{port}"
        self.timeout = timeout
        self.connection = None

    def request(self, method, path, headers=None, body=None, host=None):
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.address, self.port, timeout=self.timeout)
            try:
                self.connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
                self.connection.putheader("Host", host or self.host)
                for name, value in (headers or {}).items():
                    self.connection.putheader(name, value)
                if body is not None:
                    self.connection.putheader("Content-Length", str(len(body)))
                self.connection.endheaders(body)
                response = self.connection.getresponse()
                data = response.read()
                answer = Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
                if response.will_close:
                    self.close()
                return answer
            except (OSError, http.client.HTTPException) as error:
                self.close()
                if attempt == 1 or isinstance(error, socket.timeout):
                    return Answer(0, error=type(error).__name__)
        return Answer(0, error="unreachable")

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def json_body(value):
    return json.dumps(value).encode()


def websocket_upgrade(port, path, host, extra_headers=(), timeout=5):
    """A raw WebSocket handshake; answers (status, first text frame or None)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            return wslib.handshake(sock, path, host, extra_headers)
    except OSError as error:
        return 0, type(error).__name__


# ---------------------------------------------------------------------------------------------
# Servers


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class MomentumServer:
    """`momentum serve` on a free port with its own data directory; output kept in files."""

    def __init__(self, binary, name, host="127.0.0.1", extra_args=(), env=None, home=None):
        self.binary = binary
        self.name = name
        self.host = host
        self.port = free_port()
        self.home = home or tempfile.mkdtemp(prefix=f"momentum-{name}-")
        self.extra_args = list(extra_args)
        self.env = dict(os.environ, MOMENTUM_HOME=self.home, **(env or {}))
        self.env.pop("MOMENTUM_HOST", None)
        self.env.pop("MOMENTUM_PORT", None)
        self.process = None

    def cli(self, *args):
        return subprocess.run([self.binary, *args], env=self.env, capture_output=True, text=True, timeout=60)

    def create_token(self, name, scope=None):
        """(id, secret) of a new token, or None if the CLI refused (e.g. an unknown --scope)."""
        args = ["token", "create", "--name", name] + (["--scope", scope] if scope else [])
        result = self.cli(*args)
        lines = result.stdout.strip().splitlines()
        if result.returncode != 0 or len(lines) < 2:
            REPORT.note(f"`momentum {' '.join(args)}` failed: {(result.stderr or result.stdout).strip()[:200]}")
            return None
        match = re.search(r"(\S+) \(" + re.escape(name) + r"\)", lines[0])
        return (match.group(1) if match else None), lines[1].strip()

    def start(self):
        self.stdout = open(os.path.join(self.home, "serve.stdout"), "w")
        self.stderr = open(os.path.join(self.home, "serve.stderr"), "w")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--host", self.host, "--port", str(self.port), *self.extra_args],
            env=self.env, stdout=self.stdout, stderr=self.stderr, stdin=subprocess.DEVNULL)
        client = Client(self.port, timeout=2, address=self.address)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server {self.name} exited with {self.process.returncode}: {self.output()[-2000:]}")
            if client.request("GET", "/health").status == 200:
                client.close()
                return self
            time.sleep(0.2)
        raise RuntimeError(f"server {self.name} did not answer /health within 60 s")

    @property
    def address(self):
        """Where to connect: the bind address, or 127.0.0.1 for a wildcard bind."""
        return "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (getattr(self, "stdout", None), getattr(self, "stderr", None)):
            if stream:
                stream.close()

    def output(self, which=("stdout", "stderr")):
        text = ""
        for name in which:
            path = os.path.join(self.home, f"serve.{name}")
            if os.path.exists(path):
                with open(path, errors="replace") as file:
                    text += file.read()
        return text

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.home, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# The routes of /openapi.yaml, their parameters and bodies


def iso(instant):
    return instant.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def tiny_wav(seconds=1.0, rate=8000):
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(rate)
        file.writeframes(os.urandom(int(seconds * rate)) * 2)
    return buffer.getvalue()


def sync_stamp():
    return "%013d-00000-n-a77ac0" % int(time.time() * 1000)


def write_bodies():
    """Bodies that would change data if they reached a handler, per (method, route)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    return {
        ("POST", "/login"): {"token": "not-a-token"},
        ("PUT", "/api/v1/settings"): {"sound": False, "language": "de"},
        ("PATCH", "/api/v1/settings"): {"language": "de"},
        ("POST", "/api/v1/meditation/timeline"): {"durationMs": 600000, "countdownMs": 0},
        ("POST", "/api/v1/breathing/timeline"): {"pattern": "4-7-8-0", "rounds": 3},
        ("POST", "/api/v1/workouts/timeline"): {"workMs": 20000, "restMs": 10000, "rounds": 3},
        ("POST", "/api/v1/runs"): {"kind": "meditation", "plan": {"durationMs": 600000, "countdownMs": 0}},
        ("POST", "/api/v1/runs/{id}/pause"): {},
        ("POST", "/api/v1/runs/{id}/resume"): {},
        ("POST", "/api/v1/runs/{id}/stop"): {"keep": False},
        ("POST", "/api/v1/together"): {"kind": "meditation", "plan": {"durationMs": 600000, "countdownMs": 0}},
        ("POST", "/api/v1/together/clock"): {"samples": [{"sentAt": 1000, "serverAt": 5000, "receivedAt": 1020}]},
        ("POST", "/api/v1/together/{code}/join"): {},
        ("POST", "/api/v1/together/{code}/leave"): {},
        ("POST", "/api/v1/together/{code}/pause"): {},
        ("POST", "/api/v1/together/{code}/resume"): {},
        ("POST", "/api/v1/together/{code}/stop"): {},
        ("PUT", "/api/v1/morse/settings"): {"characterWPM": 25, "effectiveWPM": 15, "toneHertz": 700,
                                            "riseMilliseconds": 5, "order": "standard", "sessionSeconds": 300},
        ("PATCH", "/api/v1/morse/settings"): {"characterWPM": 25},
        ("POST", "/api/v1/morse/decode"): {"signals": [{"down": 60}, {"up": 60}, {"down": 180}]},
        ("POST", "/api/v1/morse/hands-free/items"): {"content": "callSigns", "count": 3},
        ("POST", "/api/v1/morse/hands-free/listened"): {"id": "6f1c2a3e-5b7d-4c9e-8a1f-2d3c4b5a6e7f",
                                                       "plan": {"content": "words"}, "listenedMs": 600000,
                                                       "finished": True},
        ("POST", "/api/v1/morse/sessions"): {"direction": "receive"},
        ("POST", "/api/v1/morse/sessions/{id}/start"): {},
        ("POST", "/api/v1/morse/sessions/{id}/answer"): {"answer": "k"},
        ("POST", "/api/v1/morse/sessions/{id}/pause"): {},
        ("POST", "/api/v1/morse/sessions/{id}/resume"): {},
        ("POST", "/api/v1/morse/sessions/{id}/end"): {},
        ("PUT", "/api/v1/morse/call-sign"): {"callSign": "DL9XYZ"},
        ("POST", "/api/v1/morse/qso"): {"callSign": "DL9XYZ"},
        ("POST", "/api/v1/morse/qso/{id}/send"): {"text": "CQ CQ DE DL9XYZ K"},
        ("POST", "/api/v1/log"): {"kind": "meditation", "start": iso(now - datetime.timedelta(hours=3)),
                                  "durationMs": 600000},
        ("PATCH", "/api/v1/log/{id}"): {"durationMs": 1200000},
        ("POST", "/api/v1/breathing/presets"): {"name": "Attack", "pattern": "4-4-4-4", "rounds": 3},
        ("PUT", "/api/v1/breathing/presets/{id}"): {"name": "Attacked"},
        ("POST", "/api/v1/workouts/programs"): {"name": "Attack",
                                                "plan": {"workMs": 20000, "restMs": 10000, "rounds": 3}},
        ("PUT", "/api/v1/workouts/programs/{id}"): {"plan": {"workMs": 30000, "restMs": 10000, "rounds": 2}},
        ("POST", "/api/v1/timers"): {"name": "Attack", "durationMs": 60000},
        ("PATCH", "/api/v1/timers/{id}"): {"name": "Attacked"},
        ("POST", "/api/v1/timers/{id}/move"): {"position": 2},
        ("POST", "/api/v1/timers/{id}/items"): {"text": "attack"},
        ("PATCH", "/api/v1/timers/{id}/items/{item}"): {"done": True},
        ("POST", "/api/v1/timers/{id}/items/{item}/move"): {"position": 1},
        ("POST", "/api/v1/sync/push"): {"changes": [
            {"type": "focusTimer", "id": str(uuid.uuid4()), "op": "set", "field": "name", "value": "Attack",
             "stamp": sync_stamp(), "device": "attacker@evil"}]},
        ("PATCH", "/api/v1/library/{id}"): {"name": "Attacked"},
        ("PUT", "/api/v1/library/{id}/position"): {"positionMs": 500},
        ("POST", "/api/v1/library/{id}/listened"): {"listenedMs": 600000, "finished": True},
    }


class Route:
    def __init__(self, method, template, operation):
        self.method = method
        self.template = template
        self.operation = operation

    def __repr__(self):
        return f"{self.method} {self.template}"

    @property
    def is_write(self):
        return self.method in STATE_CHANGING

    @property
    def is_upload(self):
        return self.template == "/api/v1/library/upload"

    @property
    def is_protected(self):
        if self.template in ("/metrics", "/reminders.ics"):
            return True
        # The catalog is open; the profile picker answers only on the server's own screen (404
        # off loopback, whatever is sent) and has its own tests, like POST /pair.
        return self.template.startswith("/api/v1/") and self.template not in (
            "/api/v1/catalog", "/api/v1/profiles", "/api/v1/profiles/choose")

    @property
    def has_body(self):
        return "requestBody" in self.operation or (self.method, self.template) in write_bodies()


def load_routes(client):
    answer = client.request("GET", "/openapi.yaml")
    if answer.status != 200:
        raise RuntimeError(f"/openapi.yaml answered {answer.describe()}")
    spec = yaml.safe_load(answer.body)
    routes = []
    for template, item in spec["paths"].items():
        for method in ("get", "post", "put", "patch", "delete"):
            if method in item:
                routes.append(Route(method.upper(), template, item[method]))
    return routes


class Fixtures:
    """Real ids of things a bypassed request could change, and how to read the data back."""

    def __init__(self):
        self.ids = {}
        self.wav = tiny_wav(1.0)

    def fill(self, template):
        """The route with its parameters filled, plus a query where the route needs one."""
        prefixes = [("/api/v1/timers/", "timer"), ("/api/v1/log/", "record"), ("/api/v1/breathing/presets/", "preset"),
                    ("/api/v1/workouts/programs/", "program"), ("/api/v1/runs/", "run"),
                    ("/api/v1/morse/sessions/", "session"), ("/api/v1/morse/qso/", "qso"),
                    ("/api/v1/library/", "library"), ("/api/v1/sounds/ambient/", "ambient")]
        owner = next((key for prefix, key in prefixes if template.startswith(prefix)), None)

        def value(match):
            name = match.group(1)
            if name == "id":
                return self.ids.get(owner) or ("rain" if owner == "ambient" else str(uuid.uuid4()))
            if name == "item":
                return self.ids.get("item") or str(uuid.uuid4())
            if name == "kind":
                return "meditation"
            if name == "cue":
                return "startGong"
            if name == "code":
                return self.ids.get("together") or "ABCDEF"
            return "1"

        path = re.sub(r"\{(\w+)\}", value, template)
        query = {
            "/api/v1/render/{kind}.wav": "plan=%7B%22durationMs%22%3A60000%2C%22countdownMs%22%3A0%7D&rate=8000",
            "/api/v1/library/upload": "name=attack.wav",
            "/api/v1/sync/last-change": f"type=focusTimer&id={self.ids.get('timer', uuid.uuid4())}&field=name",
            "/api/v1/sync/pull": "after=0&limit=10",
        }.get(template)
        return path, query

    def request_for(self, route):
        """(path, query, headers, body) a legitimate client would send."""
        path, query = self.fill(route.template)
        headers, body = {}, None
        if route.is_upload:
            headers["Content-Type"] = "audio/wav"
            body = tiny_wav(1.5)          # other bytes than the seeded item: an import would show
        elif route.method in ("POST", "PUT", "PATCH"):
            value = write_bodies().get((route.method, route.template), {})
            headers["Content-Type"] = "application/json"
            body = json_body(value)
        return path, query, headers, body

    def seed(self, client, headers):
        """Things to change; run with a valid credential (or on loopback)."""
        def post(path, value, **extra):
            answer = client.request("POST", path, dict(headers, **{"Content-Type": "application/json"}),
                                    json_body(value), **extra)
            return answer.json() if answer.status in (200, 201) else None

        now = datetime.datetime.now(datetime.timezone.utc)
        timer = post("/api/v1/timers", {"name": "Seed", "durationMs": 600000, "items": ["first", "second"]})
        self.remember("timer", timer)
        self.ids["item"] = find_item_id(timer)
        self.remember("record", post("/api/v1/log", {"kind": "meditation", "durationMs": 600000,
                                                     "start": iso(now - datetime.timedelta(hours=2))}))
        self.remember("preset", post("/api/v1/breathing/presets", {"name": "Seed", "pattern": "4-4-4-4", "rounds": 3}))
        self.remember("program", post("/api/v1/workouts/programs",
                                      {"name": "Seed", "plan": {"workMs": 20000, "restMs": 10000, "rounds": 3}}))
        self.remember("run", post("/api/v1/runs", {"kind": "meditation", "plan": {"durationMs": 600000,
                                                                                  "countdownMs": 0}}))
        self.remember("session", post("/api/v1/morse/sessions", {"direction": "receive"}))
        together = post("/api/v1/together", {"kind": "meditation", "plan": {"durationMs": 7200000, "countdownMs": 0}})
        if isinstance(together, dict) and together.get("code"):
            self.ids["together"] = together["code"]
        client.request("PUT", "/api/v1/morse/call-sign", dict(headers, **{"Content-Type": "application/json"}),
                       json_body({"callSign": "DL1ABC"}))
        self.remember("qso", post("/api/v1/morse/qso", {}))
        upload = client.request("POST", "/api/v1/library/upload?name=seed.wav",
                                dict(headers, **{"Content-Type": "audio/wav"}), self.wav)
        self.remember("library", upload.json() if upload.status in (200, 201) else None)
        missing = [key for key in ("timer", "item", "record", "preset", "program", "run", "session", "qso", "library")
                   if not self.ids.get(key)]
        if missing:
            REPORT.note(f"could not seed {', '.join(missing)} (random ids used there instead)")

    def remember(self, key, answer):
        if isinstance(answer, dict):
            found = answer.get("id") or next((value.get("id") for value in answer.values()
                                              if isinstance(value, dict) and value.get("id")), None)
            if found:
                self.ids[key] = found

    def snapshot(self, client, headers):
        """What a bypassed write would change, read with a valid credential."""
        paths = ["/api/v1/timers", "/api/v1/log", "/api/v1/settings", "/api/v1/breathing/presets",
                 "/api/v1/workouts/programs", "/api/v1/morse/settings", "/api/v1/morse/call-sign",
                 "/api/v1/morse/sessions", "/api/v1/library"]
        state = {}
        for path in paths:
            answer = client.request("GET", path, headers)
            state[path] = (answer.status, answer.json())
        pulled = client.request("GET", "/api/v1/sync/pull?after=0&limit=1000", headers).json() or {}
        state["sync log"] = [entry.get("change") for entry in pulled.get("changes", [])]
        runs = client.request("GET", "/api/v1/runs", headers).json() or {}
        together = client.request("GET", "/api/v1/together", headers).json() or {}
        state["together"] = sorted((session.get("code"), session.get("status") == "paused",
                                    tuple(session.get("sitting", []))) for session in together.get("sessions", []))
        state["runs"] = sorted((run.get("id"), run.get("status")) for run in runs.get("runs", []))
        for key, path in (("session", "/api/v1/morse/sessions/"), ("qso", "/api/v1/morse/qso/")):
            if self.ids.get(key):
                answer = client.request("GET", path + self.ids[key], headers)
                body = answer.json() or {}
                state[key] = (answer.status, body.get("phase"), body.get("attempts"), len(body.get("transcript", [])))
        return state


def find_item_id(timer):
    if not isinstance(timer, dict):
        return None
    for value in [timer, *[v for v in timer.values() if isinstance(v, dict)]]:
        items = value.get("items") or value.get("checklist")
        if isinstance(items, list) and items and isinstance(items[0], dict):
            return items[0].get("id")
    return None


def compare_snapshots(expectation, before, after):
    for key in before:
        if before[key] != after.get(key):
            REPORT.check(expectation, False, f"{key} changed: {str(before[key])[:160]} -> {str(after.get(key))[:160]}")
            return
    REPORT.check(expectation, True)


# ---------------------------------------------------------------------------------------------
# Path spellings


def spellings(path):
    """(name, path) pairs: the route as written and the ways a router might read it the same."""
    segments = path.strip("/").split("/")
    first, rest = segments[0], "/".join(segments[1:])
    joined = (lambda a, b: f"/{a}/{b}" if b else f"/{a}")
    result = [("as written", path), ("leading //", "/" + path)]
    if rest:
        second, tail = segments[1], "/".join(segments[2:])
        result += [
            ("inner //", f"/{first}//{rest}"),
            ("/./", f"/{first}/./{rest}"),
            ("x/../", f"/{first}/{second}/x/../{tail}" if tail else f"/{first}/x/../{second}"),
            ("%2F slash", f"/{first}%2F{rest}"),
            ("%2f slash", f"/{first}%2f{rest}"),
            ("%2e segment", f"/{first}/%2e/{rest}"),
            ("%2e%2e segment", f"/{first}/x/%2e%2e/{rest}"),
        ]
    else:
        result += [("/./", f"/./{first}"), ("x/../", f"/x/../{first}"), ("%2e segment", f"/%2e/{first}"),
                   ("%2e%2e segment", f"/x/%2e%2e/{first}")]
    result += [
        ("%2F leading", f"/%2F{path.lstrip('/')}"),
        ("trailing /", path + "/"),
        ("upper case", joined(first.upper(), rest)),
        ("%-encoded letter", "/%" + format(ord(first[0]), "02x") + path[2:]),
    ]
    return result


def with_query(path, query):
    return f"{path}?{query}" if query else path


# ---------------------------------------------------------------------------------------------
# Off loopback: route × spelling × credential


def off_loopback_checks(binary):
    print("== off loopback: server on 0.0.0.0, tokens required", flush=True)
    server = MomentumServer(binary, "wildcard", host="0.0.0.0", env={"MOMENTUM_LOG_LEVEL": "debug"})
    full = server.create_token("matrix")
    doomed = server.create_token("doomed")
    feed = server.create_token("calendar", scope="feed")
    if not full or not doomed:
        raise RuntimeError("`momentum token create` failed; nothing to test off loopback")
    REPORT.check("token create --scope feed works", feed is not None, "momentum token create --scope feed refused")
    server.start()
    try:
        return run_off_loopback(server, full, doomed, feed)
    finally:
        server.stop()
        log_checks(server, [secret for secret in (full[1], doomed[1], feed and feed[1]) if secret])
        server.cleanup()


def login(client, secret, headers=None):
    answer = client.request("POST", "/login", dict(headers or {}, **{"Content-Type": "application/json"}),
                            json_body({"token": secret}))
    match = re.search(COOKIE + r"=([^;]*)", answer.headers.get("set-cookie", ""))
    return answer, (match.group(1) if match else None)


def run_off_loopback(server, full, doomed, feed):
    port = server.port
    client = Client(port)
    routes = load_routes(client)
    protected = [route for route in routes if route.is_protected]
    print(f"  {len(routes)} operations in /openapi.yaml, {len(protected)} protected", flush=True)
    REPORT.check("openapi lists the protected routes", len(protected) > 40, f"only {len(protected)} protected")

    bearer = {"Authorization": f"Bearer {full[1]}"}
    answer, cookie = login(client, full[1])
    REPORT.check("POST /login with a full token → 204 + cookie", answer.status == 204 and bool(cookie),
                 f"POST /login → {answer.describe()}, cookie {cookie!r}")
    session_cookie_checks(answer, cookie, full[1])
    _, doomed_cookie = login(client, doomed[1])
    revoked = server.cli("token", "revoke", doomed[0])
    REPORT.check("token revoke works", revoked.returncode == 0, revoked.stderr.strip())

    fixtures = Fixtures()
    fixtures.seed(client, bearer)
    before = fixtures.snapshot(client, bearer)

    refused = [("none", {}),
               ("wrong bearer", {"Authorization": "Bearer " + uuid.uuid4().hex}),
               ("wrong cookie", {"Cookie": f"{COOKIE}={uuid.uuid4().hex}"}),
               ("revoked bearer", {"Authorization": f"Bearer {doomed[1]}"}),
               ("revoked cookie", {"Cookie": f"{COOKIE}={doomed_cookie}"} if doomed_cookie else None),
               ("valid token, Basic scheme", {"Authorization": "Basic " + base64.b64encode(
                   f"momentum:{full[1]}".encode()).decode()}),
               ("feed bearer", {"Authorization": f"Bearer {feed[1]}"} if feed else None)]
    refused = [(name, headers) for name, headers in refused if headers is not None]
    allowed = [("valid bearer", bearer), ("valid bearer, lower-case scheme", {"Authorization": f"bearer {full[1]}"})]
    allowed += [("valid cookie", {"Cookie": f"{COOKIE}={cookie}"})] if cookie else []

    started = time.monotonic()
    count = 0
    for route in protected:
        path, query, base_headers, body = fixtures.request_for(route)
        for spelling, spelled in spellings(path):
            target = with_query(spelled, query)
            for credential, headers in refused:
                is_feed = credential == "feed bearer"
                if is_feed and route.template == "/reminders.ics":
                    continue
                answer = client.request(route.method, target, dict(base_headers, **headers), body)
                count += 1
                detail = f"{route.method} {target} [{credential}] → {answer.describe()}"
                if spelling == "as written":
                    expected = 403 if is_feed else 401
                    REPORT.check(f"{'feed token' if is_feed else 'no/wrong/revoked credential'} on a protected "
                                 f"route → {expected}", answer.status == expected, detail)
                else:
                    # 415 comes from the request guard, before routing: the upload's own types are
                    # recognized on its path as written only.
                    ok = answer.status in (401, 403, 404) or (answer.status == 400 and answer.code() == "bad_path") \
                        or (answer.status == 415 and answer.code() == "unsupported_media_type")
                    REPORT.check("other spelling without valid credential → 400 bad_path/401/404 (415)", ok, detail)
        if route.method == "GET":
            answer = client.request("HEAD", with_query(path, query), base_headers)
            REPORT.check("HEAD without credential → 401/404/405", answer.status in (401, 404, 405),
                         f"HEAD {with_query(path, query)} [none] → {answer.describe()}")
    print(f"  {count} refused-credential requests in {time.monotonic() - started:.1f} s", flush=True)

    after = fixtures.snapshot(client, bearer)
    compare_snapshots("data unchanged by refused requests", before, after)
    REPORT.check("server alive after the refused matrix", server.alive(), "the process exited")

    websocket_off_loopback(port, bearer, cookie, refused)
    open_route_checks(client)
    token_in_query_checks(client, full, feed)
    feed_scope_checks(client, feed)

    started = time.monotonic()
    count = 0
    for route in protected:
        path, query, base_headers, body = fixtures.request_for(route)
        for spelling, spelled in spellings(path):
            target = with_query(spelled, query)
            for credential, headers in allowed:
                answer = client.request(route.method, target, dict(base_headers, **headers), body)
                count += 1
                detail = f"{route.method} {target} [{credential}] → {answer.describe()}"
                if spelling == "as written":
                    ok = answer.status not in (0, 401, 403) and answer.status < 500
                    if route.template == "/api/v1/live":
                        ok = answer.status == 426
                    REPORT.check("valid credential on a protected route → handler runs, no 5xx", ok,
                                 detail + " " + answer.body[:120].decode("utf-8", "replace"))
                else:
                    REPORT.check("other spelling with valid credential → no 5xx", 0 < answer.status < 500, detail)
    print(f"  {count} valid-credential requests in {time.monotonic() - started:.1f} s", flush=True)
    REPORT.check("server alive after the valid matrix", server.alive(), "the process exited")
    # The same writes with a valid credential must show in the snapshot, or "unchanged" proves nothing.
    REPORT.check("the data check sees the valid writes", fixtures.snapshot(client, bearer) != before,
                 "the snapshot did not change after every write ran with a valid token")

    logout_checks(client, full[1])
    host_checks_wildcard(client, port, bearer)
    client.close()


def session_cookie_checks(answer, cookie, secret):
    header = answer.headers.get("set-cookie", "")
    lowered = header.lower()
    REPORT.check("session cookie is not the token", cookie is not None and cookie != secret and secret not in header,
                 "the cookie carries the token itself")
    REPORT.check("session cookie HttpOnly, SameSite=Strict, no Secure over plain HTTP",
                 "httponly" in lowered and "samesite=strict" in lowered and "secure" not in lowered.replace(
                     "samesite", ""), header)
    max_age = re.search(r"max-age=(\d+)", lowered)
    REPORT.check("session cookie lasts 30 days", bool(max_age) and abs(int(max_age.group(1)) - 30 * 86400) <= 86400,
                 header)


def websocket_off_loopback(port, bearer, cookie, refused):
    host = f"127.0.0.1:{port}"
    for spelling, path in spellings("/api/v1/live"):
        for credential, headers in refused:
            status, _ = websocket_upgrade(port, path, host, [f"{k}: {v}" for k, v in headers.items()])
            # Hummingbird answers every refused WebSocket upgrade with a bare 400, whatever the
            # route answered (a browser's WebSocket never sees the status anyway): refused is refused.
            expected = {400, 401, 403} if spelling == "as written" else {400, 401, 403, 404}
            REPORT.check("WebSocket upgrade without valid credential → refused (never 101)",
                         status in expected, f"GET {path} upgrade [{credential}] → {status}")
    for credential, headers in [("valid bearer", bearer)] + ([("valid cookie", {"Cookie": f"{COOKIE}={cookie}"})]
                                                            if cookie else []):
        status, frame = websocket_upgrade(port, "/api/v1/live", host, [f"{k}: {v}" for k, v in headers.items()])
        REPORT.check("WebSocket with valid credential → 101 and {\"head\":…}",
                     status == 101 and frame is not None and frame.startswith('{"head"'),
                     f"GET /api/v1/live upgrade [{credential}] → {status} {frame!r}")


def open_route_checks(client):
    for path in ["/health", "/openapi.yaml", "/api/v1/catalog", *STATIC_FILES]:
        answer = client.request("GET", path)
        REPORT.check("open route without credential → 200", answer.status == 200, f"GET {path} → {answer.describe()}")
    answer = client.request("POST", "/login", {"Content-Type": "application/json"}, json_body({"token": "nope"}))
    REPORT.check("POST /login with a wrong token → 401", answer.status == 401, f"POST /login → {answer.describe()}")


def token_in_query_checks(client, full, feed):
    answer = client.request("GET", f"/api/v1/timers?token={full[1]}")
    REPORT.check("?token= only counts for /reminders.ics", answer.status == 401,
                 f"GET /api/v1/timers?token=FULL → {answer.describe()}")
    if feed:
        for path in ("//reminders.ics", "/./reminders.ics", "/reminders.ics/"):
            answer = client.request("GET", f"{path}?token={feed[1]}")
            REPORT.check("feed ?token= on another spelling → not 5xx", 0 < answer.status < 500,
                         f"GET {path}?token=FEED → {answer.describe()}")


def feed_scope_checks(client, feed):
    if not feed:
        REPORT.check("feed token reads /reminders.ics?token= → 200 text/calendar", False, "no feed token")
        return
    answer = client.request("GET", f"/reminders.ics?token={feed[1]}")
    REPORT.check("feed token reads /reminders.ics?token= → 200 text/calendar",
                 answer.status == 200 and answer.headers.get("content-type", "").startswith("text/calendar"),
                 f"GET /reminders.ics?token=FEED → {answer.describe()}")
    answer, feed_cookie = login(client, feed[1])
    if answer.status == 204 and feed_cookie:
        refused = client.request("GET", "/api/v1/timers", {"Cookie": f"{COOKIE}={feed_cookie}"})
        REPORT.check("a session from a feed token reads nothing else (401/403)", refused.status in (401, 403),
                     f"GET /api/v1/timers [feed cookie] → {refused.describe()}")
    else:
        REPORT.check("a session from a feed token reads nothing else (401/403)", answer.status in (401, 403),
                     f"POST /login with a feed token → {answer.describe()}")


def logout_checks(client, secret):
    answer, cookie = login(client, secret)
    headers = {"Cookie": f"{COOKIE}={cookie}"}
    before = client.request("GET", "/api/v1/session", headers)
    out = client.request("POST", "/logout", headers)
    after = client.request("GET", "/api/v1/session", headers)
    REPORT.check("cookie works before logout", before.status == 200, f"GET /api/v1/session → {before.describe()}")
    REPORT.check("POST /logout → 204", out.status == 204, f"POST /logout → {out.describe()}")
    REPORT.check("cookie after logout → 401", after.status == 401, f"GET /api/v1/session [cookie after logout] → "
                                                                    f"{after.describe()}")


def host_checks_wildcard(client, port, bearer):
    for host in (f"192.0.2.7:{port}", f"10.1.2.3:{port}", "[::1]:" + str(port)):
        answer = client.request("GET", "/api/v1/timers", bearer, host=host)
        REPORT.check("wildcard bind accepts an IP-literal Host", answer.status == 200,
                     f"GET /api/v1/timers Host: {host} → {answer.describe()}")
    for path in ("/health", "/", "/api/v1/timers"):
        answer = client.request("GET", path, bearer, host=f"{REBIND_HOST}:{port}")
        REPORT.check("wildcard bind refuses a foreign Host → 421", answer.status == 421,
                     f"GET {path} Host: {REBIND_HOST} → {answer.describe()}")


# ---------------------------------------------------------------------------------------------
# On loopback: Origin, Content-Type, Host, WebSocket, slow clients


def slow_header_client(port, trickle, limit=45):
    """Seconds until the server drops a client that never ends its headers (None: not within limit)."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        last_send = started
        while time.monotonic() - started < limit:
            if trickle and time.monotonic() - last_send >= 5:
                try:
                    sock.sendall(b"X")
                except OSError:
                    return time.monotonic() - started
                last_send = time.monotonic()
            try:
                if sock.recv(4096) == b"":
                    return time.monotonic() - started
            except socket.timeout:
                continue
            except OSError:
                return time.monotonic() - started
    return None


def idle_keep_alive_client(port, limit=75):
    """Seconds until the server closes a keep-alive connection left idle after one answered request."""
    with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
        sock.sendall(f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        received = b""
        answered = None
        deadline = time.monotonic() + limit + 10
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(4096)
            except socket.timeout:
                if answered is not None and time.monotonic() - answered > limit:
                    return None
                continue
            except OSError:
                chunk = b""
            if chunk == b"":
                return time.monotonic() - answered if answered is not None else 0.0
            received += chunk
            if answered is None and b"\r\n\r\n" in received:
                answered = time.monotonic()
    return None


def start_timeout_probes(port):
    results = {}

    def run(name, function):
        try:
            results[name] = function()
        except Exception as error:
            results[name] = error

    threads = [threading.Thread(target=run, args=("silent", lambda: slow_header_client(port, trickle=False))),
               threading.Thread(target=run, args=("trickle", lambda: slow_header_client(port, trickle=True))),
               threading.Thread(target=run, args=("idle", lambda: idle_keep_alive_client(port)))]
    for thread in threads:
        thread.daemon = True
        thread.start()
    return threads, results


def finish_timeout_probes(threads, results):
    print("  waiting for the slow-client probes (at most 75 s from their start)", flush=True)
    for thread in threads:
        thread.join(90)
    for name, label in (("silent", "a client that sends half a header and nothing more"),
                        ("trickle", "a client that sends one header byte every 5 s")):
        seconds = results.get(name)
        ok = isinstance(seconds, float) and seconds <= HEADER_TIMEOUT_LIMIT
        shown = f"{seconds:.1f} s" if isinstance(seconds, float) else ("still open after 45 s" if seconds is None
                                                                         else repr(seconds))
        REPORT.note(f"{label}: cut off after {shown}")
        REPORT.check(f"slow header client cut off within {HEADER_TIMEOUT_LIMIT} s", ok, f"{label}: {shown}")
    seconds = results.get("idle")
    seconds = seconds if isinstance(seconds, float) else None
    shown = f"{seconds:.1f} s" if seconds is not None else f"still open after 75 s ({results.get('idle')!r:.80})"
    REPORT.note(f"an idle keep-alive connection: closed after {shown}")
    REPORT.check(f"idle keep-alive connection closed within {IDLE_TIMEOUT_LIMIT} s",
                 seconds is not None and seconds <= IDLE_TIMEOUT_LIMIT, shown)


def loopback_checks(binary, deferred):
    """The cross-site, rebinding and body-type rules; the slow-client probes finish later."""
    print("== loopback: server on 127.0.0.1, no token", flush=True)
    server = MomentumServer(binary, "loopback").start()
    port = server.port
    threads, results = start_timeout_probes(port)

    def finish():
        try:
            finish_timeout_probes(threads, results)
            REPORT.check("loopback server alive after slow clients", server.alive(), "the process exited")
        finally:
            server.cleanup()

    deferred.append(finish)
    client = Client(port)
    routes = load_routes(client)
    fixtures = Fixtures()
    fixtures.seed(client, {})
    before = fixtures.snapshot(client, {})
    own = f"http://127.0.0.1:{port}"

    writes = [route for route in routes if route.is_write]
    for route in writes:
        path, query, headers, body = fixtures.request_for(route)
        target = with_query(path, query)
        for origin in (EVIL_ORIGIN, "null", f"http://127.0.0.1:{port + 1}", f"{own}.evil.example",
                       f"http://localhost.evil.example:{port}"):
            answer = client.request(route.method, target, dict(headers, Origin=origin), body)
            REPORT.check("foreign Origin on a write → 403 cross_origin",
                         answer.status == 403 and answer.code() == "cross_origin",
                         f"{route.method} {target} [Origin: {origin}] → {answer.describe()}")
            allow = answer.headers.get("access-control-allow-origin")
            REPORT.check("no CORS grant to a foreign Origin", allow in (None, own),
                         f"{route.method} {target} [Origin: {origin}] → Access-Control-Allow-Origin: {allow}")
    content_types = ("text/plain", None, "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                     "text/plain; charset=utf-8")
    for route in writes:
        if route.method == "DELETE" or route.is_upload:
            continue
        path, query, headers, body = fixtures.request_for(route)
        target = with_query(path, query)
        for content_type in content_types:
            sent = {"Content-Type": content_type} if content_type else {}
            answer = client.request(route.method, target, sent, body)
            REPORT.check("write with a non-JSON Content-Type (or none) → 415", answer.status == 415,
                         f"{route.method} {target} [Content-Type: {content_type}] → {answer.describe()}")
    upload_path = "/api/v1/library/upload?name=attack.wav"
    for content_type in ("text/plain", None, "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        answer = client.request("POST", upload_path, {"Content-Type": content_type} if content_type else {},
                                tiny_wav(1.5))
        REPORT.check("upload with a non-audio Content-Type → 415", answer.status == 415,
                     f"POST {upload_path} [Content-Type: {content_type}] → {answer.describe()}")
    for route in routes:
        path, query, headers, body = fixtures.request_for(route)
        target = with_query(path, query)
        for host in (REBIND_HOST, f"{REBIND_HOST}:{port}", f"localhost.evil.example:{port}",
                     f"127.0.0.1.evil.example:{port}"):
            answer = client.request(route.method, target, headers, body, host=host)
            REPORT.check("foreign Host → 421 host_not_allowed",
                         answer.status == 421 and answer.code() == "host_not_allowed",
                         f"{route.method} {target} [Host: {host}] → {answer.describe()}")
    for path in STATIC_FILES + ["/no-such-file"]:
        answer = client.request("GET", path, host=f"{REBIND_HOST}:{port}")
        REPORT.check("foreign Host on a static file → 421", answer.status == 421,
                     f"GET {path} [Host: {REBIND_HOST}] → {answer.describe()}")
    after = fixtures.snapshot(client, {})
    compare_snapshots("data unchanged by cross-site and rebinding requests", before, after)

    accepted_writes(client, port)
    accepted_hosts(client, port)
    websocket_loopback(port)
    REPORT.check("loopback server alive", server.alive(), "the process exited")
    client.close()


def accepted_writes(client, port):
    timer = {"name": "Fine", "durationMs": 60000}
    cases = [("own Origin", f"127.0.0.1:{port}", {"Origin": f"http://127.0.0.1:{port}"}),
             ("no Origin (CLI)", f"127.0.0.1:{port}", {}),
             ("own Origin via localhost", f"localhost:{port}", {"Origin": f"http://localhost:{port}"}),
             ("own Origin via [::1]", f"[::1]:{port}", {"Origin": f"http://[::1]:{port}"})]
    for name, host, headers in cases:
        for content_type in ("application/json", "application/json; charset=utf-8"):
            answer = client.request("POST", "/api/v1/timers", dict(headers, **{"Content-Type": content_type}),
                                    json_body(timer), host=host)
            REPORT.check("write from own origin / no origin, JSON → accepted (201)", answer.status == 201,
                         f"POST /api/v1/timers [{name}, {content_type}] → {answer.describe()}")
            created = (answer.json() or {}).get("id")
            if created:
                gone = client.request("DELETE", f"/api/v1/timers/{created}", headers, host=host)
                REPORT.check("DELETE from own origin / no origin → accepted", 200 <= gone.status < 300,
                             f"DELETE /api/v1/timers/ID [{name}] → {gone.describe()}")
    for content_type in ("audio/wav", "application/octet-stream"):
        answer = client.request("POST", f"/api/v1/library/upload?name=fine-{content_type[:5]}.wav",
                                {"Content-Type": content_type, "Origin": f"http://127.0.0.1:{port}"}, tiny_wav(0.5))
        REPORT.check("upload with audio/* or octet-stream → accepted", answer.status in (200, 201),
                     f"POST /api/v1/library/upload [{content_type}] → {answer.describe()}")


def accepted_hosts(client, port):
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", "localhost", "127.0.0.1"):
        for path in ("/health", "/", "/api/v1/timers"):
            answer = client.request("GET", path, host=host)
            REPORT.check("loopback Host spellings accepted", answer.status == 200,
                         f"GET {path} [Host: {host}] → {answer.describe()}")


def websocket_loopback(port):
    host = f"127.0.0.1:{port}"
    for origin in (EVIL_ORIGIN, "null", f"http://127.0.0.1:{port + 1}"):
        status, _ = websocket_upgrade(port, "/api/v1/live", host, [f"Origin: {origin}"])
        REPORT.check("WebSocket from a foreign Origin → refused", status not in (0, 101),
                     f"GET /api/v1/live upgrade [Origin: {origin}] → {status}")
    status, _ = websocket_upgrade(port, "/api/v1/live", f"{REBIND_HOST}:{port}", [f"Origin: http://{REBIND_HOST}:{port}"])
    REPORT.check("WebSocket with a foreign Host → refused (400 or 421)", status in (400, 421), f"GET /api/v1/live upgrade [Host: {REBIND_HOST}] → "
                                                                         f"{status}")
    for name, headers in (("own Origin", [f"Origin: http://127.0.0.1:{port}"]), ("no Origin", [])):
        status, frame = websocket_upgrade(port, "/api/v1/live", host, headers)
        REPORT.check("WebSocket from own origin / no origin → 101 and {\"head\":…}",
                     status == 101 and bool(frame) and frame.startswith('{"head"'),
                     f"GET /api/v1/live upgrade [{name}] → {status} {frame!r}")


def allowed_host_checks(binary):
    print("== --allowed-host", flush=True)
    server = MomentumServer(binary, "allowed", extra_args=["--allowed-host", "momentum.test",
                                                           "--allowed-host", "practice.home.arpa"])
    try:
        server.start()
    except RuntimeError as error:
        REPORT.check("serve --allowed-host NAME starts", False, str(error)[:300])
        server.cleanup()
        return
    try:
        client = Client(server.port)
        for host in ("momentum.test", f"momentum.test:{server.port}", "practice.home.arpa"):
            answer = client.request("GET", "/api/v1/timers", host=host)
            REPORT.check("--allowed-host names accepted", answer.status == 200, f"GET /api/v1/timers [Host: {host}] → "
                                                                                   f"{answer.describe()}")
        answer = client.request("POST", "/api/v1/timers", {"Content-Type": "application/json",
                                                           "Origin": "http://momentum.test"},
                                json_body({"name": "Proxy", "durationMs": 60000}), host="momentum.test")
        REPORT.check("write with Origin = the allowed Host → accepted", answer.status == 201,
                     f"POST /api/v1/timers [Host/Origin momentum.test] → {answer.describe()}")
        answer = client.request("GET", "/api/v1/timers", host=f"{REBIND_HOST}:{server.port}")
        REPORT.check("foreign Host → 421 host_not_allowed", answer.status == 421,
                     f"GET /api/v1/timers [Host: {REBIND_HOST}, --allowed-host set] → {answer.describe()}")
        client.close()
    finally:
        server.cleanup()


# ---------------------------------------------------------------------------------------------
# The other reproductions of issue 21: each answers 4xx and the server lives


def reproduction_checks(binary):
    """Each case on a living server: one that stops the process is named, and the server restarted."""
    print("== the issue's reproductions", flush=True)
    server = MomentumServer(binary, "reproductions").start()
    json_type = {"Content-Type": "application/json"}

    def send(method, path, value):
        raw = value if isinstance(value, bytes) else json_body(value)
        return Client(server.port).request(method, path, json_type, raw)

    def restart_if_dead(case):
        if server.alive() and Client(server.port, timeout=5).request("GET", "/health").status == 200:
            return True
        try:
            server.process.wait(20)      # a trapped process prints its backtrace before it ends
        except subprocess.TimeoutExpired:
            pass
        lines = server.output(("stderr", "stdout")).strip().splitlines()
        cause = next((line for line in lines if "Fatal error" in line), " | ".join(lines[-3:]))
        REPORT.check("no request stops the server", False, f"{case} stopped the process: {cause[:300]}")
        server.stop()
        server.port = free_port()
        server.start()
        return False

    try:
        session = send("POST", "/api/v1/morse/sessions", {"direction": "receive"}).json() or {}
        session_id = session.get("id") or str(uuid.uuid4())
        send("POST", f"/api/v1/morse/sessions/{session_id}/start", {})
        an_hour_ago = iso(datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1))
        cases = [
            ("PATCH", "/api/v1/morse/settings", {"riseMilliseconds": 1e300}),
            ("PATCH", "/api/v1/morse/settings", {"riseMilliseconds": -1.7e308}),
            ("PATCH", "/api/v1/morse/settings", {"sessionSeconds": 2 ** 63}),
            ("POST", "/api/v1/morse/sessions/{session}/answer", {"answer": "k", "responseMs": 1e300}),
            ("POST", "/api/v1/runs", {"kind": "meditation", "meditation": {"durationMs": 60000, "countdownMs": 0},
                                      "at": "1969-06-01T00:00:00Z"}),
            ("POST", "/api/v1/runs", {"kind": "meditation", "plan": {"durationMs": 60000, "countdownMs": 0},
                                      "at": "2858-01-20T23:07:27Z"}),
            ("POST", "/api/v1/log", {"kind": "meditation", "start": "1969-12-31T23:00:00Z", "durationMs": 60000}),
            ("POST", "/api/v1/log", {"kind": "meditation", "start": "0010-02-04T08:57:27Z", "durationMs": 60000}),
            ("POST", "/api/v1/log", {"kind": "workout", "start": an_hour_ago, "durationMs": 60000,
                                     "energyKilocalories": 1e300}),
            ("POST", "/api/v1/timers", {"name": "\u0000", "durationMs": 60000}),
            ("POST", "/api/v1/timers", {"name": "tea\u0000time", "durationMs": 60000}),
            ("POST", "/api/v1/timers", {"name": "Tea", "durationMs": 2 ** 63}),
            ("POST", "/api/v1/timers", b'{"name": "Tea", "durationMs": NaN}'),
            ("POST", "/api/v1/breathing/presets", {"name": "a\u0000b", "pattern": "4-4-4-4"}),
        ]
        for method, path, value in cases:
            path = path.replace("{session}", session_id)
            shown = value.decode() if isinstance(value, bytes) else json.dumps(value)
            case = f"{method} {path} {shown[:120]}"
            answer = send(method, path, value)
            REPORT.check("the issue's reproductions answer 4xx", 400 <= answer.status < 500,
                         f"{case} → {answer.describe()}")
            if restart_if_dead(case):
                REPORT.check("no request stops the server", True)
        for path in ("/api/v1/runs", "/api/v1/log", "/api/v1/timers"):
            answer = Client(server.port).request("GET", path)
            REPORT.check("reads still answer after the reproductions", answer.status == 200,
                         f"GET {path} → {answer.describe()}")
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(f"POST /api/v1/timers HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                         "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n"
                         .encode())
            try:
                head = sock.recv(4096)
            except OSError:
                head = b""
        match = re.match(rb"HTTP/1\.1 (\d{3})", head)
        status = int(match.group(1)) if match else 0
        REPORT.check("an invalid chunk size → 4xx or the connection closed", status == 0 or 400 <= status < 500,
                     f"POST /api/v1/timers with chunk size ZZ → {status or 'closed'}")
        restart_if_dead("a chunk size of ZZ")
    finally:
        server.cleanup()


# ---------------------------------------------------------------------------------------------
# The token rule by address, and secrets in the log


def address_rule_checks(binary):
    print("== which addresses need a sign-in", flush=True)
    # Off loopback a server with no way in yet starts (pairing a phone needs it running), says
    # where it listens and then how to sign a phone in; on 0.0.0.0 every API request without a
    # credential answers 401. A name that resolves to nothing is refused in one sentence that
    # names it — never "something went wrong".
    server = MomentumServer(binary, "refused", host="0.0.0.0")
    process = subprocess.Popen([binary, "serve", "--host", "0.0.0.0", "--port", str(server.port)], env=server.env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = process.stdout.readline()
        said = [first]
        # The pairing block follows the listening lines once the server listens.
        while not any("pair.html" in line for line in said) and len(said) < 80:
            line = process.stdout.readline()
            if not line:
                break
            said.append(line)
        ok = "0.0.0.0" not in first and "http://" in first and any("pair.html#" in line for line in said)
        detail = first.strip()[:160] or f"exit {process.poll()} without a word"
        if ok:
            status = 0
            client = Client(server.port, timeout=2)
            for _ in range(100):
                # 0 while the server is not listening yet.
                status = client.request("GET", "/api/v1/timers").status
                if status:
                    break
                time.sleep(0.1)
            ok = status == 401
            detail += f"; GET /api/v1/timers → {status}"
        elif said:
            detail += " … no pair.html# link in: " + " | ".join(line.strip() for line in said)[:300]
    finally:
        process.kill()
        process.wait()
    REPORT.check("serve on 0.0.0.0 without a way in → starts, says where and how to pair, refuses the API",
                 ok, f"serve --host 0.0.0.0: {detail}")
    server.cleanup()
    for host in ("127.5.5.5.example", "127.0.0.1.example"):
        server = MomentumServer(binary, "unresolvable", host=host)
        try:
            finished = subprocess.run([binary, "serve", "--host", host, "--port", str(server.port)], env=server.env,
                                      capture_output=True, text=True, timeout=60)
            said = (finished.stdout + finished.stderr).strip()
            ok = finished.returncode != 0 and f"Cannot listen on {host}" in said and "inside Momentum" not in said
            detail = f"exit {finished.returncode}: {said[:200]}"
        except subprocess.TimeoutExpired:
            ok, detail = False, "still running after 60 s"
        REPORT.check("serve on a name that resolves to nothing → refused in one sentence naming it",
                     ok, f"serve --host {host}: {detail}")
        server.cleanup()
    server = MomentumServer(binary, "loopback2", host="127.0.0.2")
    try:
        server.start()
        answer = Client(server.port, address="127.0.0.2").request("GET", "/api/v1/timers")
        ok, detail = answer.status == 200, answer.describe()
    except (RuntimeError, OSError) as error:
        ok, detail = False, str(error)[:200]
    REPORT.check("serve --host 127.0.0.2 (loopback) needs no token", ok, f"serve --host 127.0.0.2: {detail}")
    server.cleanup()


def log_checks(server, secrets):
    stdout = server.output(("stdout",))
    stderr = server.output(("stderr",))
    REPORT.check("the debug log was written", len(stdout) + len(stderr) > 0, "no output at all")
    for index, secret in enumerate(secrets):
        REPORT.check("no token secret in the server's stdout (debug level)", secret not in stdout,
                     f"secret #{index + 1} appears in stdout: "
                     + next((line[:200] for line in stdout.splitlines() if secret in line), ""))
        REPORT.check("no token secret in the server's stderr (debug level)", secret not in stderr,
                     f"secret #{index + 1} appears in stderr: "
                     + next((line[:200] for line in stderr.splitlines() if secret in line), ""))


# ---------------------------------------------------------------------------------------------


def main():
    if len(sys.argv) != 2 or not os.access(sys.argv[1], os.X_OK):
        sys.exit("usage: security-matrix.py PATH/TO/momentum")
    binary = os.path.abspath(sys.argv[1])
    started = time.monotonic()
    deferred = []
    # The slow-client probes on the loopback server take up to 75 s; they run while the other
    # phases do, and are collected last.
    phases = [lambda: loopback_checks(binary, deferred), lambda: off_loopback_checks(binary),
              lambda: allowed_host_checks(binary), lambda: address_rule_checks(binary),
              lambda: reproduction_checks(binary),
              lambda: [finish() for finish in deferred]]
    for phase in phases:
        try:
            phase()
        except Exception as error:
            REPORT.check("every phase ran to its end", False, f"{type(error).__name__}: {error}"[:500])
    REPORT.print_summary()
    print(f"\nsecurity matrix: {time.monotonic() - started:.0f} s, {len(REPORT.violations)} violations")
    sys.exit(1 if REPORT.violations else 0)


if __name__ == "__main__":
    main()
