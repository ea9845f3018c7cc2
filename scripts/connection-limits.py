#!/usr/bin/env python3
"""The connection attacks of issue 46 against a real `momentum serve`: malformed and slow clients
must not hold the server.

Usage: python3 scripts/connection-limits.py PATH/TO/momentum [--quick]

Starts its own server on a free loopback port (pinned to CPU 0 with taskset when there are two
cores or more; the attackers run on the others) and checks, over real sockets:

1. Each malformed request of the issue (a control byte in a header or the path, a bad method or
   HTTP version, a header line without a colon, obs-fold, a bare CR, a 200 KB header, a raw 0xE9
   byte, Transfer-Encoding with Content-Length, a negative or a duplicated Content-Length) is
   answered 400 or closed within MALFORMED_LIMIT seconds.
2. A body trickling in (a 1,000,000-byte Content-Length, one byte every 5 s) is cut within the
   body timeout (20 s, docs/security.md) plus slack.
3. The flood: 5,000 connections sending malformed requests and trying to stay open, and 500 slow
   bodies, opened 1,000 a second, while /health is asked every 50 ms on its own connection: every /health
   answers, within HEALTH_LIMIT_MS, and the server's open file descriptors (read from /proc) stay
   under its cap (RLIMIT_NOFILE, from /proc/PID/limits).

`--quick` runs the flood with a tenth of the connections. Exits 1 on any failure, printing it.
"""

import importlib.util
import multiprocessing
import os
import re
import selectors
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("security_matrix", os.path.join(HERE, "security-matrix.py"))
matrix = importlib.util.module_from_spec(spec)
spec.loader.exec_module(matrix)

MALFORMED_LIMIT = 2.0     # seconds: a malformed head is answered at once
BODY_TIMEOUT = 20         # docs/security.md: a body's first bytes within 20 s, then 500 bytes/s
BODY_LIMIT = BODY_TIMEOUT + 10
HEALTH_LIMIT_MS = 100

HOST = b"Host: 127.0.0.1\r\n"
MALFORMED = {
    "a control byte in a header value": b"GET /health HTTP/1.1\r\n" + HOST + b"X-A: a\x01b\r\n\r\n",
    "a bad method": b"G@T /health HTTP/1.1\r\n" + HOST + b"\r\n",
    "a bad HTTP version": b"GET /health HTTP/9.9\r\n" + HOST + b"\r\n",
    "a header line without a colon": b"GET /health HTTP/1.1\r\n" + HOST + b"NoColonHere\r\n\r\n",
    "obs-fold": b"GET /health HTTP/1.1\r\n" + HOST + b"X-A: a\r\n folded\r\n\r\n",
    "a bare CR": b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\rX-A: a\r\n\r\n",
    "a 200 KB header": b"GET /health HTTP/1.1\r\n" + HOST + b"X-A: " + b"a" * 200_000 + b"\r\n\r\n",
    "a control byte in the path": b"GET /hea\x01lth HTTP/1.1\r\n" + HOST + b"\r\n",
    "a raw 0xE9 byte": b"GET /h\xe9alth HTTP/1.1\r\n" + HOST + b"\r\n",
    "Transfer-Encoding with Content-Length":
        b"POST /health HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
    "a negative Content-Length": b"POST /health HTTP/1.1\r\n" + HOST + b"Content-Length: -1\r\n\r\n",
    "a duplicated Content-Length":
        b"POST /health HTTP/1.1\r\n" + HOST + b"Content-Length: 3\r\nContent-Length: 4\r\n\r\n",
    "a control byte in a header name": b"GET /health HTTP/1.1\r\n" + HOST + b"X-\x02A: a\r\n\r\n",
    "a space before the colon": b"GET /health HTTP/1.1\r\n" + HOST + b"X-A : a\r\n\r\n",
    "a NUL in the request line": b"GET /health\x00 HTTP/1.1\r\n" + HOST + b"\r\n",
    "no request target": b"GET HTTP/1.1\r\n" + HOST + b"\r\n",
    "a Content-Length that is not a number": b"POST /health HTTP/1.1\r\n" + HOST + b"Content-Length: 1x\r\n\r\n",
    "bare line feeds": b"GET /health HTTP/1.1\nHost: 127.0.0.1\n\n",
    "a bad chunk size":
        b"POST /health HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n",
}
SLOW_BODY_HEAD = (b"POST /api/v1/timers HTTP/1.1\r\n" + HOST
                  + b"Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n")

failures = []


def check(what, ok, detail=""):
    print(f"  {'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if detail else ""), flush=True)
    if not ok:
        failures.append(f"{what}: {detail}")


def answer_or_close(port, payload, limit):
    """(seconds, status or None) until the server answered and closed, or (None, status) if still open."""
    started = time.monotonic()
    received = b""
    with socket.create_connection(("127.0.0.1", port), timeout=limit) as sock:
        try:
            sock.sendall(payload)
        except OSError:
            return time.monotonic() - started, None
        sock.settimeout(0.2)
        while time.monotonic() - started < limit:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                chunk = b""
            if chunk == b"":
                match = re.match(rb"HTTP/1\.1 (\d{3})", received)
                return time.monotonic() - started, int(match.group(1)) if match else None
            received += chunk
    match = re.match(rb"HTTP/1\.1 (\d{3})", received)
    return None, int(match.group(1)) if match else None


def malformed_checks(port):
    print("== each malformed request: 400 or closed at once", flush=True)
    for name, payload in MALFORMED.items():
        seconds, status = answer_or_close(port, payload, MALFORMED_LIMIT + 3)
        ok = seconds is not None and seconds <= MALFORMED_LIMIT and status in (None, 400)
        shown = f"{status or 'closed'} after {seconds:.2f} s" if seconds is not None else f"{status}, still open"
        check(f"{name} → 400 or closed within {MALFORMED_LIMIT} s", ok, shown)


def slow_body_check(port):
    print(f"== a body trickling in is cut within {BODY_LIMIT} s", flush=True)
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
        sock.sendall(SLOW_BODY_HEAD)
        last = started
        closed = None
        while time.monotonic() - started < BODY_LIMIT + 20:
            if time.monotonic() - last >= 5:
                try:
                    sock.sendall(b"{")
                except OSError:
                    closed = time.monotonic() - started
                    break
                last = time.monotonic()
            try:
                if sock.recv(4096) == b"":
                    closed = time.monotonic() - started
                    break
            except socket.timeout:
                continue
            except OSError:
                closed = time.monotonic() - started
                break
    check(f"a body of one byte every 5 s is cut within {BODY_LIMIT} s",
          closed is not None and closed <= BODY_LIMIT,
          f"cut after {closed:.1f} s" if closed is not None else "still open")


def attacker(port, malformed, slow, seconds, rate, queue):
    """Opens `malformed` connections sending malformed heads and `slow` slow bodies, `rate` a
    second, and tries to keep every one open; reports how long each lasted. It runs at a lower
    priority (nice 10) than the /health prober sharing its core, so that the latency measured is
    the server's and not the prober waiting behind its own load generator."""
    os.nice(10)
    selector = selectors.DefaultSelector()
    payloads = list(MALFORMED.values())
    open_at = {}
    closed_after = {"malformed": [], "slow": []}
    refused = 0
    started = time.monotonic()
    slow_socks = []
    total = malformed + slow
    every = max(1, total // max(1, slow))
    last_trickle = time.monotonic()

    def poll(timeout):
        nonlocal last_trickle
        for key, _ in selector.select(timeout=timeout):
            sock = key.fileobj
            try:
                data = sock.recv(65536)
            except OSError:
                data = b""
            if data == b"":
                closed_after[key.data].append(time.monotonic() - open_at.pop(sock))
                selector.unregister(sock)
                sock.close()
        if time.monotonic() - last_trickle >= 5:
            last_trickle = time.monotonic()
            for sock in slow_socks:
                if sock in open_at:
                    try:
                        sock.send(b"{")
                    except OSError:
                        pass

    for index in range(total):
        kind = "slow" if index % every == 0 and len(slow_socks) < slow else "malformed"
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=2)
            sock.sendall(SLOW_BODY_HEAD if kind == "slow" else payloads[index % len(payloads)])
        except OSError:
            refused += 1
            continue
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, kind)
        open_at[sock] = time.monotonic()
        if kind == "slow":
            slow_socks.append(sock)
        # Keep to `rate` connections a second, reading what the server answers meanwhile.
        while time.monotonic() - started < (index + 1) / rate:
            poll(0.005)
    while time.monotonic() - started < seconds and open_at:
        poll(0.2)
    still_open = {"malformed": 0, "slow": 0}
    for sock in list(open_at):
        still_open[selector.get_key(sock).data] += 1
        sock.close()
    queue.put({"closed_after": closed_after, "still_open": still_open, "refused": refused,
               "opening_seconds": total / rate})


def open_descriptors(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def descriptor_cap(pid):
    with open(f"/proc/{pid}/limits") as limits:
        for line in limits:
            if line.startswith("Max open files"):
                return int(line.split()[3])
    return None


def flood_check(server, malformed, slow):
    print(f"== {malformed} malformed and {slow} slow connections (1,000 a second, each kept open as long as the "
          "server lets it) while /health is asked every 50 ms", flush=True)
    pid = server.process.pid
    cap = descriptor_cap(pid)
    rate = 1000
    seconds = (malformed + slow) / rate + BODY_LIMIT + 5
    queue = multiprocessing.Queue()
    process = multiprocessing.Process(target=attacker, args=(server.port, malformed, slow, seconds, rate, queue))
    process.start()
    if os.cpu_count() and os.cpu_count() > 1:
        subprocess.run(["taskset", "-p", "-c", f"1-{os.cpu_count() - 1}", str(process.pid)],
                       capture_output=True, check=False)
    latencies, moments, failed, peak = [], [], 0, 0
    started = time.monotonic()
    while process.is_alive() or time.monotonic() - started < 3:
        begun = time.monotonic()
        try:
            with socket.create_connection(("127.0.0.1", server.port), timeout=2) as sock:
                sock.sendall(f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nConnection: close\r\n\r\n"
                             .encode())
                head = sock.recv(4096)
            if head.startswith(b"HTTP/1.1 200"):
                latencies.append((time.monotonic() - begun) * 1000)
                moments.append((latencies[-1], begun - started))
            else:
                failed += 1
        except OSError:
            failed += 1
        peak = max(peak, open_descriptors(pid) or 0)
        time.sleep(max(0.0, 0.05 - (time.monotonic() - begun)))
        if time.monotonic() - started > seconds + 30:
            break
    process.join(30)
    result = queue.get(timeout=10) if not queue.empty() else None
    if not latencies:
        check("/health answered during the flood", False, "never")
        return
    latencies.sort()
    p50 = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    worst = latencies[-1]
    print(f"  /health: {len(latencies)} answers, p50 {p50:.1f} ms, p99 {p99:.1f} ms, worst {worst:.1f} ms, "
          f"{failed} failed; peak open descriptors {peak} (cap {cap})", flush=True)
    slowest = ", ".join(f"{ms:.0f} ms at {at:.1f} s" for ms, at in sorted(moments, reverse=True)[:5])
    print(f"  slowest /health answers: {slowest}", flush=True)
    check("/health answered every time during the flood", failed == 0, f"{failed} failed")
    check(f"/health always answered within {HEALTH_LIMIT_MS} ms", worst < HEALTH_LIMIT_MS, f"worst {worst:.1f} ms")
    check("the server's open descriptors stayed under its cap", cap is None or peak < cap, f"peak {peak}, cap {cap}")
    if result is None:
        check("the attacker reported", False, "no report")
        return
    closed = result["closed_after"]
    still = result["still_open"]
    slowest_malformed = max(closed["malformed"], default=0)
    slowest_body = max(closed["slow"], default=0)
    print(f"  malformed: {len(closed['malformed'])} closed (slowest {slowest_malformed:.2f} s), "
          f"{still['malformed']} still open; slow bodies: {len(closed['slow'])} closed (slowest "
          f"{slowest_body:.1f} s), {still['slow']} still open; {result['refused']} refused", flush=True)
    check("every malformed connection closed by the server", still["malformed"] == 0,
          f"{still['malformed']} still open")
    check(f"every malformed connection closed within {MALFORMED_LIMIT} s", slowest_malformed <= MALFORMED_LIMIT,
          f"slowest {slowest_malformed:.2f} s")
    check("every slow body cut", still["slow"] == 0, f"{still['slow']} still open")
    check(f"slow bodies cut within {BODY_LIMIT} s", slowest_body <= BODY_LIMIT, f"slowest {slowest_body:.1f} s")


def main():
    args = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
    quick = "--quick" in sys.argv
    if len(args) != 1 or not os.access(args[0], os.X_OK):
        sys.exit("usage: connection-limits.py PATH/TO/momentum [--quick]")
    binary = os.path.abspath(args[0])
    server = matrix.MomentumServer(binary, "connections")
    server.start()
    if os.cpu_count() and os.cpu_count() > 1:
        subprocess.run(["taskset", "-p", "-c", "0", str(server.process.pid)], capture_output=True, check=False)
        os.sched_setaffinity(0, set(range(1, os.cpu_count())))
    started = time.monotonic()
    try:
        malformed_checks(server.port)
        slow_body_check(server.port)
        scale = 10 if quick else 1
        flood_check(server, 5000 // scale, 500 // scale)
        check("the server is still running", server.alive(), "" if server.alive() else "it exited")
    finally:
        server.cleanup()
    print(f"\nconnection limits: {time.monotonic() - started:.0f} s, {len(failures)} failures")
    for failure in failures:
        print(f"  FAIL {failure}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
