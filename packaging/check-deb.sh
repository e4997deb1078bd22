#!/bin/bash
# The Debian package's done-when check, as root on a Debian 12 machine (CI runs it after make test):
#   packaging/check-deb.sh .build/deb/lodestone_VERSION_ARCH.deb        (make check-deb)
# 1. apt installs the package (its dependencies from the archive; no toolchain involved);
# 2. the binary runs without the toolchain and says the package's version; `man lodestone` shows
#    the page; bash loads the completion; zsh and fish load theirs when installed;
#    `systemd-analyze verify` accepts both units; the service user exists in i2c and dialout; the
#    configuration is 0640 root:lodestone; Recommends bash-completion; the copyright is machine-readable;
# 3. apt remove leaves nothing but the configuration (the file lists before and after compared);
#    installing again unmasks the units, and `systemctl enable` then works;
# 4. apt purge removes the configuration and the user, and leaves the system as it found it.
# Needs no running systemd or udev, and no man-db database. Ends with "check-deb: N passed, N failed".
set -uo pipefail

deb=${1:-}
passed=0
failed=0
pass() { echo "  ok    $*"; passed=$((passed + 1)); }
fail() { echo "  FAIL  $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
finish() { echo "check-deb: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }
die() { echo "check-deb: $*" >&2; failed=$((failed + 1)); finish; }
# Succeeds when the text is empty; else prints the heading and the text, indented.
none() { [ -z "$2" ] || { echo "        $1"; printf '%s\n' "$2" | sed 's/^/          /'; return 1; }; }

[ -n "$deb" ] && [ -f "$deb" ] || die "usage: $0 lodestone_VERSION_ARCH.deb (make check-deb builds it)"
[ "$(id -u)" = 0 ] || die "must run as root (it installs and removes the package)"
command -v apt-get >/dev/null || die "needs apt (Debian 12)"
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
export DEBIAN_FRONTEND=noninteractive
apt_quiet() { apt-get -y -qq -o Dpkg::Use-Pty=0 "$@" >/tmp/check-deb-apt.log 2>&1 || { cat /tmp/check-deb-apt.log; return 1; }; }
# Minimal images exclude /usr/share/man and /usr/share/doc from every package (dpkg path-exclude):
# include this package's files again, so the check sees the package as a full system would.
include=(-o "DPkg::Options::=--path-include=/usr/share/man/man1/lodestone.1.gz"
         -o "DPkg::Options::=--path-include=/usr/share/doc/lodestone/*")

if dpkg-query -W -f='${Status}' lodestone 2>/dev/null | grep -q "installed\|config-files"; then
    echo "check-deb: an earlier lodestone package is on this machine; purging it first"
    apt_quiet purge lodestone || die "cannot purge the earlier package"
fi

# What the check itself uses (man-db for man, systemd for systemd-analyze), and the package's
# dependencies, go on first: the file lists compared below then differ by this package alone.
tools=()
command -v man >/dev/null || tools+=(man-db)
command -v systemd-analyze >/dev/null || tools+=(systemd)
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed -e 's/(.*)//' -e 's/|.*//' -e 's/ //g' | grep -v '^$' | tr '\n' ' ')
echo "check-deb: installing the check's tools and the package's dependencies: ${tools[*]} $depends"
apt_quiet update || echo "check-deb: apt-get update failed; using the package lists at hand"
# shellcheck disable=SC2086
apt_quiet install --no-install-recommends "${tools[@]}" $depends || die "cannot install the dependencies"

# The file system apart from what changes by itself (logs, caches, apt's and dpkg's own state, the
# backups shadow's tools keep of /etc/passwd, /etc/group and the like).
snapshot() {
    find /etc /usr /lib /var/lib /opt -xdev \
        \( -path /var/lib/dpkg -o -path /var/lib/apt -o -path /var/lib/ucf -o -path /var/lib/man-db \
           -o -path /opt/swift -o -path /var/lib/systemd/deb-systemd-helper-enabled \
           -o -path /var/lib/systemd/deb-systemd-helper-masked -o -path /etc/ld.so.cache \
           -o -path '/etc/*-' \) -prune \
        -o -print 2>/dev/null | LC_ALL=C sort
}
before=$(mktemp); after_remove=$(mktemp); after_purge=$(mktemp); listed=$(mktemp)
trap 'rm -f "$before" "$after_remove" "$after_purge" "$listed" /tmp/check-deb-apt.log' EXIT
snapshot > "$before"
user_existed=$(getent passwd lodestone >/dev/null && echo yes || echo no)
i2c_existed=$(getent group i2c >/dev/null && echo yes || echo no)

echo "check-deb: apt install $deb"
check "apt installs the package" apt_quiet install --no-install-recommends "${include[@]}" "$deb"
check "dpkg says it is installed" sh -c "dpkg-query -W -f='\${Status}' lodestone | grep -q 'install ok installed'"
dpkg -L lodestone | LC_ALL=C sort > "$listed"

# The binary: from the package, runs without the toolchain, and the package's version is its own.
package_version=$(dpkg-query -W -f='${Version}' lodestone)
version_line=$(env -i PATH=/usr/bin:/bin LANG=C.UTF-8 /usr/bin/lodestone --version 2>&1)
echo "        $version_line"
check "lodestone --version says the package's version ($package_version)" \
    grep -q "^lodestone $package_version (commit [^,]*, built [0-9-]*)$" <<<"$version_line"
check "no library from the Swift toolchain is needed" \
    sh -c "! ldd /usr/bin/lodestone | grep -E 'not found|libswift|libFoundation|libdispatch|/opt/'"
check "a simulated reading works (lodestone watch --simulate --once)" \
    sh -c "env -i PATH=/usr/bin:/bin HOME=/nonexistent XDG_CONFIG_HOME=/tmp /usr/bin/lodestone watch --simulate --once --no-gnss --location -33.87,151.21 2>/dev/null | grep -q 'true'"

# The man page: found by man (no database needed) and rendered without a warning.
manpage=/usr/share/man/man1/lodestone.1.gz
check "the man page is installed ($manpage)" test -s "$manpage"
check "man lodestone shows the page" \
    sh -c "MANPAGER=cat MANWIDTH=80 man lodestone 2>/dev/null | grep -q 'lodestone watch'"
check "man -l renders it without a warning" \
    sh -c "out=\$(MANPAGER=cat MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l $manpage 2>&1 >/dev/null); [ -z \"\$out\" ] || { echo \"\$out\"; false; }"

# The completions: bash loads its script (no bash-completion package needed) and completes.
bash_script=/usr/share/bash-completion/completions/lodestone
check "bash accepts the completion script" bash -n "$bash_script"
check "bash loads it: complete -p lodestone" \
    bash --norc --noprofile -c "source $bash_script && complete -p lodestone | grep -q _lodestone"
check "bash completes 'lodestone wat' to watch" \
    bash --norc --noprofile -c "source $bash_script; COMP_WORDS=(lodestone wat); COMP_CWORD=1; _lodestone; [ \"\${COMPREPLY[*]}\" = watch ]"
if command -v zsh >/dev/null; then
    check "zsh accepts its script" zsh -n /usr/share/zsh/vendor-completions/_lodestone
    check "zsh finds it on its default fpath" \
        zsh -f -c 'for d in $fpath; do [ -f $d/_lodestone ] && exit 0; done; exit 1'
else
    echo "  --    zsh is not installed; its script not checked"
fi
if command -v fish >/dev/null; then
    # A home of its own, so that no user configuration takes part (--no-config would also drop the
    # vendor folders from fish's completion path).
    fish_home=$(mktemp -d)
    check "fish loads its script from the vendor folder" \
        sh -c "HOME=$fish_home XDG_CONFIG_HOME=$fish_home/config XDG_DATA_HOME=$fish_home/data fish -c 'complete -C \"lodestone watch --uni\"' | grep -q -- --units"
    rm -rf "$fish_home"
else
    echo "  --    fish is not installed; its script not checked"
fi

# The units: systemd-analyze verify needs no running systemd.
for unit in lodestone-serve.service lodestone-log.service; do
    check "systemd-analyze verify $unit" \
        sh -c "out=\$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify /lib/systemd/system/$unit 2>&1); [ -z \"\$out\" ] || { echo \"\$out\"; false; }"
done
check "the units run /usr/bin/lodestone" grep -q '^ExecStart=/usr/bin/lodestone ' /lib/systemd/system/lodestone-serve.service

# The service user, its groups, the configuration and the udev rule.
check "the service user lodestone exists, without a login shell" \
    sh -c "getent passwd lodestone | grep -q ':/var/lib/lodestone:/usr/sbin/nologin$'"
check "it is a system account (uid below 1000)" sh -c "[ \$(id -u lodestone) -lt 1000 ]"
check "it is in the i2c and dialout groups" \
    sh -c "id -nG lodestone | tr ' ' '\n' | grep -qx i2c && id -nG lodestone | tr ' ' '\n' | grep -qx dialout"
check "the example configuration is a conffile" sh -c "dpkg-query -W -f='\${Conffiles}' lodestone | grep -q /etc/lodestone/lodestone.conf"
check "the configuration is mode 0640, owner root, group lodestone (it may hold an MQTT password)" \
    sh -c "[ \"\$(stat -c '%a %U %G' /etc/lodestone/lodestone.conf)\" = '640 root lodestone' ]"
check "the package recommends bash-completion" sh -c "dpkg-query -W -f='\${Recommends}' lodestone | grep -qw bash-completion"
check "the copyright file is machine-readable, Apache-2.0, with the data's own licences" \
    sh -c "f=/usr/share/doc/lodestone/copyright; head -1 \$f | grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' \
           && grep -q '^License: Apache-2.0\$' \$f && grep -q '^License: CC-BY-4.0\$' \$f && grep -q '^License: public-domain\$' \$f"
check "the udev rule gives /dev/i2c-* to the i2c group" grep -q 'GROUP="i2c"' /lib/udev/rules.d/60-lodestone-i2c.rules
# Configuration the administrator adds next to the conffile: kept by remove, removed by purge.
cp /etc/lodestone/lodestone.conf /etc/lodestone/calibration.json
echo 'LODESTONE_LOG_OPTIONS="--rate 5"' >> /etc/lodestone/lodestone.conf

echo "check-deb: apt remove lodestone"
check "apt removes the package" apt_quiet remove lodestone
check "dpkg keeps only its configuration (rc)" sh -c "dpkg-query -W -f='\${db:Status-Abbrev}' lodestone | grep -q '^rc'"
snapshot > "$after_remove"
left=$(LC_ALL=C comm -13 "$before" "$after_remove")
allowed=$'/etc/lodestone\n/etc/lodestone/calibration.json\n/etc/lodestone/lodestone.conf\n/etc/systemd/system/lodestone-log.service\n/etc/systemd/system/lodestone-serve.service'
unexpected=$(LC_ALL=C comm -23 <(printf '%s\n' "$left") <(printf '%s\n' "$allowed" | LC_ALL=C sort))
check "remove leaves nothing but the configuration" none "left behind:" "$unexpected"
check "the changed conffile is kept" grep -q -- '--rate 5' /etc/lodestone/lodestone.conf
still=$(while read -r path; do
    [ -f "$path" ] && [ "$path" != /etc/lodestone/lodestone.conf ] && echo "$path"
done < "$listed")
check "no file dpkg -L listed is left but the conffile" none "still there:" "$still"
for unit in lodestone-serve.service lodestone-log.service; do
    if [ -e "/etc/systemd/system/$unit" ]; then
        check "$unit is masked until purge (a link to /dev/null)" test "$(readlink "/etc/systemd/system/$unit")" = /dev/null
    fi
done
check "the service user stays until purge" sh -c "getent passwd lodestone >/dev/null"
check "the configuration keeps its mode 0640, group lodestone" \
    sh -c "[ \"\$(stat -c '%a %G' /etc/lodestone/lodestone.conf)\" = '640 lodestone' ]"

# Installing again after a remove: the masks the remove left go, and the services can be enabled.
echo "check-deb: apt install again after the remove, then systemctl enable"
check "apt installs the package again" apt_quiet install --no-install-recommends "${include[@]}" "$deb"
for unit in lodestone-serve.service lodestone-log.service; do
    check "$unit is no longer masked" sh -c "[ \"\$(readlink /etc/systemd/system/$unit 2>/dev/null)\" != /dev/null ]"
done
check "the changed conffile survives the reinstall" grep -q -- '--rate 5' /etc/lodestone/lodestone.conf
if command -v systemctl >/dev/null; then
    check "systemctl enable lodestone-serve works" sh -c "systemctl enable lodestone-serve.service >/tmp/check-deb-enable.log 2>&1 || { cat /tmp/check-deb-enable.log; false; }"
    check "systemctl is-enabled says enabled" sh -c "[ \"\$(systemctl is-enabled lodestone-serve.service 2>/dev/null)\" = enabled ]"
    check "systemctl disable lodestone-serve works" sh -c "systemctl disable lodestone-serve.service >/dev/null 2>&1"
    rm -f /tmp/check-deb-enable.log
else
    fail "systemctl is missing: cannot check that the service can be enabled"
fi

echo "check-deb: apt purge lodestone"
check "apt purges the package" apt_quiet purge lodestone
check "dpkg no longer knows it" sh -c "! dpkg-query -W -f='\${db:Status-Abbrev}' lodestone 2>/dev/null | grep -q '^[a-z]'"
snapshot > "$after_purge"
changed=$(LC_ALL=C diff "$before" "$after_purge")
check "purge leaves the file system as it was before the install" none "differences (< before, > after):" "$changed"
check "systemd's package state forgets the units" \
    none "still recorded:" "$(grep -rl lodestone /var/lib/systemd/deb-systemd-helper-enabled /var/lib/systemd/deb-systemd-helper-masked 2>/dev/null; \
                              find /var/lib/systemd/deb-systemd-helper-enabled /var/lib/systemd/deb-systemd-helper-masked -name 'lodestone*' 2>/dev/null)"
check "/etc/lodestone is gone" test ! -e /etc/lodestone
if [ "$user_existed" = no ]; then
    check "the service user and its group are gone" sh -c "! getent passwd lodestone && ! getent group lodestone"
fi
if [ "$i2c_existed" = no ]; then
    check "the i2c group it created stays (i2c-tools and other users share it)" sh -c "getent group i2c >/dev/null"
fi

# Logs written by the service are data: purge keeps them and the account that owns them, expired;
# installing again brings it back.
echo "check-deb: purge with logs kept"
if apt_quiet install --no-install-recommends "${include[@]}" "$deb"; then
    install -d -o lodestone -g lodestone /var/lib/lodestone
    echo "time,monotonic_s" > /var/lib/lodestone/heading.csv
    chown lodestone:lodestone /var/lib/lodestone/heading.csv
    check "apt purges the package with logs in /var/lib/lodestone" apt_quiet purge lodestone
    check "the logs are kept" test -s /var/lib/lodestone/heading.csv
    check "their owner stays, expired" sh -c "[ \"\$(getent shadow lodestone | cut -d: -f8)\" = 1 ]"
    apt_quiet install --no-install-recommends "${include[@]}" "$deb"
    check "installing again brings it back" sh -c "[ -z \"\$(getent shadow lodestone | cut -d: -f8)\" ]"
    apt_quiet purge lodestone
    rm -rf /var/lib/lodestone
    [ "$user_existed" = yes ] || deluser --quiet --system lodestone >/dev/null 2>&1 || true
else
    fail "apt installs the package again"
fi

finish
