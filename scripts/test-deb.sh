#!/usr/bin/env bash
# The Debian package as an administrator meets it (issue 40), in a fresh Debian root made with
# debootstrap (minbase, with the package's Depends and systemd, whose units `systemd-analyze
# verify` needs; nothing is downloaded inside the root): `dpkg -i` with no systemd running, the
# program, the service user and /var/lib/momentum, the unit verified against that root, the man
# page and completions; `momentum serve` as the service's user answers / and /health and exits 0
# on SIGTERM; a practice logged survives reinstalling the package (the upgrade path of the
# maintainer scripts). Then the root is booted with systemd-nspawn: the service runs under its
# confinement with its port from /etc/default/momentum, an upgrade restarts it, `systemctl stop`
# ends it with exit 0. Last, `dpkg -r` keeps the data and the user, `dpkg -P` removes both.
# Usage: scripts/test-deb.sh dist/momentum_VERSION_ARCH.deb   (as root: debootstrap, chroot)
set -euo pipefail
deb=$(realpath "${1:?usage: test-deb.sh dist/momentum_VERSION_ARCH.deb}")
started=$SECONDS
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; }
command -v groff >/dev/null || { apt-get update -qq && apt-get install -y -qq groff-base >/dev/null; }

version=$(dpkg-deb --field "$deb" Version)
# The Depends' package names (the first of alternatives), without versions.
include=$(dpkg-deb --field "$deb" Depends | tr ',' '\n' | sed -e 's/|.*//' -e 's/(.*)//' -e 's/:.*//' \
    | tr -d ' ' | grep -v '^$' | paste -sd,)
include="$include,systemd"

work=$(mktemp -d)
root="$work/root"
server=""
proc_mounted=""
booted=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
    if [ -n "$booted" ]; then
        kill "$booted" 2>/dev/null || true
        wait "$booted" 2>/dev/null || true
    fi
    if [ -n "$proc_mounted" ]; then umount "$root/proc" || umount -l "$root/proc" || true; fi
    rm -rf --one-file-system "$work"
}
trap cleanup EXIT

fail() {
    echo "FAIL  $*" >&2
    exit 1
}
ok() { echo "ok    $*"; }
in_root() { chroot "$root" "$@"; }
# Names of users are the root's own (its /etc/passwd), so ownership is looked at from inside.
# A command as the service's user, with the service's data directory and a clean environment.
as_momentum() {
    chroot --userspec=momentum:momentum "$root" env -i PATH=/usr/bin:/bin HOME=/var/lib/momentum \
        LANG=C.UTF-8 MOMENTUM_HOME=/var/lib/momentum "$@"
}

echo "== a fresh Debian root (debootstrap --variant=minbase bookworm, with $include)"
bootstrap_started=$SECONDS
debootstrap --variant=minbase --include="$include" bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -30 "$work/debootstrap.log" >&2; fail "debootstrap"; }
ok "debootstrap took $((SECONDS - bootstrap_started)) s ($(du -sm "$root" | cut -f1) MB)"
# The Swift runtime reads its arguments through /proc (without it `momentum --version` sees none
# and prints the help), as on any running system.
mount -t proc proc "$root/proc"
proc_mounted=yes

echo "== dpkg -i (no systemd running)"
cp "$deb" "$root/tmp/momentum.deb"
in_root dpkg -i /tmp/momentum.deb >"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "dpkg -i"; }
ok "installed $(in_root dpkg-query -W -f '${Package} ${Version} ${Status}' momentum)"
[ "$(in_root momentum --version)" = "$version" ] || fail "momentum --version is not $version"
ok "momentum --version prints $version"
in_root getent passwd momentum >/dev/null || fail "no user momentum"
in_root getent group momentum >/dev/null || fail "no group momentum"
ok "the system user and group momentum: $(in_root getent passwd momentum)"
[ "$(in_root stat -c '%U:%G %a' /var/lib/momentum)" = "momentum:momentum 750" ] \
    || fail "/var/lib/momentum is $(in_root stat -c '%U:%G %a' /var/lib/momentum 2>&1)"
ok "/var/lib/momentum, momentum:momentum 0750"
[ -L "$root/etc/systemd/system/multi-user.target.wants/momentum.service" ] || fail "the service is not enabled"
ok "the service is enabled (multi-user.target.wants)"

for path in /usr/bin/momentum /lib/systemd/system/momentum.service /etc/default/momentum \
    /usr/share/man/man1/momentum.1.gz /usr/share/bash-completion/completions/momentum \
    /usr/share/zsh/vendor-completions/_momentum /usr/share/fish/vendor_completions.d/momentum.fish \
    /usr/share/doc/momentum/copyright /usr/share/doc/momentum/changelog.gz; do
    [ -s "$root$path" ] || fail "$path is missing"
done
ok "the unit, settings, man page, completions, copyright and changelog are in place"
in_root dpkg-query -W -f '${Conffiles}\n' momentum | grep -q '/etc/default/momentum' || fail "no conffile"
ok "/etc/default/momentum is a conffile"
gzip -dc "$root/usr/share/man/man1/momentum.1.gz" | groff -man -Tutf8 -ww 2>"$work/groff.log" >"$work/man.txt"
[ ! -s "$work/groff.log" ] || { cat "$work/groff.log" >&2; fail "the man page renders with warnings"; }
grep -q 'momentum serve' "$work/man.txt" || fail "the man page has no serve"
ok "the man page renders ($(wc -l <"$work/man.txt") lines)"

# espeak-ng came with the package's Depends: hands-free copy speaks in the fresh root.
in_root env MOMENTUM_HOME=/tmp/momentum-hands-free momentum morse hands-free --count 2 -o /tmp/hands-free.wav \
    >/dev/null 2>&1 || fail "momentum morse hands-free does not render in the fresh root"
[ "$(stat -c %s "$root/tmp/hands-free.wav")" -gt 100000 ] || fail "the hands-free render is too short"
rm -rf "$root/tmp/momentum-hands-free" "$root/tmp/hands-free.wav"
ok "momentum morse hands-free speaks with the espeak-ng the Depends brought"

# Against this root: its systemd units, its /usr/bin/momentum; `man` (for Documentation=) reads
# the root's man pages. Any line printed is a warning.
MANPATH="$root/usr/share/man" systemd-analyze verify --root="$root" momentum.service >"$work/verify.log" 2>&1 \
    || { cat "$work/verify.log" >&2; fail "systemd-analyze verify"; }
[ ! -s "$work/verify.log" ] || { cat "$work/verify.log" >&2; fail "systemd-analyze verify warned"; }
ok "systemd-analyze verify --root: no warning"

echo "== momentum serve as the user momentum"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# `exec`: chroot and env exec in turn, so the background job is the server itself and SIGTERM
# reaches it (not a subshell).
(exec chroot --userspec=momentum:momentum "$root" env -i PATH=/usr/bin:/bin HOME=/var/lib/momentum \
    LANG=C.UTF-8 MOMENTUM_HOME=/var/lib/momentum momentum serve --port "$port" >"$work/serve.log" 2>&1) &
server=$!
python3 - "$port" <<'PY' || { cat "$work/serve.log" >&2; fail "serve"; }
import json, sys, time, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
for _ in range(150):
    try:
        urllib.request.urlopen(base + "/health", timeout=1)
        break
    except Exception:
        time.sleep(0.1)
with urllib.request.urlopen(base + "/", timeout=10) as response:
    assert response.status == 200, response.status
    assert "text/html" in response.headers["Content-Type"], response.headers["Content-Type"]
    assert b"<html" in response.read().lower()
print("ok    / answers 200 text/html")
with urllib.request.urlopen(base + "/health", timeout=10) as response:
    health = json.load(response)
    assert response.status == 200 and health.get("status") == "ok", health
print(f"ok    /health answers {health}")
PY
kill -TERM "$server"
status=0
wait "$server" || status=$?
server=""
[ "$status" -eq 0 ] || { cat "$work/serve.log" >&2; fail "serve exited $status on SIGTERM"; }
ok "a clean exit on SIGTERM"
[ -z "$(in_root find /var/lib/momentum ! -user momentum)" ] || fail "files in /var/lib/momentum not owned by momentum"
ok "everything it wrote belongs to momentum: $(cd "$root/var/lib/momentum" && find . -mindepth 1 -maxdepth 1 | sort | paste -sd' ')"

echo "== a practice logged, kept through an upgrade"
as_momentum momentum meditate 1s --countdown 0 --no-sound </dev/null >"$work/meditate.log" 2>&1 \
    || { cat "$work/meditate.log" >&2; fail "meditate"; }
logged_rows() { as_momentum momentum log --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))'; }
[ "$(logged_rows)" = 1 ] || fail "the log does not have the one practice"
ok "one practice in the log"
echo "# changed by the administrator" >>"$root/etc/default/momentum"
in_root dpkg -i /tmp/momentum.deb >"$work/upgrade.log" 2>&1 || { cat "$work/upgrade.log" >&2; fail "dpkg -i again"; }
ok "the package installed over itself (prerm upgrade, postinst configure $version)"
[ "$(logged_rows)" = 1 ] || fail "the practice is gone after the upgrade"
[ "$(in_root stat -c '%U:%G %a' /var/lib/momentum)" = "momentum:momentum 750" ] || fail "/var/lib/momentum changed"
grep -q 'changed by the administrator' "$root/etc/default/momentum" || fail "/etc/default/momentum was replaced"
ok "after the upgrade: the practice, /var/lib/momentum and the changed /etc/default/momentum are kept"

echo "== the service under systemd: the root booted with systemd-nspawn"
command -v systemd-nspawn >/dev/null || { apt-get update -qq && apt-get install -y -qq systemd-container >/dev/null; }
# The service takes its port from /etc/default/momentum (the host's network is shared).
service_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo "MOMENTUM_PORT=$service_port" >>"$root/etc/default/momentum"
cp "$deb" "$root/root/momentum.deb" # the booted system's /tmp is a fresh tmpfs
umount "$root/proc"
proc_mounted=""
systemd-nspawn --quiet --register=no --keep-unit --directory="$root" --boot --console=passive \
    >"$work/boot.log" 2>&1 &
booted=$!
leader=""
for _ in $(seq 1 100); do
    leader=$(pgrep -P "$booted" -x systemd || true)
    [ -n "$leader" ] && break
    sleep 0.1
done
[ -n "$leader" ] || { cat "$work/boot.log" >&2; fail "systemd did not start in the root"; }
in_boot() { nsenter --target "$leader" --all "$@"; }
state=""
for _ in $(seq 1 600); do # until systemd has started everything (its bus is not there at once)
    state=$(in_boot systemctl is-system-running 2>/dev/null || true)
    case $state in running | degraded) break ;; esac
    sleep 0.1
done
ok "booted: the system is $state"
service_answers() {
    python3 -c '
import json, sys, time, urllib.request
for _ in range(150):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/health", timeout=1) as response:
            assert json.load(response)["status"] == "ok"
            sys.exit(0)
    except Exception:
        time.sleep(0.1)
sys.exit(1)' "$service_port" || { in_boot journalctl -u momentum --no-pager >&2; fail "the service does not answer"; }
}
service_answers
[ "$(in_boot systemctl show momentum -P ActiveState)" = active ] || fail "the service is not active"
first_pid=$(in_boot systemctl show momentum -P MainPID)
ok "the service runs under its confinement, on MOMENTUM_PORT=$service_port from /etc/default/momentum"
in_boot dpkg -i /root/momentum.deb >"$work/upgrade-booted.log" 2>&1 \
    || { cat "$work/upgrade-booted.log" >&2; fail "dpkg -i under systemd"; }
service_answers
[ "$(in_boot systemctl show momentum -P MainPID)" != "$first_pid" ] || fail "the upgrade did not restart the service"
ok "an upgrade under systemd restarts the service on the new program"
in_boot systemctl stop momentum
if [ "$(in_boot systemctl show momentum -P Result)" != success ] \
    || [ "$(in_boot systemctl show momentum -P ExecMainStatus)" != 0 ]; then
    in_boot journalctl -u momentum --no-pager >&2
    fail "systemctl stop: not a clean exit"
fi
ok "systemctl stop: a clean exit (0)"
in_boot systemctl poweroff >/dev/null 2>&1 || true
timeout 60 tail --pid="$booted" -f /dev/null || fail "the booted root did not power off"
booted=""
sed -i "/^MOMENTUM_PORT=$service_port\$/d" "$root/etc/default/momentum"
rm "$root/root/momentum.deb"
mount -t proc proc "$root/proc"
proc_mounted=yes

echo "== dpkg -r keeps the data and the user; dpkg -P removes them"
in_root dpkg -r momentum >"$work/remove.log" 2>&1 || { cat "$work/remove.log" >&2; fail "dpkg -r"; }
[ ! -e "$root/usr/bin/momentum" ] || fail "/usr/bin/momentum is still there"
[ -f "$root/var/lib/momentum/momentum.sqlite" ] || fail "dpkg -r removed the data"
in_root getent passwd momentum >/dev/null || fail "dpkg -r removed the user"
ok "dpkg -r: the program is gone; /var/lib/momentum and the user momentum are kept"
in_root dpkg -P momentum >"$work/purge.log" 2>&1 || { cat "$work/purge.log" >&2; fail "dpkg -P"; }
[ ! -e "$root/var/lib/momentum" ] || fail "dpkg -P kept /var/lib/momentum"
! in_root getent passwd momentum >/dev/null || fail "dpkg -P kept the user"
! in_root getent group momentum >/dev/null || fail "dpkg -P kept the group"
[ ! -e "$root/etc/default/momentum" ] || fail "dpkg -P kept /etc/default/momentum"
[ ! -L "$root/etc/systemd/system/multi-user.target.wants/momentum.service" ] || fail "dpkg -P kept the enable link"
[ -z "$(in_root dpkg-query -W -f '${Status}' momentum 2>/dev/null)" ] || fail "dpkg still knows the package"
ok "dpkg -P: /var/lib/momentum, the user, the group, the settings and the enable link are gone"

echo "== the package passed in $((SECONDS - started)) s"
