#!/usr/bin/env bash
# A data directory that can only be read (issue 38): `log`, `streak`, `calendar`, `timer list`
# and `export` work on it, every change is refused with one sentence, and nothing in it changes
# (no -wal or -shm file appears). Checked twice: as an unprivileged user on a folder without write
# permission, and — where this machine allows mounts — as root on a read-only bind mount.
# Usage: scripts/read-only-data.sh PATH/TO/momentum
set -euo pipefail
momentum=$(realpath "$1")
command -v setpriv >/dev/null || { apt-get update -qq && apt-get install -y -qq util-linux >/dev/null; }
work=$(mktemp -d)
mounted=""
cleanup() {
    if [ -n "$mounted" ]; then umount "$mounted" 2>/dev/null || true; fi
    chmod -R u+w "$work" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"
data="$work/data"
export LANG=en_GB.UTF-8
"$momentum" log add --minutes 5 --start "2026-11-20 07:30" --data "$data" >/dev/null
"$momentum" timer add Tea 5 --data "$data" >/dev/null
# A clean close leaves only the database file: what a copy on a read-only medium holds.
ls "$data" | grep -qv '^momentum.sqlite$' && { echo "unexpected files in $data" >&2; exit 1; }
before=$(find "$data" -type f -exec sha256sum {} + | sort)
mkdir "$work/out"
chmod 777 "$work/out"
failures=0

check_read_only() { # label, then the command prefix that runs momentum
    local label=$1; shift
    local out="$work/out/$label"
    mkdir -p "$out"
    chmod 777 "$out"
    run() { "$@" --data "$dir" </dev/null; }
    expect() { # description, command…: the command must succeed and print something matching $pattern
        local what=$1; shift
        if output=$("$@" 2>&1) && grep -q -- "$pattern" <<<"$output"; then
            echo "  ok   $label: $what"
        else
            echo "  FAIL $label: $what: $output"
            failures=$((failures + 1))
        fi
    }
    pattern="1 session";              expect "log lists the session" run "$@" log
    pattern="longest 1 day";          expect "streak counts it" run "$@" streak
    pattern="Tea";                    expect "timer list shows the timer" run "$@" timer list
    pattern="November 2026";          expect "calendar shows the month" run "$@" calendar --month 2026-11
    pattern="Wrote a backup";         expect "export writes a JSON backup" run "$@" export -o "$out/backup.json"
    pattern="Wrote a backup";         expect "export writes a ZIP backup" run "$@" export -o "$out/backup.zip"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["tables"]["practiceLog"])==1, d["tables"].keys()' \
        "$out/backup.json" && echo "  ok   $label: the backup holds the session" \
        || { echo "  FAIL $label: the backup does not hold the session"; failures=$((failures + 1)); }
    for change in "log add --minutes 3" "settings set meditation.duration 12" "timer add Coffee 5"; do
        # shellcheck disable=SC2086
        if output=$(run "$@" $change 2>&1); then
            echo "  FAIL $label: '$change' succeeded on read-only data"
            failures=$((failures + 1))
        elif grep -q "is read-only: Momentum can show and export what it holds" <<<"$output"; then
            echo "  ok   $label: '$change' refused: $output"
        else
            echo "  FAIL $label: '$change' refused without saying why: $output"
            failures=$((failures + 1))
        fi
    done
}

echo "== a folder without write permission, as an unprivileged user"
chmod -R a-w "$data"
dir="$data"
check_read_only nobody setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$work/out" "$momentum"

echo "== a read-only bind mount, as root"
mkdir "$work/mount"
if mount --bind "$data" "$work/mount" 2>/dev/null && mounted="$work/mount" \
    && mount -o remount,bind,ro "$work/mount" 2>/dev/null; then
    dir="$work/mount"
    check_read_only root env HOME="$work/out" "$momentum"
else
    echo "  (skipped: this machine does not allow mounts)"
fi

after=$(find "$data" -type f -exec sha256sum {} + | sort)
if [ "$before" = "$after" ]; then
    echo "  ok   the data directory is byte for byte as it was, with no new files"
else
    echo "  FAIL the data directory changed"
    failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] && echo "read-only data: ok" || { echo "read-only data: $failures failures"; exit 1; }
