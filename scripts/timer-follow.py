#!/usr/bin/env python3
"""`timer run` follows the stored timer while another process changes it (issue 38).

A 5-minute timer runs with `timer run NAME --no-sound` in a pseudo-terminal (the run starts it).
Another process of the same binary, on the same MOMENTUM_HOME, pauses, resumes and completes it:
each time the screen shows the new state ("paused", "running", "done") within a second of that
command returning; finished elsewhere, the run says so and exits 0.

Then a key on a finished timer: a second timer is paused from another process, and right after
its paused screen looked at the store, another process completes it and space is pressed at
once, before the screen's next look (it looks every 0.5 s while paused). The screen, still
showing "paused", takes the key — and the timer stays done: not started afresh, not running.
(`timer run` on a timer already done starts it afresh by design, so the key is pressed on a live
screen.) Each timer is logged as focus at most once.

Usage: scripts/timer-follow.py MOMENTUM_BINARY
"""
import json
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

binary = sys.argv[1]
FOLLOW = 1.0  # seconds the screen may take to show a change made by another process
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
HEADER = re.compile(r"^(.+?) · (\S+) · (\d\d:\d\d) left")
root = tempfile.mkdtemp()
home = os.path.join(root, "home")
environment = {**os.environ, "MOMENTUM_HOME": home, "LANG": "en_GB.UTF-8"}
children = []
failures = []


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


class Screen:
    """A `timer run` in a pseudo-terminal; every frame it draws, with the moment it was read."""

    def __init__(self, name):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ["MOMENTUM_HOME"] = home
            os.environ["LANG"] = "en_GB.UTF-8"
            try:
                os.execv(binary, [binary, "timer", "run", name, "--no-sound"])
            finally:
                os._exit(127)
        children.append(self)
        self.raw = b""  # everything written to the terminal
        self.parsed = 0  # how much of it was split into frames
        self.frames = []  # (time read, status word shown)
        self.exit_code = None
        self.closed = False

    def pump(self, seconds):
        """Reads what the program writes for up to `seconds` (returns early once data came)."""
        if self.closed:
            time.sleep(seconds)
            return
        try:
            if not select.select([self.fd], [], [], seconds)[0]:
                return
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the program ended and the terminal closed
            data = b""
        if not data:
            self.closed = True
            return
        now = time.monotonic()
        self.raw += data
        # A frame ends with "clear to the end of the screen"; its first line is the header.
        while b"\x1b[J" in self.raw[self.parsed:]:
            end = self.raw.index(b"\x1b[J", self.parsed)
            shown = ANSI.sub("", self.raw[self.parsed:end].decode("utf-8", "replace")).replace("\r", "")
            self.parsed = end + 3
            header = next(filter(None, map(HEADER.match, shown.splitlines())), None)
            if header:
                self.frames.append((now, header.group(2)))

    @property
    def text(self):
        """Everything shown, escapes removed."""
        return ANSI.sub("", self.raw.decode("utf-8", "replace")).replace("\r", "")

    def first(self, status, after):
        """The moment the first frame read after `after` showed `status`, else None."""
        return next((t for t, shown in self.frames if t >= after and shown == status), None)

    def wait_for(self, status, after, seconds=3.0):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            found = self.first(status, after)
            if found is not None:
                return found
            self.pump(0.005)
        return None

    def ended(self):
        if self.exit_code is None:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.exit_code = os.waitstatus_to_exitcode(status)
        return self.exit_code is not None

    def wait_end(self, seconds=5.0):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.pump(0.02)
            if self.ended():
                rest = time.monotonic() + 1.0
                while not self.closed and time.monotonic() < rest:  # what is left in the terminal
                    self.pump(0.05)
                return True
        return False

    def stop(self):
        if not self.ended():
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        try:
            os.close(self.fd)
        except OSError:
            pass


def momentum(*arguments, screen=None):
    """Runs the binary as another process, reading `screen` meanwhile; returns the result and
    the moments it was started and returned."""
    started = time.monotonic()
    process = subprocess.Popen([binary, *arguments], env=environment,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while process.poll() is None:
        if time.monotonic() - started > 20:
            process.kill()
            process.wait()
            fail(f"`momentum {' '.join(arguments)}` still running after 20 s")
        if screen:
            screen.pump(0.001)
        else:
            time.sleep(0.001)
    returned = time.monotonic()
    out, err = process.communicate()
    if process.returncode != 0:
        fail(f"`momentum {' '.join(arguments)}` exited {process.returncode}: {err.strip()}")
    return out, started, returned


def stored_status(name):
    out, _, _ = momentum("timer", "show", name, "--json")
    return json.loads(out)["status"]


def change(screen, name, command, shows):
    """`timer COMMAND NAME` from another process; the seconds until the screen showed `shows`."""
    _, started, returned = momentum("timer", command, name, screen=screen)
    seen = screen.wait_for(shows, after=started, seconds=FOLLOW + 2)
    if seen is None:
        fail(f"after `timer {command}` the screen did not show “{shows}” within {FOLLOW + 2:.0f} s;"
             f" frames since: {[s for t, s in screen.frames if t >= started]}\n{screen.text[-600:]}")
    latency = max(0.0, seen - returned)
    line = (f"{command}: “{shows}” shown {latency:.2f} s after `timer {command}` returned"
            f" ({seen - started:.2f} s after it started)")
    print(line)
    if latency > FOLLOW:
        failures.append(f"{line}: more than {FOLLOW:.1f} s")
    return latency


try:
    momentum("timer", "add", "Tea", "5")

    # 1. Pause, resume and complete from another process; the screen follows each.
    tea = Screen("tea")
    if tea.wait_for("running", after=0, seconds=10) is None:
        fail(f"`timer run tea` did not show a running countdown within 10 s:\n{tea.text[-600:]}")
    if stored_status("tea") != "running":
        fail("`timer run tea` did not start the timer")
    change(tea, "tea", "pause", "paused")
    if stored_status("tea") != "paused":
        fail("`timer pause` did not pause the stored timer")
    change(tea, "tea", "resume", "running")
    change(tea, "tea", "complete", "done")
    if not tea.wait_end(5):
        fail(f"finished elsewhere, `timer run tea` still runs 5 s later:\n{tea.text[-600:]}")
    if tea.exit_code != 0:
        failures.append(f"finished elsewhere, `timer run tea` exited {tea.exit_code}")
    if "“Tea” is done" not in tea.text:
        failures.append(f"finished elsewhere, the run did not say so:\n{tea.text[-400:]}")
    print(f"finished elsewhere: the run said {tea.text.strip().splitlines()[-1]!r} and exited"
          f" {tea.exit_code}")
    if stored_status("tea") != "completed":
        failures.append(f"“Tea” is {stored_status('tea')} after `timer complete`")

    # 2. Space on a paused screen whose timer was just finished elsewhere. Right after a look at
    # the store (a fresh paused frame), so the next look is 0.5 s away and the key comes first;
    # should the screen notice the finish before the key (a slow machine), again with a new timer.
    names = []
    for attempt in range(1, 4):
        name = f"Walk{attempt}"
        names.append(name)
        momentum("timer", "add", name, "5")
        walk = Screen(name.lower())
        if walk.wait_for("running", after=0, seconds=10) is None:
            fail(f"`timer run {name}` did not show a running countdown within 10 s:\n{walk.text[-600:]}")
        change(walk, name, "pause", "paused")
        look = walk.wait_for("paused", after=time.monotonic(), seconds=2)
        if look is None:
            fail(f"the paused screen did not look at the store again within 2 s:\n{walk.text[-600:]}")
        _, started, returned = momentum("timer", "complete", name, screen=walk)
        key = time.monotonic()
        noticed_first = walk.first("done", after=0) is not None or walk.ended()
        if not noticed_first:
            os.write(walk.fd, b" ")
        done = walk.wait_for("done", after=0, seconds=FOLLOW + 2)
        if done is None:
            fail(f"finished elsewhere (and a key), the screen did not show “done”:\n{walk.text[-600:]}")
        if not walk.wait_end(5):
            fail(f"finished elsewhere, `timer run {name}` still runs 5 s later:\n{walk.text[-600:]}")
        if walk.exit_code != 0:
            failures.append(f"after the key on a finished timer, `timer run {name}` exited {walk.exit_code}")
        time.sleep(1.0)  # a late start would show now
        status = stored_status(name)
        if status != "completed":
            failures.append(f"a key on a finished timer: “{name}” is {status}, not completed")
        # The key counts if the screen took it: "done" came before the paused screen's next look.
        if not noticed_first and done - look < 0.45:
            print(f"space pressed {key - look:.2f} s after the paused screen's last look, “{name}”"
                  f" done elsewhere: “done” shown {done - key:.3f} s after the key; stored: {status}")
            break
        print(f"attempt {attempt}: inconclusive, "
              + (f"the screen noticed the finish before the key could be pressed (`timer complete`"
                 f" took {returned - started:.2f} s)" if noticed_first else
                 f"“done” came {done - look:.2f} s after the last look, so from the screen's own look,"
                 " not the key")
              + "; again with a new timer")
    else:
        fail("in three attempts the key never reached a paused screen before its next look")
    out, _, _ = momentum("timer", "list", "--json")
    running = [t["name"] for t in json.loads(out) if t.get("status") == "running"]
    if running:
        failures.append(f"running after the key: {running}")

    # 3. Each finish logged as focus at most once.
    out, _, _ = momentum("log", "--json")
    focus = [r for r in json.loads(out or "[]") if r["kind"] == "focus"]
    for name in ["Tea"] + names:
        count = sum(1 for r in focus if r.get("details", {}).get("timer") == name)
        print(f"{name}: {count} focus record(s) logged")
        if count > 1:
            failures.append(f"“{name}” logged {count} times")
    if len(focus) > 1 + len(names):
        failures.append(f"{len(focus)} focus records for {1 + len(names)} timers finished once each")
finally:
    for screen in children:
        screen.stop()
    shutil.rmtree(root, ignore_errors=True)

if failures:
    print("FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("ok")
