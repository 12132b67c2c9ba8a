#!/usr/bin/env bash
# Debian packages the test suite needs. Installed when running as root;
# otherwise the exact command to run is printed and the script fails.
set -euo pipefail

missing=()
command -v htmlproofer >/dev/null 2>&1 || missing+=(ruby-html-proofer)
[ -x /usr/bin/chromium ] || missing+=(chromium)
# Real benchmark tools whose output the tests capture and parse.
for tool in fio mbw ioping iperf3; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
# CJK glyphs, so browser-test screenshots of labels such as "4KB随机读" are legible.
[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || missing+=(fonts-wqy-microhei)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "perfwiki tests need these Debian packages: ${missing[*]}" >&2
  echo "install them with:  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
