#!/usr/bin/env python3
"""Live latency of sync: two WebSocket clients of one `momentum serve` on loopback; 100 changes
pushed one at a time must each reach the other client, in order. Prints p50/p99 from the push
to the arrival at the other client.

    python3 scripts/sync-live-latency.py --binary .build/release/momentum   # starts its own server
    python3 scripts/sync-live-latency.py --url http://127.0.0.1:8080

Needs the websocket-client package (pip install websocket-client).
"""

import argparse
import json
import sys
import time

import synclib

try:
    import websocket  # websocket-client
except ImportError:
    sys.exit("sync-live-latency.py needs websocket-client: pip install websocket-client")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url")
    parser.add_argument("--binary", default=".build/debug/momentum")
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--token")
    arguments = parser.parse_args()
    count = max(1, min(arguments.changes, 10_000))

    process = None
    url = arguments.url
    if url is None:
        process, url, _ = synclib.start_server(arguments.binary)
    socket_url = url.replace("http://", "ws://") + "/api/v1/live"
    header = ["Authorization: Bearer " + arguments.token] if arguments.token else None
    pusher = websocket.create_connection(socket_url, timeout=10, header=header)
    other = websocket.create_connection(socket_url, timeout=10, header=header)
    for connection in (pusher, other):
        hello = json.loads(connection.recv())
        assert "head" in hello, hello

    server = synclib.Server(url, arguments.token)
    device = synclib.Device("browser@phone", "latency-phone")
    timer, changes = device.new_timer("Live")
    server.push(changes)
    for _ in changes:
        other.recv()

    latencies = []
    seqs = []
    for index in range(count):
        change = device.set("focusTimer", timer, "sortOrder", index)
        started = time.perf_counter()
        status, answer = server.push([change])
        if status != 200:
            sys.exit("push %d: HTTP %s %s" % (index, status, answer))
        message = json.loads(other.recv())
        latencies.append(time.perf_counter() - started)
        if message["change"]["value"] != index:
            sys.exit("change %d arrived out of order: %s" % (index, message))
        seqs.append(message["seq"])
    pusher.close()
    other.close()
    if process is not None:
        process.terminate()
        process.wait(timeout=30)
    in_order = seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    print("%d changes delivered to the other client, in order: %s" % (len(latencies), in_order))
    print("push → other client: p50 %.1f ms, p99 %.1f ms, max %.1f ms"
          % (1000 * synclib.percentile(latencies, 0.5), 1000 * synclib.percentile(latencies, 0.99),
             1000 * max(latencies)))
    sys.exit(0 if in_order else 1)


if __name__ == "__main__":
    main()
