#!/usr/bin/env bash
# Measures the restore of a large JSON backup (issue 46): RECORDS practice records (default
# 300,000) imported through the log (`momentum import` of a CSV) into one data directory, exported
# as a JSON backup, and restored into an empty one. Reports, for the restore, wall time, peak
# memory (max RSS) and how far that is above an idle process (a restore of an empty backup), the
# database's size afterwards (with its -wal) beside the one the import made, and the sync log's
# rows per record. Goals: under 256 MB above idle; no larger a database than the import's; one
# log row per record.
# Usage: scripts/benchmark-restore.sh [RECORDS]     (release build; the restore pinned to core 0)
set -euo pipefail
cd "$(dirname "$0")/.."
records=${1:-300000}
need() { command -v "$1" >/dev/null || { apt-get update -qq && apt-get install -y -qq "$2" >/dev/null; }; }
need /usr/bin/time time
need taskset util-linux
need sqlite3 sqlite3
swift build -c release --product momentum >/dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# RECORDS sessions, one every 30 minutes back from 2026-01-01, with a short note each.
python3 - "$work/log.csv" "$records" <<'PY'
import csv, datetime, sys, uuid
path, count = sys.argv[1], int(sys.argv[2])
end = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
kinds = ["meditation", "breathing", "workout", "focus", "guided", "morse"]
with open(path, "w", newline="") as f:
    out = csv.writer(f)
    out.writerow(["id", "kind", "start", "end", "counted_seconds", "energy_kcal", "details", "device"])
    for n in range(count):
        start = end - datetime.timedelta(minutes=30 * (n + 1))
        seconds = 300 + (n * 7) % 1200
        stop = start + datetime.timedelta(seconds=seconds)
        fmt = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.000Z")
        kind = kinds[n % len(kinds)]
        out.writerow([str(uuid.UUID(int=n + 1, version=4)), kind, fmt(start), fmt(stop), seconds,
                      "120" if kind == "workout" else "", '{"note":"session %d"}' % n, "benchmark@laptop"])
PY

size_of() { # data dir → bytes of the database and its write-ahead log
    local total=0 file
    for file in "$1"/momentum.sqlite "$1"/momentum.sqlite-wal; do
        [ -f "$file" ] && total=$(( total + $(stat -c %s "$file") ))
    done
    echo "$total"
}
log_rows() { sqlite3 "$1/momentum.sqlite" "SELECT COUNT(*) FROM syncLog"; }
measure() { # label, command... → prints; leaves "seconds kilobytes" in $work/time
    local label=$1; shift
    /usr/bin/time -f "%e %M" -o "$work/time" taskset -c 0 "$@" >/dev/null
    read -r seconds kilobytes <"$work/time"
    printf '%-40s %8.2f s   peak %6d MB\n' "$label" "$seconds" $(( kilobytes / 1024 ))
}

echo "== $records records"
measure "import through the log (CSV)" "$bin/momentum" import "$work/log.csv" --data "$work/imported"
"$bin/momentum" export -o "$work/backup.json" --data "$work/imported" >/dev/null
"$bin/momentum" export -o "$work/empty.json" --data "$work/empty-source" >/dev/null
printf '%-40s %8d MB\n' "JSON backup" $(( $(stat -c %s "$work/backup.json") / 1024 / 1024 ))

measure "idle: restore of an empty backup" "$bin/momentum" import "$work/empty.json" --data "$work/idle"
idle_kb=$(cut -d' ' -f2 "$work/time")
sync
measure "restore into an empty directory" "$bin/momentum" import "$work/backup.json" --data "$work/restored"
restore_kb=$(cut -d' ' -f2 "$work/time")
above=$(( (restore_kb - idle_kb) / 1024 ))

imported=$(size_of "$work/imported")
restored=$(size_of "$work/restored")
printf '%-40s %8d MB\n' "peak above idle" "$above"
printf '%-40s %8d MB (%s sync-log rows)\n' "database made by the import" $(( imported / 1024 / 1024 )) "$(log_rows "$work/imported")"
printf '%-40s %8d MB (%s sync-log rows)\n' "database made by the restore" $(( restored / 1024 / 1024 )) "$(log_rows "$work/restored")"
status=0
[ "$above" -lt 256 ] || { echo "FAIL: the restore's peak is $above MB above idle (goal: under 256)"; status=1; }
[ "$restored" -le "$imported" ] || { echo "FAIL: the restored database is larger than the imported one"; status=1; }
[ "$(log_rows "$work/restored")" -le "$records" ] || { echo "FAIL: more than one sync-log row per record"; status=1; }
exit $status
