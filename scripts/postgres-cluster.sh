#!/usr/bin/env bash
# A private PostgreSQL cluster for tests: `start DIR` makes one in DIR (a directory the caller
# made, e.g. with mktemp -d), listening only on 127.0.0.1 on a free port, with trust
# authentication for loopback and a role and database `momentum`; it prints the URL
# `postgres://momentum@127.0.0.1:PORT/momentum` and writes it to DIR/url. `stop DIR` stops it
# (the caller removes DIR). Installs Debian's `postgresql` when no server is on the machine.
#
# The server also speaks TLS (connections may use it or not), with a certificate for `localhost`
# (not for 127.0.0.1: tests reach the same server by a name it does not have) signed by a root
# made for this cluster: DIR/tls/root.crt (what `sslrootcert`
# names). DIR/tls/other-root.crt is a root that signed nothing here (for tests that a wrong root
# is refused).
#
# Made for tests and benchmarks, never for data that matters: fsync, synchronous commit and
# full-page writes are off (a crash may lose or corrupt the cluster, which a test throws away),
# unless PG_CLUSTER_DURABLE=1 (benchmarks: commits wait for the disk, as in a real deployment).
set -euo pipefail

usage() {
    echo "usage: $0 start DIR | stop DIR" >&2
    exit 2
}
[ $# -eq 2 ] || usage
command=$1
dir=$(cd "$2" && pwd)

# The newest installed server's programs (Debian keeps them out of PATH).
server_bin() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -n "$found" ] && [ -x "$found/initdb" ]; then
        echo "$found"
    elif command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
    fi
}

# initdb refuses to run as root: as root the cluster belongs to the `postgres` user.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "$command" in
start)
    bin=$(server_bin)
    if [ -z "$bin" ]; then
        echo "installing postgresql" >&2
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
        bin=$(server_bin)
    fi
    [ -n "$bin" ] || { echo "no PostgreSQL server found after installing" >&2; exit 1; }
    if [ "$(id -u)" -eq 0 ]; then
        id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/sh postgres
        chown postgres "$dir"
    fi
    data="$dir/data"
    as_owner "$bin/initdb" --pgdata="$data" --username=postgres --auth=trust --encoding=UTF8 \
        --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    # A free loopback port: the kernel picks one, which is then handed to the server (another
    # program could take it in between; start fails loudly then, and a retry picks another).
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    cat >>"$data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 500
EOF
    # For tests only: nothing here needs to survive a crash of the machine. A benchmark asks for
    # the durable defaults (PG_CLUSTER_DURABLE=1), as a real database runs.
    if [ "${PG_CLUSTER_DURABLE:-0}" != 1 ]; then
        printf 'fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n' >>"$data/postgresql.conf"
    fi
    # TLS: a root made for this cluster signs the server's certificate.
    if ! command -v openssl >/dev/null 2>&1; then
        echo "installing openssl" >&2
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl >/dev/null
    fi
    tls="$dir/tls"
    mkdir -p "$tls"
    (
        cd "$tls"
        for root in root other-root; do
            openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Momentum test $root" \
                -keyout "$root.key" -out "$root.crt" 2>/dev/null
        done
        openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout server.key -out server.csr 2>/dev/null
        printf 'subjectAltName = DNS:localhost\n' >server.ext
        openssl x509 -req -in server.csr -CA root.crt -CAkey root.key -CAcreateserial -days 2 \
            -extfile server.ext -out server.crt 2>/dev/null
        chmod 600 server.key
    )
    if [ "$(id -u)" -eq 0 ]; then chown -R postgres "$tls"; fi
    cat >>"$data/postgresql.conf" <<EOF
ssl = on
ssl_cert_file = '$tls/server.crt'
ssl_key_file = '$tls/server.key'
EOF
    as_owner "$bin/pg_ctl" --pgdata="$data" --log="$dir/server.log" --wait --timeout=60 start >/dev/null \
        || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/psql" --quiet --no-psqlrc --host=127.0.0.1 --port="$port" --username=postgres \
        --dbname=postgres --set=ON_ERROR_STOP=1 \
        --command="CREATE ROLE momentum LOGIN" --command="CREATE DATABASE momentum OWNER momentum" >/dev/null
    url="postgres://momentum@127.0.0.1:$port/momentum"
    echo "$url" >"$dir/url"
    echo "$url"
    ;;
stop)
    bin=$(server_bin)
    if [ -n "$bin" ] && [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$bin/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >/dev/null
    fi
    ;;
*)
    usage
    ;;
esac
