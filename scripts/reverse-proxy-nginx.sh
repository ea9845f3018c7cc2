#!/usr/bin/env bash
# Momentum behind Debian's nginx, as docs/security.md describes it: HTTP and HTTPS (a self-signed
# certificate) in front of `momentum serve`, WebSocket upgrade, streamed audio and large uploads.
#
# Usage: bash scripts/reverse-proxy-nginx.sh PATH/TO/momentum
#
# Installs nginx (apt) if missing. Everything lives in a temporary directory: the config
# (nginx -p TMP -c TMP/nginx.conf, `daemon off`, pid, logs and temp paths inside TMP), the
# certificate and the server's MOMENTUM_HOME; no system config is read or written. nginx listens on
# free loopback ports and proxies to `momentum serve --host 0.0.0.0 --allowed-host momentum.test`
# on another (off loopback, so tokens are required as they would be for a phone; nginx adds TLS).
#
# Checks through the proxy, over http:// and https://: /health; that a request without a token is
# refused (401) and one with a bearer token answers; a JSON write; the WebSocket upgrade to
# /api/v1/live (101 and a first frame {"head":…}, with a bearer token and with the session cookie);
# a login cookie marked Secure over https only; that a foreign Origin (403, also for the WebSocket)
# and a foreign Host (421) are refused through the proxy too; and over https a 2.5 MB upload (over
# nginx's default body limit) read back whole and as a range. Prints every check, exits non-zero if
# any failed. Takes about 5 seconds once nginx is installed.
set -euo pipefail
momentum=$(realpath "${1:?usage: reverse-proxy-nginx.sh PATH/TO/momentum}")
cd "$(dirname "$0")"

if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    echo "== installing nginx"
    apt-get update -qq && apt-get install -y -qq nginx >/dev/null
fi
nginx=$(command -v nginx || echo /usr/sbin/nginx)

tmp=$(mktemp -d)
chmod 755 "$tmp"
mkdir -p "$tmp/logs" "$tmp/temp" "$tmp/home"
chmod 777 "$tmp/temp"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
app_port=$(free_port)
http_port=$(free_port)
https_port=$(free_port)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT

echo "== momentum serve on 0.0.0.0:$app_port (a token, --allowed-host momentum.test)"
export MOMENTUM_HOME="$tmp/home"
token=$("$momentum" token create --name proxy | sed -n 2p)
"$momentum" serve --host 0.0.0.0 --port "$app_port" --allowed-host momentum.test >"$tmp/logs/momentum.log" 2>&1 &
pids+=($!)

echo "== self-signed certificate for momentum.test"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=momentum.test" \
    -addext "subjectAltName=DNS:momentum.test" \
    -keyout "$tmp/momentum.key" -out "$tmp/momentum.crt" 2>/dev/null

# The configuration docs/security.md shows (there with the real name, ports 80/443 and paths).
cat >"$tmp/nginx.conf" <<EOF
daemon off;
worker_processes 1;
pid $tmp/nginx.pid;
error_log $tmp/logs/error.log warn;
events { worker_connections 128; }

http {
    access_log $tmp/logs/access.log;
    client_body_temp_path $tmp/temp/body;
    proxy_temp_path $tmp/temp/proxy;
    fastcgi_temp_path $tmp/temp/fastcgi;
    uwsgi_temp_path $tmp/temp/uwsgi;
    scgi_temp_path $tmp/temp/scgi;

    # "Connection: upgrade" only when the client asks for a WebSocket, so other requests keep
    # their keep-alive to the backend.
    map \$http_upgrade \$connection_upgrade {
        default upgrade;
        ''      close;
    }

    server {
        listen 127.0.0.1:$http_port;
        listen 127.0.0.1:$https_port ssl;
        server_name momentum.test;

        ssl_certificate     $tmp/momentum.crt;
        ssl_certificate_key $tmp/momentum.key;
        ssl_protocols       TLSv1.2 TLSv1.3;

        # Library uploads (momentum serve --max-upload-mb, default 500 MiB); every other body is
        # limited to 1 MiB by Momentum itself.
        client_max_body_size 500m;

        location / {
            proxy_pass http://127.0.0.1:$app_port;
            proxy_http_version 1.1;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-Proto \$scheme;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            # Audio streams and the live feed go through as they come; uploads stream to Momentum.
            proxy_buffering off;
            proxy_request_buffering off;
            # The live feed WebSocket stays open while the app is.
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
        }
    }
}
EOF
echo "== nginx on 127.0.0.1:$http_port (http) and :$https_port (https) → momentum :$app_port"
"$nginx" -t -p "$tmp" -c "$tmp/nginx.conf" 2>&1 | grep -v "^$" || { echo "FAIL: nginx -t" >&2; exit 1; }
"$nginx" -p "$tmp" -c "$tmp/nginx.conf" >"$tmp/logs/nginx.out" 2>&1 &
pids+=($!)

for _ in $(seq 100); do
    curl -sf -o /dev/null -H "Host: momentum.test" "http://127.0.0.1:$http_port/health" && break
    sleep 0.2
done

echo "== curl -k over https"
code=$(curl -sk -o /dev/null -w '%{http_code}' --resolve "momentum.test:$https_port:127.0.0.1" \
    "https://momentum.test:$https_port/health")
[ "$code" = 200 ] || { echo "FAIL: https /health answered $code" >&2; tail "$tmp/logs/error.log" >&2; exit 1; }
echo "  https://momentum.test:$https_port/health → 200"

echo "== checks through the proxy"
python3 - "$http_port" "$https_port" "$token" <<'PY'
import base64, http.client, io, json, os, re, socket, ssl, sys, wave
sys.path.insert(0, os.getcwd())  # the scripts folder: the script runs from it
import wslib

http_port, https_port, token = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
insecure = ssl.create_default_context()
insecure.check_hostname = False
insecure.verify_mode = ssl.CERT_NONE
failures = []


def check(name, ok, detail=""):
    print(f"  {'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"))
    if not ok:
        failures.append(name)


def connect(scheme):
    if scheme == "https":
        return http.client.HTTPSConnection("127.0.0.1", https_port, timeout=15, context=insecure)
    return http.client.HTTPConnection("127.0.0.1", http_port, timeout=15)


def call(scheme, method, path, headers=None, body=None, host="momentum.test"):
    connection = connect(scheme)
    port = https_port if scheme == "https" else http_port
    connection.request(method, path, body=body, headers=dict({"Host": f"{host}:{port}"}, **(headers or {})))
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, data


def websocket(scheme, headers):
    port = https_port if scheme == "https" else http_port
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    if scheme == "https":
        sock = insecure.wrap_socket(sock, server_hostname="momentum.test")
    try:
        return wslib.handshake(sock, "/api/v1/live", f"momentum.test:{port}", headers)
    finally:
        sock.close()


def audio(seconds, rate=8000):
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(rate)
        file.writeframes(os.urandom(int(seconds * rate) * 2))
    return buffer.getvalue()


bearer = {"Authorization": f"Bearer {token}"}
json_type = {"Content-Type": "application/json"}
for scheme in ("http", "https"):
    port = https_port if scheme == "https" else http_port
    own = f"{scheme}://momentum.test:{port}"
    print(f" {scheme}://momentum.test:{port}")
    status, _, _ = call(scheme, "GET", "/health")
    check("/health → 200", status == 200, status)
    status, _, _ = call(scheme, "GET", "/api/v1/timers")
    check("API without a token → 401", status == 401, status)
    status, _, _ = call(scheme, "GET", "/api/v1/timers", bearer)
    check("API with a bearer token → 200", status == 200, status)
    status, _, body = call(scheme, "POST", "/api/v1/timers", dict(bearer, **json_type, Origin=own),
                           json.dumps({"name": f"Through {scheme}", "durationMs": 60000}))
    check("JSON write from the proxy's own origin → 201", status == 201, f"{status} {body[:200]!r}")
    status, _, body = call(scheme, "POST", "/api/v1/timers", dict(bearer, **json_type, Origin="http://evil.example"),
                           json.dumps({"name": "Evil", "durationMs": 60000}))
    check("write from a foreign Origin → 403", status == 403, f"{status} {body[:200]!r}")
    status, _, body = call(scheme, "GET", "/api/v1/timers", bearer, host="rebind.evil.example")
    check("foreign Host → 421", status == 421, f"{status} {body[:200]!r}")
    status, frame = websocket(scheme, [f"Authorization: Bearer {token}", f"Origin: {own}"])
    check("WebSocket /api/v1/live → 101, first frame {\"head\":…}",
          status == 101 and bool(frame) and frame.startswith('{"head"'), f"{status} {frame!r}")
    status, _ = websocket(scheme, [f"Authorization: Bearer {token}", "Origin: http://evil.example"])
    check("WebSocket from a foreign Origin → refused", status not in (0, 101), status)
    status, headers, _ = call(scheme, "POST", "/login", dict(json_type, Origin=own), json.dumps({"token": token}))
    cookie = headers.get("set-cookie", "")
    secure = "; secure" in cookie.lower()
    check(f"login → 204, cookie {'Secure' if scheme == 'https' else 'not Secure'}",
          status == 204 and "momentum_session=" in cookie and secure == (scheme == "https"), f"{status} {cookie}")
    session = re.search(r"momentum_session=[^;]*", cookie)
    status, frame = websocket(scheme, [f"Cookie: {session.group(0) if session else ''}", f"Origin: {own}"])
    check("WebSocket as the browser opens it (session cookie, own origin) → 101",
          status == 101 and bool(frame) and frame.startswith('{"head"'), f"{status} {frame!r}")

big = audio(160)       # 2.5 MB: over nginx's default client_max_body_size of 1 MB
status, _, body = call("https", "POST", "/api/v1/library/upload?name=long.wav",
                       dict(bearer, **{"Content-Type": "audio/wav"}), big)
check(f"upload of {len(big) // 1000} kB through the proxy → 201", status == 201, f"{status} {body[:200]!r}")
item = (json.loads(body).get("item") or {}).get("id") if status == 201 else None
if item:
    status, headers, data = call("https", "GET", f"/api/v1/library/{item}/audio", dict(bearer, Range="bytes=0-99"))
    check("ranged audio read → 206, 100 bytes", status == 206 and len(data) == 100, f"{status} {len(data)}")
    status, _, data = call("https", "GET", f"/api/v1/library/{item}/audio", bearer)
    check("whole audio streamed through → 200, every byte", status == 200 and data == big, f"{status} {len(data)}")

sys.exit(1 if failures else 0)
PY
echo "reverse proxy (nginx): ok"
