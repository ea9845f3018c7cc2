"""A raw WebSocket handshake for the security scripts (security-matrix.py, reverse-proxy-nginx.sh):
the upgrade request sent as written, its status, and the first text frame. Python 3 standard library."""

import base64
import os
import re


def handshake(sock, path, host, headers=()):
    """Sends the upgrade for `path` on a connected `sock`; answers (status, first text frame or None).
    A status of 0 means the answer was not HTTP."""
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13", *headers]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    match = re.match(rb"HTTP/1\.[01] (\d{3})", head)
    if not match:
        return 0, None
    status = int(match.group(1))
    if status != 101:
        return status, None
    return status, read_text_frame(sock, rest)


def read_text_frame(sock, buffered):
    """The first frame the server sends (servers do not mask), as text."""
    data = buffered

    def need(count):
        nonlocal data
        while len(data) < count:
            chunk = sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed before a whole frame")
            data += chunk

    try:
        need(2)
        length = data[1] & 0x7F
        offset = 2
        if length == 126:
            need(4)
            length, offset = int.from_bytes(data[2:4], "big"), 4
        elif length == 127:
            need(10)
            length, offset = int.from_bytes(data[2:10], "big"), 10
        need(offset + length)
        return data[offset:offset + length].decode("utf-8", "replace")
    except (OSError, ConnectionError) as error:
        return f"<no frame: {error}>"
