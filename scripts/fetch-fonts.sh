#!/bin/sh
# Unpacks the Chinese TrueType font (WenQuanYi Zen Hei, Debian package fonts-wqy-zenhei) into
# .fonts/ inside the project, so the PDFs can embed it. Nothing is installed system-wide.
# The Latin faces (Bitstream Vera) ship inside reportlab itself.
set -eu
dest="${1:-.fonts}"
font="$dest/wqy-zenhei.ttc"
[ -f "$font" ] && exit 0
mkdir -p "$dest"
for f in /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc; do
    if [ -f "$f" ]; then cp "$f" "$font"; exit 0; fi
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
if ! apt-get download fonts-wqy-zenhei >/dev/null 2>&1; then
    apt-get update -qq >/dev/null
    apt-get download fonts-wqy-zenhei >/dev/null
fi
dpkg-deb -x fonts-wqy-zenhei_*.deb root
cd - >/dev/null
cp "$tmp/root/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc" "$font.tmp"
mv "$font.tmp" "$font"
