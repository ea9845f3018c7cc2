#!/usr/bin/env bash
# Builds Momentum as people install it (issue 40), from a clean checkout:
#   dist/momentum-VERSION-linux-ARCH.tar.gz  the program, its man page, completions, the systemd
#                                            unit, README, CHANGELOG and NOTICES in momentum-VERSION/
#   dist/momentum_VERSION_ARCH.deb           the same installed as a Debian package, with a service
#                                            user, /var/lib/momentum and the service (packaging/)
# The release build links the Swift runtime and Foundation statically; the shared libraries it
# still loads (ldd) must each come from a Debian package, and they are the .deb's Depends.
# VERSION is what the built program says (`momentum --version`), nothing else.
# Usage: scripts/package.sh   (as root, or with the build dependencies installed)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
started=$SECONDS

echo "== build dependencies"
# libcurl, SQLite and zlib headers and link names: Foundation's networking, GRDB and ZIPFoundation
# link them; dpkg-dev for dpkg-shlibdeps and dpkg-architecture.
needed=()
for package in libcurl4-openssl-dev libsqlite3-dev zlib1g-dev dpkg-dev binutils groff-base; do
    dpkg -s "$package" >/dev/null 2>&1 || needed+=("$package")
done
if [ ${#needed[@]} -gt 0 ]; then
    echo "installing ${needed[*]}"
    apt-get update -qq && apt-get install -y -qq --no-install-recommends "${needed[@]}" >/dev/null
fi

echo "== release build (--static-swift-stdlib)"
build_flags=(-c release --static-swift-stdlib)
build_started=$SECONDS
swift build "${build_flags[@]}" --product momentum
bin_path=$(swift build "${build_flags[@]}" --show-bin-path)
built="$bin_path/momentum"
echo "built in $((SECONDS - build_started)) s: $built"

version=$("$built" --version)
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([~+.-][0-9A-Za-z.~+-]*)?$ ]]; then
    echo "momentum --version printed '$version', not a version" >&2
    exit 1
fi
deb_arch=$(dpkg --print-architecture)
machine=$(uname -m)
echo "version $version, $deb_arch ($machine)"

echo "== shared libraries (ldd)"
ldd "$built" | tee "$bin_path/momentum.ldd"
if grep -q 'libswift' "$bin_path/momentum.ldd"; then
    echo "the Swift runtime must be linked statically, but ldd lists a libswift*.so" >&2
    exit 1
fi
if grep -q 'not found' "$bin_path/momentum.ldd"; then
    echo "a shared library was not found" >&2
    exit 1
fi
# Each resolved library, and the Debian package that holds it.
libraries=$(awk '$2 == "=>" { print $3 } $1 ~ /^\// { print $1 }' "$bin_path/momentum.ldd")
for library in $libraries; do
    real=$(readlink -f "$library")
    owner=$(dpkg -S "$real" 2>/dev/null || dpkg -S "$library" 2>/dev/null || true)
    if [ -z "$owner" ]; then
        echo "$library belongs to no Debian package" >&2
        exit 1
    fi
    printf '  %-40s %s\n' "$library" "${owner%%:*}"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Depends from the libraries' own shlibs/symbols files (versioned, as Debian's tools derive them),
# plus adduser for the maintainer scripts and espeak-ng, the voice of hands-free copy (run as a
# program, so no library of its shows up above).
mkdir -p "$work/shlibs/debian"
printf 'Source: momentum\n\nPackage: momentum\nArchitecture: any\n' >"$work/shlibs/debian/control"
cp "$built" "$work/shlibs/momentum"
library_depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O momentum 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
if [ -z "$library_depends" ]; then
    echo "dpkg-shlibdeps found no dependencies" >&2
    exit 1
fi
depends="adduser, espeak-ng, $library_depends"
echo "Depends: $depends"

echo "== strip"
stripped="$work/momentum"
cp "$built" "$stripped"
strip "$stripped"
size_built=$(stat -c %s "$built")
size_stripped=$(stat -c %s "$stripped")
echo "momentum: $size_built bytes built, $size_stripped stripped"
[ "$("$stripped" --version)" = "$version" ]

echo "== man page (packaging/manpage.py, from the program's own help)"
man_page="$work/momentum.1"
# Dated by the last commit, so the same source makes the same page.
man_date=$(git log -1 --format=%cs 2>/dev/null || date -u +%F)
"$stripped" --experimental-dump-help | python3 packaging/manpage.py "$version" "$man_date" >"$man_page"
# It must render without a complaint.
groff -man -Tutf8 -ww -z "$man_page" 2>"$work/groff.log"
if [ -s "$work/groff.log" ]; then
    cat "$work/groff.log" >&2
    exit 1
fi

echo "== completions, NOTICES"
mkdir -p "$work/completions"
"$stripped" completions bash >"$work/completions/momentum.bash"
"$stripped" completions zsh >"$work/completions/_momentum"
"$stripped" completions fish >"$work/completions/momentum.fish"
swift package show-dependencies --format json >"$work/dependencies.json"
python3 packaging/notices.py "$bin_path" momentum "$root" "$work/dependencies.json" \
    "$(dirname "$(command -v swift)")/../share/swift/LICENSE.txt" "$work/NOTICES" >"$work/linked.txt"
echo "linked packages: $(paste -sd, "$work/linked.txt" | sed 's/,/, /g')"

mkdir -p dist
rm -f dist/momentum-*.tar.gz dist/momentum_*.deb  # one version in dist/, for the globs of .ci/run
tarball="dist/momentum-$version-linux-$machine.tar.gz"
deb="dist/momentum_${version}_$deb_arch.deb"

echo "== $tarball"
top="$work/tar/momentum-$version"
install -d "$top/completions"
install -m 0755 "$stripped" "$top/momentum"
install -m 0644 README.md CHANGELOG.md "$work/NOTICES" "$man_page" packaging/momentum.service "$top/"
install -m 0644 "$work/completions"/* "$top/completions/"
tar -C "$work/tar" --owner=0 --group=0 --numeric-owner --sort=name -czf "$tarball" "momentum-$version"

echo "== $deb"
package="$work/deb"
install -d "$package/DEBIAN" "$package/usr/bin" "$package/lib/systemd/system" "$package/etc/default" \
    "$package/usr/share/man/man1" "$package/usr/share/doc/momentum" \
    "$package/usr/share/bash-completion/completions" "$package/usr/share/zsh/vendor-completions" \
    "$package/usr/share/fish/vendor_completions.d"
install -m 0755 "$stripped" "$package/usr/bin/momentum"
install -m 0644 packaging/momentum.service "$package/lib/systemd/system/momentum.service"
install -m 0644 packaging/default "$package/etc/default/momentum"
gzip -9n <"$man_page" >"$package/usr/share/man/man1/momentum.1.gz"
install -m 0644 "$work/completions/momentum.bash" "$package/usr/share/bash-completion/completions/momentum"
install -m 0644 "$work/completions/_momentum" "$package/usr/share/zsh/vendor-completions/_momentum"
install -m 0644 "$work/completions/momentum.fish" "$package/usr/share/fish/vendor_completions.d/momentum.fish"
install -m 0644 "$work/NOTICES" "$package/usr/share/doc/momentum/copyright"
gzip -9n <CHANGELOG.md >"$package/usr/share/doc/momentum/changelog.gz"
gzip -9n <README.md >"$package/usr/share/doc/momentum/README.md.gz"
chmod 0644 "$package"/usr/share/man/man1/*.gz "$package"/usr/share/doc/momentum/*.gz
install -m 0755 packaging/debian/postinst packaging/debian/prerm packaging/debian/postrm "$package/DEBIAN/"
echo /etc/default/momentum >"$package/DEBIAN/conffiles"
installed_size=$(du -sk --exclude=DEBIAN "$package" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$deb_arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
    -e "s/@DEPENDS@/$depends/" packaging/debian/control >"$package/DEBIAN/control"
(cd "$package" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) \
    >"$package/DEBIAN/md5sums"
dpkg-deb --root-owner-group -Zxz --build "$package" "$deb" >/dev/null

echo "== summary ($((SECONDS - started)) s)"
echo "version:  $version"
echo "binary:   $size_built bytes as built, $size_stripped stripped"
stat -c '%n: %s bytes' "$tarball" "$deb"
echo "links directly (NEEDED):"
readelf -d "$built" | sed -n 's/.*Shared library: \[\(.*\)\]/  \1/p'
echo "loads $(echo "$libraries" | wc -w) libraries in all with theirs (ldd above)"
dpkg-deb --field "$deb" Package Version Architecture Installed-Size Depends
dpkg-deb --contents "$deb" | awk '{ print "  " $1 " " $6 }'
