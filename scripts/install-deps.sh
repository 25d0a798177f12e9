#!/usr/bin/env bash
# Installs the Debian packages OpenHealthKit builds against (Debian 12). Does nothing when they are
# already installed, so it is cheap to run before every build.
set -euo pipefail
# chromium: ReportEndToEndTests render `healthctl report` in a real headless browser.
# libxml2-dev: healthctl import reads export.xml with libxml2's SAX2 push parser (CLibXML2).
# systemd: systemd-socket-activate and systemd-analyze for the service tests (no running systemd needed).
packages=(libsqlite3-dev libssl-dev zlib1g-dev libseccomp-dev libprotobuf-c-dev protobuf-c-compiler pkg-config bubblewrap chromium systemd libxml2-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "installing: ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
