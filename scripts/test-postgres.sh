#!/usr/bin/env bash
# Runs the test suite on both stores in one command: starts a private PostgreSQL cluster in a
# temporary directory (scripts/postgres-cluster.sh, installing PostgreSQL when missing), runs
# `swift test` with MOMENTUM_TEST_POSTGRES_URL pointing at it, and stops and removes the cluster.
# Arguments go to `swift test` (e.g. `--filter LogRepositoryTests`, `--skip-build`).
set -euo pipefail
cd "$(dirname "$0")/.."
pg_dir=$(mktemp -d)
cleanup() {
    bash scripts/postgres-cluster.sh stop "$pg_dir" || true
    rm -rf "$pg_dir"
}
trap cleanup EXIT
MOMENTUM_TEST_POSTGRES_URL=$(bash scripts/postgres-cluster.sh start "$pg_dir")
MOMENTUM_TEST_POSTGRES_TLS="$pg_dir/tls"
export MOMENTUM_TEST_POSTGRES_URL MOMENTUM_TEST_POSTGRES_TLS
echo "PostgreSQL for the tests: $MOMENTUM_TEST_POSTGRES_URL" >&2
swift test "$@"
