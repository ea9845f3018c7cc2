"""Shared helpers of the sync scripts: a device's hybrid logical clock, change messages, HTTP
calls to a `momentum serve`, and starting one on a free loopback port. Python 3 standard library."""

import http.client
import json
import os
import random
import socket
import subprocess
import tempfile
import time
import uuid
from urllib.parse import urlparse


class Clock:
    """The hybrid logical clock of docs/sync.md (send rule only: these devices make changes)."""

    def __init__(self, node):
        self.node = node
        self.physical = -1
        self.counter = 0

    def send(self):
        wall = int(time.time() * 1000)
        if wall > self.physical:
            self.physical, self.counter = wall, 0
        else:
            self.counter += 1
            if self.counter > 0xFFFF:
                self.physical, self.counter = self.physical + 1, 0
        return "%013d-%05d-%s" % (self.physical, self.counter, self.node)


class Device:
    def __init__(self, name, node):
        self.name = name
        self.clock = Clock(node)

    def set(self, kind, entity, field, value):
        return {"type": kind, "id": entity, "op": "set", "field": field, "value": value,
                "stamp": self.clock.send(), "device": self.name}

    def delete(self, kind, entity):
        return {"type": kind, "id": entity, "op": "delete", "stamp": self.clock.send(), "device": self.name}

    def new_timer(self, name):
        timer = str(uuid.uuid4())
        return timer, [self.set("focusTimer", timer, "name", name),
                       self.set("focusTimer", timer, "durationMs", 60_000 * random.randint(1, 60)),
                       self.set("focusTimer", timer, "sortOrder", 0)]

    def new_item(self, timer, text):
        item = str(uuid.uuid4())
        return item, [self.set("checklistItem", item, "timerID", timer),
                      self.set("checklistItem", item, "text", text),
                      self.set("checklistItem", item, "done", False)]

    def new_record(self):
        record = str(uuid.uuid4())
        end = int(time.time() * 1000)
        start = end - 600_000
        return [self.set("practiceRecord", record, "kind", "meditation"),
                self.set("practiceRecord", record, "start", start),
                self.set("practiceRecord", record, "end", end),
                self.set("practiceRecord", record, "countedSeconds", 600),
                self.set("practiceRecord", record, "device", self.name)]


class Server:
    """HTTP calls to one server; one keep-alive connection per instance (per thread)."""

    def __init__(self, url, token=None):
        parsed = urlparse(url)
        self.host, self.port = parsed.hostname, parsed.port or 80
        self.token = token
        self.connection = None

    def request(self, method, path, body=None):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        data = json.dumps(body).encode() if body is not None else None
        for attempt in (0, 1):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
            try:
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                payload = response.read()
                return response.status, json.loads(payload) if payload else None
            except (ConnectionError, http.client.HTTPException):
                self.connection.close()
                self.connection = None
                if attempt == 1:
                    raise

    def push(self, changes):
        return self.request("POST", "/api/v1/sync/push", {"changes": changes})

    def pull(self, after, limit=1000):
        return self.request("GET", "/api/v1/sync/pull?after=%d&limit=%d" % (after, limit))

    def pull_all(self, after=0):
        changes = []
        while True:
            status, page = self.pull(after)
            if status != 200:
                raise RuntimeError("pull after %d: HTTP %d %s" % (after, status, page))
            changes += page["changes"]
            after = page["last"]
            if not page["more"]:
                return changes


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(binary):
    """`momentum serve` on a free loopback port with a fresh data directory; returns (process, url, dir)."""
    home = tempfile.mkdtemp(prefix="momentum-sync-")
    port = free_port()
    process = subprocess.Popen([binary, "serve", "--port", str(port), "--data", home],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=dict(os.environ, LANG="en_GB.UTF-8"))
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process, "http://127.0.0.1:%d" % port, home
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("momentum serve did not start on port %d" % port)


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = max(0, min(len(ordered) - 1, int(round(fraction * len(ordered) + 0.5)) - 1))
    return ordered[index]
