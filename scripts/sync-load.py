#!/usr/bin/env python3
"""Load test of sync: simulated devices push and pull against one `momentum serve` on loopback.

    python3 scripts/sync-load.py --binary .build/release/momentum          # starts its own server
    python3 scripts/sync-load.py --url http://127.0.0.1:8080 --seconds 10  # a running one

Bounded in time (--seconds, default 60) and count (--devices, default 200; each device makes at
most --max-pushes pushes). Every device makes its own timers, items and practice records, and all
of them edit a few shared timers (conflicts); each pushes a small batch, waits 0.5–1.5 s, and
every few pushes pulls a page after its cursor. At the end one full pull from 0 must contain
every change any device had acknowledged or one that beats it (compaction drops beaten changes),
and the last write of every field must be the one with the highest stamp. Prints errors, changes, and p50/p99 push latency; exits 1 on any error
or lost change.
"""

import argparse
import random
import sys
import threading
import time

import synclib


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="a running server (loopback only); default: start one")
    parser.add_argument("--binary", default=".build/debug/momentum", help="momentum to start")
    parser.add_argument("--devices", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--max-pushes", type=int, default=200, help="per device")
    parser.add_argument("--token")
    arguments = parser.parse_args()
    arguments.devices = max(1, min(arguments.devices, 1000))
    arguments.seconds = max(1, min(arguments.seconds, 600))

    process = None
    url = arguments.url
    if url is None:
        process, url, _ = synclib.start_server(arguments.binary)
    host = synclib.urlparse(url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("sync-load.py only runs against a loopback server, not %s" % host)

    # Shared timers every device edits.
    founder = synclib.Device("load@founder", "load-founder")
    shared = []
    batch = []
    for index in range(5):
        timer, changes = founder.new_timer("Shared %d" % index)
        shared.append(timer)
        batch += changes
    status, answer = synclib.Server(url, arguments.token).push(batch)
    if status != 200:
        sys.exit("the first push failed: %s %s" % (status, answer))

    lock = threading.Lock()
    acknowledged = list(batch)
    latencies = []
    errors = []
    pulled = [0]
    deadline = time.time() + arguments.seconds

    def device_loop(number):
        rng = random.Random(number)
        device = synclib.Device("load@device-%03d" % number, "load-%03d" % number)
        server = synclib.Server(url, arguments.token)
        own_timers, own_items = [], []
        cursor = 0
        pushes = 0
        while time.time() < deadline and pushes < arguments.max_pushes:
            choice = rng.random()
            if not own_timers or choice < 0.1:
                timer, changes = device.new_timer("Timer %d of %d" % (len(own_timers), number))
                own_timers.append(timer)
                item, more = device.new_item(timer, "First step")
                own_items.append(item)
                changes += more
            elif choice < 0.4:
                changes = [device.set("checklistItem", rng.choice(own_items), "done", rng.random() < 0.5)]
            elif choice < 0.6:
                changes = [device.set("focusTimer", rng.choice(shared), "sortOrder", rng.randint(0, 1000)),
                           device.set("focusTimer", rng.choice(shared), "notes", "by %d at %d" % (number, pushes))]
            elif choice < 0.8:
                changes = device.new_record()
            else:
                changes = [device.set("focusTimer", rng.choice(own_timers), "name", "Renamed %d/%d" % (number, pushes))]
            started = time.perf_counter()
            try:
                status, answer = server.push(changes)
            except Exception as error:  # noqa: BLE001 - every failure counts
                status, answer = None, repr(error)
            elapsed = time.perf_counter() - started
            with lock:
                if status == 200 and len(answer.get("seqs", [])) == len(changes):
                    acknowledged.extend(changes)
                    latencies.append(elapsed)
                else:
                    errors.append(("push", number, status, answer))
            pushes += 1
            if pushes % 5 == 0:
                try:
                    status, page = server.pull(cursor, 500)
                    if status == 200:
                        cursor = page["last"]
                        with lock:
                            pulled[0] += len(page["changes"])
                    else:
                        with lock:
                            errors.append(("pull", number, status, page))
                except Exception as error:  # noqa: BLE001
                    with lock:
                        errors.append(("pull", number, None, repr(error)))
            time.sleep(rng.uniform(0.5, 1.5))

    threads = [threading.Thread(target=device_loop, args=(n,), daemon=True) for n in range(arguments.devices)]
    began = time.time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=arguments.seconds + 120)
    duration = time.time() - began

    # Nothing lost: every acknowledged change is in the server's log or beaten by one there — a
    # newer write of its field, or a deletion of its entity (compaction drops those as pushes are
    # merged, docs/sync.md) — and each field's last write there is the highest-stamped
    # acknowledged one.
    log = synclib.Server(url, arguments.token).pull_all(0)
    logged = {(c["change"]["stamp"], c["change"]["type"], c["change"]["id"], c["change"].get("field"))
              for c in log}
    newest_write, newest_deletion = {}, {}
    for entry in log:
        change = entry["change"]
        if change["op"] == "delete":
            key = (change["type"], change["id"])
            newest_deletion[key] = max(newest_deletion.get(key, ""), change["stamp"])
        else:
            key = (change["type"], change["id"], change.get("field"))
            newest_write[key] = max(newest_write.get(key, ""), change["stamp"])

    def kept_or_beaten(change):
        if (change["stamp"], change["type"], change["id"], change.get("field")) in logged:
            return True
        deletion = newest_deletion.get((change["type"], change["id"]))
        if change["op"] == "delete":
            return deletion is not None and deletion > change["stamp"]
        return deletion is not None or newest_write.get(
            (change["type"], change["id"], change.get("field")), "") > change["stamp"]

    lost = [c for c in acknowledged if not kept_or_beaten(c)]
    seqs = [c["seq"] for c in log]
    gaps = seqs != sorted(seqs) or len(set(seqs)) != len(seqs)
    winners = {}
    for change in acknowledged:
        key = (change["type"], change["id"], change.get("field"))
        if key not in winners or change["stamp"] > winners[key]["stamp"]:
            winners[key] = change
    server_winners = {}
    for entry in log:
        change = entry["change"]
        key = (change["type"], change["id"], change.get("field"))
        if key not in server_winners or change["stamp"] > server_winners[key]["stamp"]:
            server_winners[key] = change
    wrong = [k for k, c in winners.items() if server_winners.get(k, {}).get("stamp") != c["stamp"]]

    if process is not None:
        process.terminate()
        process.wait(timeout=30)

    print("devices %d, %.1f s, pushes %d, changes acknowledged %d, log %d, pulled by devices %d"
          % (arguments.devices, duration, len(latencies), len(acknowledged), len(log), pulled[0]))
    print("errors %d, lost changes %d, wrong winners %d, log out of order %s"
          % (len(errors), len(lost), len(wrong), gaps))
    print("push latency: p50 %.1f ms, p99 %.1f ms, max %.1f ms"
          % (1000 * synclib.percentile(latencies, 0.5), 1000 * synclib.percentile(latencies, 0.99),
             1000 * max(latencies or [0])))
    for error in errors[:5]:
        print("  error:", error)
    sys.exit(1 if errors or lost or wrong or gaps else 0)


if __name__ == "__main__":
    main()
