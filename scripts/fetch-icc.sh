#!/bin/sh
# Unpacks Ghostscript's CMYK colour profile (Debian package libgs-common) into .icc/ inside the
# project, for the CMYK files of print-shop profiles that ask for them. Nothing is installed
# system-wide.
set -eu
dest="${1:-.icc}"
profile="$dest/default_cmyk.icc"
[ -f "$profile" ] && exit 0
mkdir -p "$dest"
for f in /usr/share/color/icc/ghostscript/default_cmyk.icc; do
    if [ -f "$f" ]; then cp "$f" "$profile"; exit 0; fi
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
if ! apt-get download libgs-common >/dev/null 2>&1; then
    apt-get update -qq >/dev/null
    apt-get download libgs-common >/dev/null
fi
dpkg-deb -x libgs-common_*.deb root
cd - >/dev/null
cp "$tmp/root/usr/share/color/icc/ghostscript/default_cmyk.icc" "$profile.tmp"
mv "$profile.tmp" "$profile"
