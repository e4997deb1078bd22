#!/bin/sh
# Builds the Debian package from what `make build` made, for this machine's architecture.
#   packaging/build-deb.sh BINARY DIST OUTDIR      (make deb runs it)
# BINARY: the static-stdlib release binary; DIST: its man page and completions (make build);
# OUTDIR: where the package (lodestone_VERSION_ARCH.deb) and the staging folder go.
# The version is the binary's own (`lodestone --version`), so the package follows the code.
# Needs dpkg-dev (dpkg-deb, dpkg-shlibdeps); runs lintian when it is installed. Root is not needed.
set -eu

binary=$1
dist=$2
mkdir -p "$3"
out=$(cd "$3" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
umask 022

fail() { echo "build-deb: $*" >&2; exit 1; }
[ -x "$binary" ] || fail "$binary is not built: run 'make build' first"
for f in lodestone.1 lodestone.bash _lodestone lodestone.fish; do
    [ -f "$dist/$f" ] || fail "$dist/$f is missing: run 'make build' first"
done
command -v dpkg-deb >/dev/null || fail "dpkg-deb is missing: apt-get install dpkg-dev"

# lodestone 0.1.0 (commit 0123456789ab, built 2026-12-01)
version_line=$("$binary" --version)
version=$(printf '%s\n' "$version_line" | sed -n '1s/^lodestone \([0-9][A-Za-z0-9.+~]*\) .*/\1/p')
commit=$(printf '%s\n' "$version_line" | sed -n '1s/.*(commit \([^,]*\),.*/\1/p')
built=$(printf '%s\n' "$version_line" | sed -n '1s/.*built \([0-9-]*\)).*/\1/p')
[ -n "$version" ] || fail "cannot read the version from '$version_line'"
[ -n "$built" ] || built=$(date -u +%Y-%m-%d)
arch=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-$(git -C "$repo" log -1 --format='%an <%ae>' 2>/dev/null || true)}
[ -n "$maintainer" ] || maintainer="Lodestone maintainers <lodestone@localhost>"

root="$out/root"
rm -rf "$root"
mkdir -p "$out"
doc="$root/usr/share/doc/lodestone"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$doc/hardware" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d" "$root/lib/systemd/system" "$root/lib/udev/rules.d" \
    "$root/etc/lodestone" "$root/usr/share/lintian/overrides"

# The binary, without its symbol table (the Swift runtime needs only its metadata sections).
install -m 755 "$binary" "$root/usr/bin/lodestone"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/lodestone"
"$root/usr/bin/lodestone" --version >/dev/null || fail "the stripped binary does not run"

gzip -9n < "$dist/lodestone.1" > "$root/usr/share/man/man1/lodestone.1.gz"
install -m 644 "$dist/lodestone.bash" "$root/usr/share/bash-completion/completions/lodestone"
install -m 644 "$dist/_lodestone" "$root/usr/share/zsh/vendor-completions/_lodestone"
install -m 644 "$dist/lodestone.fish" "$root/usr/share/fish/vendor_completions.d/lodestone.fish"
for unit in "$repo"/hardware/systemd/*.service; do
    sed 's|/usr/local/bin/lodestone|/usr/bin/lodestone|g' "$unit" > "$root/lib/systemd/system/$(basename "$unit")"
done
install -m 644 "$here/debian/60-lodestone-i2c.rules" "$root/lib/udev/rules.d/"
install -m 644 "$here/debian/lodestone.conf" "$root/etc/lodestone/lodestone.conf"
install -m 644 "$here/debian/lintian-overrides" "$root/usr/share/lintian/overrides/lodestone"
install -d "$doc/schema"
install -m 644 "$repo"/schema/*.schema.json "$repo"/schema/README.md "$doc/schema/"

# Documentation: the README, the hardware pages, the services' page; over 4 kB compressed.
install -m 644 "$here/debian/copyright" "$doc/copyright"
install -m 644 "$repo/README.md" "$doc/README.md"
install -m 644 "$repo"/hardware/*.md "$doc/hardware/"
install -m 644 "$repo/hardware/systemd/README.md" "$doc/systemd.md"
find "$doc" -type f -name '*.md' -size +4k -exec gzip -9n {} \;
# A native package's changelog: this build.
changelog_date=$(date -u -R -d "$built")
cat > "$out/changelog" <<EOF
lodestone ($version) unstable; urgency=medium

  * Built from commit $commit.

 -- $maintainer  $changelog_date
EOF
gzip -9n < "$out/changelog" > "$doc/changelog.gz"

# The run-time libraries the binary links (libgps, libi2c, libmosquitto, libc, …) from their
# packages' shlibs; the hand-derived list when dpkg-shlibdeps cannot tell.
shlibs=$(mktemp -d)
mkdir -p "$shlibs/debian"
printf 'Source: lodestone\n\nPackage: lodestone\nArchitecture: any\n' > "$shlibs/debian/control"
if depends=$(cd "$shlibs" && dpkg-shlibdeps -O -e"$root/usr/bin/lodestone" 2>"$shlibs/err" | sed -n 's/^shlibs:Depends=//p') \
    && [ -n "$depends" ]; then
    :
else
    cat "$shlibs/err" >&2
    echo "build-deb: dpkg-shlibdeps failed; using the hand-derived run-time libraries" >&2
    depends="libc6, libgcc-s1, libstdc++6, libgps28, libi2c0, libmosquitto1"
fi
rm -rf "$shlibs"
depends="$depends, adduser"

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: lodestone
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: bash-completion
Suggests: gpsd, i2c-tools, mosquitto-clients
Section: utils
Priority: optional
Description: compass and heading toolkit for I2C magnetometers and gpsd
 Lodestone reads an I2C magnetometer (QMC5883L, HMC5883L, LIS3MDL, LIS2MDL,
 MMC5983MA, BMM150, AK09916, AK8963, LSM9DS1, BNO055, CMPS14) and an
 accelerometer and gyroscope when there is one, calibrates it, compensates
 tilt, adds the World Magnetic Model's declination for true north from a
 gpsd fix, and shows the heading as a compass rose in a terminal, logs it to
 CSV, or publishes it as NMEA 0183, Signal K, JSON or MQTT.
 .
 This package holds the program, its man page and bash, zsh and fish
 completions, and two systemd services (lodestone-serve, lodestone-log) that
 run as the unprivileged user lodestone, a member of the i2c group. A udev
 rule gives the i2c group the I2C buses, as Raspberry Pi OS does. The
 services are not enabled on installation.
EOF
echo "/etc/lodestone/lodestone.conf" > "$root/DEBIAN/conffiles"
install -m 755 "$here/debian/postinst" "$here/debian/prerm" "$here/debian/postrm" "$root/DEBIAN/"
(cd "$root" && find . -type f ! -path './DEBIAN/*' | sed 's|^\./||' | LC_ALL=C sort | xargs md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"

package="$out/lodestone_${version}_${arch}.deb"
rm -f "$out"/lodestone_*.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$package" >/dev/null
echo "build-deb: $package ($(du -k "$package" | cut -f1) kB), Depends: $depends"

if command -v lintian >/dev/null; then
    # Errors and warnings fail the build; the overrides file gives the reason for each one accepted.
    lintian --fail-on error,warning --display-info "$package" || fail "lintian found problems (above)"
    echo "build-deb: lintian: no errors or warnings"
else
    echo "build-deb: lintian is not installed (make deb-deps installs it); not checked"
fi
