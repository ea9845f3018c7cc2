"""Issue 42: Web Push from a real `momentum serve` to a local push service written with an
independent implementation of the protocol — PyPI's `http_ece` (RFC 8188/8291) and `cryptography`
(the subscriber's P-256 key, and the ES256 check of the VAPID token). The push service is admitted
with MOMENTUM_PUSH_ALLOW, as an owner would admit a self-hosted one.

- `momentum push test` reaches every device; the body decrypts with the subscriber's key; the token
  verifies with the key of `GET /api/v1/push/key`, its `aud` is the push service's origin, `exp`
  within 24 h.
- A daily reminder set a minute or two ahead arrives within 5 s of its minute, in the person's
  language, with its TTL, Urgency and Topic; a device answering 410 loses its subscription.
- A server killed before the instant and started again after it sends the reminder once, and a
  server killed and restarted after sending does not send it again.

- That reminder, delivered to the app's service worker (DevTools' `ServiceWorker.deliverPushMessage`),
  shows a notification with its title, body, tag, link and "Start" action.

These wait for real minutes (no clock is moved in a running server): about three minutes in all.
"""
import base64
import datetime
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

from conftest import Server, allow_notifications, free_port, momentum_bin, shot, wait_for_health


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """A push service on 127.0.0.1: keeps every push it gets (with when it arrived; header names in
    lower case, as HTTP compares them) and answers 201, or what `answers` says for an endpoint's path."""

    def __init__(self):
        self.received = []
        self.answers = {}
        self.keys = {}
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with service.lock:
                    service.received.append({"path": self.path, "headers": {name.lower(): value for name, value in self.headers.items()}, "body": body,
                                             "at": time.time()})
                status = service.answers.get(self.path, 201)
                self.send_response(status)
                if status in (301, 302, 303, 307, 308):
                    self.send_header("Location", service.origin + "/push/redirected")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.port = free_port()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.port}"

    def subscription(self, name, device):
        """A browser's `PushSubscription.toJSON()` for a new key pair, plus the device's name."""
        key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        path = f"/push/{name}"
        self.keys[path] = (key, auth)
        public = key.public_key().public_bytes(serialization.Encoding.X962,
                                               serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.origin + path, "expirationTime": None,
                "keys": {"p256dh": b64url(public), "auth": b64url(auth)}, "deviceName": device}

    def pushes(self, path):
        with self.lock:
            return [push for push in self.received if push["path"] == path]

    def opened(self, push):
        """The push's message, decrypted on the subscriber's side."""
        key, auth = self.keys[push["path"]]
        assert push["headers"]["content-encoding"] == "aes128gcm"
        return json.loads(http_ece.decrypt(push["body"], private_key=key, auth_secret=auth, version="aes128gcm"))

    def close(self):
        self.httpd.shutdown()


def verify_vapid(push, server_key, audience):
    """The VAPID token of `push`: signed by the server's key (ES256), for `audience`, valid < 24 h."""
    scheme, _, parameters = push["headers"]["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in parameters.split(","))
    assert fields["k"] == server_key
    header, claims, signature = fields["t"].split(".")
    raw = unb64url(signature)
    assert len(raw) == 64, "ES256 signs r ‖ s"
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    public.verify(utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                  f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    claims = json.loads(unb64url(claims))
    assert claims["aud"] == audience
    assert 0 < claims["exp"] - time.time() <= 24 * 3600
    return claims


class PushServer:
    """`momentum serve` admitting `origin`, on a data directory that outlives a kill."""

    def __init__(self, origin):
        self.root = Path(tempfile.mkdtemp(prefix="momentum-push-"))
        self.data_dir = self.root / "data"
        self.port = free_port()
        self.env = dict(os.environ, MOMENTUM_PUSH_ALLOW=origin, MOMENTUM_PUSH_CONTACT="mailto:owner@example.org")
        self.env.pop("MOMENTUM_HOME", None)
        self.env.setdefault("LANG", "C.UTF-8")
        self.process = None
        self.starts = 0

    def start(self):
        self.starts += 1
        log = open(self.root / f"serve-{self.starts}.log", "wb")
        self.process = subprocess.Popen(
            [momentum_bin(), "serve", "--port", str(self.port), "--data", str(self.data_dir)],
            stdout=log, stderr=subprocess.STDOUT, env=self.env)
        url = f"http://127.0.0.1:{self.port}"
        assert wait_for_health(url, self.process), self.logs()
        return Server(url, self.data_dir, self.process, self.root / f"serve-{self.starts}.log")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            assert self.process.wait(timeout=10) == 0, self.logs()

    def logs(self):
        return "\n".join(path.read_text(errors="replace") for path in sorted(self.root.glob("serve-*.log")))

    def command(self, *args):
        return subprocess.run([momentum_bin(), *args, "--data", str(self.data_dir)], env=self.env,
                              capture_output=True, text=True, timeout=60)

    def close(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


@pytest.fixture
def push_server(push_service):
    server = PushServer(push_service.origin)
    yield server
    server.close()


def a_minute_ahead(seconds=65):
    """The next whole local minute at least `seconds` away: (its instant, "HH:MM")."""
    at = datetime.datetime.now().astimezone() + datetime.timedelta(seconds=seconds)
    at = (at + datetime.timedelta(minutes=1)).replace(second=0, microsecond=0)
    return at.timestamp(), at.strftime("%H:%M")


def set_daily_reminder(server, hh_mm, language="en"):
    status, body = server.api("PATCH", "/settings", {"language": language, "reminders": {"daily": [
        {"id": "soon", "time": hh_mm, "weekdays": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
         "category": "mindfulness"}]}})
    assert status == 200, body


def wait_until(instant):
    time.sleep(max(0, instant - time.time()))  # a real minute must pass: the server's clock is real


def test_a_test_push_decrypts_and_its_token_verifies(push_service, push_server):
    server = push_server.start()
    server_key = server.get("/push/key")["publicKey"]
    for name in ("phone", "laptop", "redirector"):
        status, body = server.api("POST", "/push/subscriptions", push_service.subscription(name, f"Anna's {name}"))
        assert status == 201, body
    # A push service's redirect is answered as it is, never followed (it could lead anywhere).
    push_service.answers["/push/redirector"] = 307
    result = push_server.command("push", "test", "--json")
    assert result.returncode == 0, result.stderr
    answers = {answer["deviceName"]: answer for answer in json.loads(result.stdout)}
    assert [answers[f"Anna's {name}"]["outcome"] for name in ("phone", "laptop")] == ["delivered", "delivered"]
    assert answers["Anna's redirector"]["outcome"] == "failed" and answers["Anna's redirector"]["reason"] == "307"
    assert push_service.pushes("/push/redirected") == []
    for name in ("phone", "laptop"):
        [push] = push_service.pushes(f"/push/{name}")
        claims = verify_vapid(push, server_key, push_service.origin)
        assert claims["sub"] == "mailto:owner@example.org"
        message = push_service.opened(push)
        assert message["title"] == "Notifications work"
        assert message["body"] == f"This is how Momentum's reminders will reach Anna's {name}."
        assert message["url"] == "/#settings"
    listed = json.loads(push_server.command("push", "list", "--json").stdout)
    assert sorted(device["deviceName"] for device in listed) == ["Anna's laptop", "Anna's phone", "Anna's redirector"]
    assert all(device["pushService"] == push_service.origin for device in listed)
    push_server.stop()


def shown_notifications(browser):
    """What the app's service worker shows (`registration.getNotifications()`)."""
    return browser.execute_async_script("""
        const done = arguments[0];
        navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((shown) => done(shown.map((n) => ({
          title: n.title, body: n.body, tag: n.tag, data: n.data,
          actions: n.actions.map((a) => ({ action: a.action, title: a.title })) }))));
    """)


def deliver_to_service_worker(browser, server, data):
    """Delivers `data` (as its push service would, decrypted) to the app's service worker, through
    DevTools (`ServiceWorker.deliverPushMessage`). The one registration's id is a small number
    (0 in a fresh profile); a push to an id that is not registered goes nowhere."""
    browser.get(server.url + "/#settings")
    browser.execute_async_script("const done = arguments[0]; navigator.serviceWorker.ready.then(() => done(true));")
    browser.execute_cdp_cmd("ServiceWorker.enable", {})
    for registration in range(10):
        browser.execute_cdp_cmd("ServiceWorker.deliverPushMessage",
                                {"origin": server.url, "registrationId": str(registration), "data": data})
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not shown_notifications(browser):
        time.sleep(0.1)  # polling the service worker, not a wait for a result
    return shown_notifications(browser)


def test_a_daily_reminder_arrives_within_five_seconds_and_410_ends_a_subscription(push_service, push_server, browser):
    server = push_server.start()
    server_key = server.get("/push/key")["publicKey"]
    for name in ("phone", "old-tablet"):
        status, body = server.api("POST", "/push/subscriptions", push_service.subscription(name, name))
        assert status == 201, body
    push_service.answers["/push/old-tablet"] = 410
    due, hh_mm = a_minute_ahead()
    set_daily_reminder(server, hh_mm, language="de")
    wait_until(due + 8)
    [push] = push_service.pushes("/push/phone")
    assert due <= push["at"] <= due + 5, f"arrived {push['at'] - due:.2f} s after its minute"
    verify_vapid(push, server_key, push_service.origin)
    headers = push["headers"]
    assert headers["urgency"] == "normal"
    assert len(headers["topic"]) <= 32
    local = datetime.datetime.fromtimestamp(due).astimezone()
    midnight = (local + datetime.timedelta(days=1)).replace(hour=0, minute=0)
    assert abs(int(headers["ttl"]) - (midnight.timestamp() - push["at"])) <= 5, "useful until the end of its day"
    message = push_service.opened(push)
    assert message["kind"] == "reminder"
    assert message["title"] == "Zeit für eine achtsame Pause"
    assert message["url"] == "/#meditate"
    assert message["actions"] == [{"action": "start", "title": "Starten"}]
    # The same message, delivered to the app's service worker, is a notification with its action.
    allow_notifications(browser, server)
    shown = deliver_to_service_worker(browser, server, json.dumps(message))
    assert shown == [{"title": "Zeit für eine achtsame Pause", "body": message["body"], "tag": message["tag"],
                      "data": {"url": "/#meditate", "kind": "reminder"},
                      "actions": [{"action": "start", "title": "Starten"}]}], shown
    assert len(push_service.pushes("/push/old-tablet")) == 1
    devices = server.get("/push/subscriptions")["subscriptions"]
    assert [device["deviceName"] for device in devices] == ["phone"], "410 removed the tablet"
    assert devices[0]["lastDeliveredAt"] is not None
    push_server.stop()


def test_a_server_killed_around_the_instant_sends_the_reminder_once(push_service, push_server):
    server = push_server.start()
    status, body = server.api("POST", "/push/subscriptions", push_service.subscription("phone", "phone"))
    assert status == 201, body
    due, hh_mm = a_minute_ahead()
    set_daily_reminder(server, hh_mm)
    # Killed before its instant (after a planning round put it in the outbox) …
    wait_until(due - 8)
    push_server.kill()
    assert push_service.pushes("/push/phone") == []
    # … and started again after it: the outbox still holds it.
    wait_until(due + 1)
    push_server.start()
    wait_until(due + 6)
    assert len(push_service.pushes("/push/phone")) == 1, push_server.logs()
    # Killed and started again after sending: not sent again.
    push_server.kill()
    push_server.start()
    wait_until(due + 14)
    assert len(push_service.pushes("/push/phone")) == 1
    push_server.stop()


def test_a_push_that_does_not_read_still_shows_a_notification(server, browser):
    """Browsers end the subscriptions of pushes that show nothing: a push whose message does not
    read still shows one, with the app's name."""
    allow_notifications(browser, server)
    shown = deliver_to_service_worker(browser, server, "not a message")
    assert [(n["title"], n["data"]["url"]) for n in shown] == [("Momentum", "/")], shown


def click_notification_action(browser, server, action):
    """Runs the app's service worker's `notificationclick` handler for each notification it shows,
    as if its `action` button were pressed. A headless browser has no notification to press, so
    DevTools evaluates in the worker: the handler that runs is the app's own."""
    targets = browser.execute_cdp_cmd("Target.getTargets", {})["targetInfos"]
    [worker] = [t for t in targets if t["type"] == "service_worker" and t["url"].startswith(server.url)]
    session = browser.execute_cdp_cmd(
        "Target.attachToTarget", {"targetId": worker["targetId"], "flatten": False})["sessionId"]
    expression = """self.registration.getNotifications().then((shown) => { for (const notification of shown) {
        self.dispatchEvent(new NotificationEvent('notificationclick', { notification, action: %s })); } })""" % json.dumps(action)
    browser.execute_cdp_cmd("Target.sendMessageToTarget", {"sessionId": session, "message": json.dumps(
        {"id": 1, "method": "Runtime.evaluate", "params": {"expression": expression}})})


def test_a_tracker_question_is_answered_from_its_notification(push_service, push_server, browser):
    """A tracker's question arrives at its minute with Yes and No; the service worker's Yes records
    the day without opening the app, and `momentum track --json` shows it."""
    server = push_server.start()
    status, body = server.api("POST", "/push/subscriptions", push_service.subscription("phone", "phone"))
    assert status == 201, body
    due, hh_mm = a_minute_ahead()
    later = datetime.datetime.fromtimestamp(due).astimezone()
    quiet = "-".join((later + datetime.timedelta(hours=h)).strftime("%H:%M") for h in (2, 3))
    assert push_server.command("remind", "settings", "--quiet", quiet).returncode == 0
    made = push_server.command("track", "add", "Alcohol-free", "--ask", hh_mm)
    assert made.returncode == 0, made.stderr
    wait_until(due + 8)
    [push] = push_service.pushes("/push/phone")
    assert due <= push["at"] <= due + 5, f"arrived {push['at'] - due:.2f} s after its minute"
    message = push_service.opened(push)
    assert message["kind"] == "tracker"
    assert message["title"] == "Alcohol-free today?"
    assert message["actions"] == [{"action": "yes", "title": "Yes"}, {"action": "no", "title": "No"}]
    [tracker] = json.loads(push_server.command("track", "--json").stdout)["trackers"]
    day = tracker["questionDay"]
    assert message["answer"] == {"path": f"/api/v1/trackers/{tracker['id']}/days/{day}"}
    assert "questionAnswer" not in tracker

    allow_notifications(browser, server)
    shown = deliver_to_service_worker(browser, server, json.dumps(message))
    assert [(n["title"], [a["action"] for a in n["actions"]], n["data"].get("answer")) for n in shown] == [
        ("Alcohol-free today?", ["yes", "no"], message["answer"]["path"])], shown
    windows = len(browser.window_handles)
    click_notification_action(browser, server, "yes")
    deadline = time.monotonic() + 10
    answered = None
    while time.monotonic() < deadline and answered is None:
        answered = json.loads(push_server.command("track", "--json").stdout)["trackers"][0].get("questionAnswer")
        time.sleep(0.2)  # polling the server's answer, not waiting for a result
    assert answered is True, push_server.logs()
    assert len(browser.window_handles) == windows, "answered without opening the app"
    push_server.stop()
