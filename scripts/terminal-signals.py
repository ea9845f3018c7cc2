#!/usr/bin/env python3
"""Real signals to a live practice in a pseudo-terminal (issue 38).

For a sit, a breathing session and a workout, each run in its own pseudo-terminal: SIGHUP, SIGTERM
and SIGINT sent with kill(2) 65 s in end the practice as Ctrl-C does — it is logged as stopped
early (about 65 s counted) and the command exits 129, 143 or 130. And SIGTSTP / SIGCONT: the
process stops with the terminal given back (canonical mode and echo on), and continues with single
keys again. The nine practices run at once, so the whole check takes about 70 s.

Usage: scripts/terminal-signals.py MOMENTUM_BINARY
"""
import json
import os
import pty
import select
import signal
import subprocess
import sys
import tempfile
import termios
import time

binary = sys.argv[1]
PRACTICES = [
    ["meditate", "2", "--countdown", "0", "--no-sound"],
    ["breathe", "box", "--rounds", "20", "--no-sound"],
    ["workout", "tabata", "--no-sound"],
]
SIGNALS = [(signal.SIGHUP, 129), (signal.SIGTERM, 143), (signal.SIGINT, 130)]
AFTER = 65.0


def spawn(home, arguments):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["MOMENTUM_HOME"] = home
        os.environ["LANG"] = "en_GB.UTF-8"
        os.execv(binary, [binary] + arguments)
    return pid, fd


def drain(fd):
    try:
        while select.select([fd], [], [], 0)[0]:
            if not os.read(fd, 65536):
                return
    except OSError:
        pass


def state(pid):
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def is_canonical(fd):
    lflag = termios.tcgetattr(fd)[3]
    return bool(lflag & termios.ICANON) and bool(lflag & termios.ECHO)


def wait_for(condition, seconds=5.0):
    end = time.time() + seconds
    while time.time() < end:
        if condition():
            return True
        time.sleep(0.05)
    return False


failures = []
root = tempfile.mkdtemp()

# Job control first (a few seconds): stop, the terminal given back; continue, single keys again.
home = os.path.join(root, "tstp")
pid, fd = spawn(home, PRACTICES[0])
time.sleep(2)
drain(fd)
if is_canonical(fd):
    failures.append("the sit did not take single keys")
os.kill(pid, signal.SIGTSTP)
if not wait_for(lambda: state(pid) == "T"):
    failures.append("SIGTSTP did not stop the sit")
elif not is_canonical(fd):
    failures.append("stopped, the terminal was not given back")
os.kill(pid, signal.SIGCONT)
if not wait_for(lambda: state(pid) != "T" and not is_canonical(fd)):
    failures.append("after SIGCONT the sit did not take single keys again")
os.kill(pid, signal.SIGTERM)
_, status = os.waitpid(pid, 0)
if os.waitstatus_to_exitcode(status) != 143:
    failures.append(f"after SIGTSTP/SIGCONT, SIGTERM exited {os.waitstatus_to_exitcode(status)}")
print("SIGTSTP / SIGCONT: checked")

# The nine practices at once, each sent its signal 65 s in.
runs = []
for practice in PRACTICES:
    for number, expected in SIGNALS:
        home = os.path.join(root, f"{practice[0]}-{number}")
        pid, fd = spawn(home, practice)
        runs.append((practice[0], number, expected, home, pid, fd))
start = time.time()
while time.time() - start < AFTER:
    for run in runs:
        drain(run[5])
    time.sleep(0.2)
for name, number, expected, home, pid, fd in runs:
    os.kill(pid, number)
for name, number, expected, home, pid, fd in runs:
    deadline = time.time() + 15
    while time.time() < deadline:
        drain(fd)
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        failures.append(f"{name}: still running 15 s after {signal.Signals(number).name}")
        continue
    code = os.waitstatus_to_exitcode(status)
    log = subprocess.run([binary, "log", "--json"], env={**os.environ, "MOMENTUM_HOME": home},
                         capture_output=True, text=True)
    records = json.loads(log.stdout or "[]")
    counted = [r["countedSeconds"] for r in records]
    line = f"{name} + {signal.Signals(number).name}: exit {code}, logged {counted}"
    print(line)
    if code != expected:
        failures.append(f"{line} (expected exit {expected})")
    if len(counted) != 1 or not 60 <= counted[0] <= 70:
        failures.append(f"{line} (expected one record of about 65 s)")

if failures:
    print("FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("all signals end the practice as Ctrl-C does")
