#!/usr/bin/env bash
# Installs OpenHealthKit for the current user: a release build of healthd, healthctl and
# health-sandbox into PREFIX/bin, the systemd user units (systemd/) into the user's unit folder
# with their paths filled in, and — when a systemd user manager runs — enables the sockets
# (healthd starts on the first connection) and the launch agent.
#
#   scripts/install.sh                    build, install into ~/.local, enable
#   scripts/install.sh --prefix DIR       install into DIR/bin (units still per user)
#   scripts/install.sh --from BUILD-DIR   install binaries already built there (no build)
#   scripts/install.sh --uninstall        disable and remove binaries, units and docs;
#                                         the health store (~/.local/share/openhealth) stays
#
# Options: --prefix DIR, --unit-dir DIR (default ${XDG_CONFIG_HOME:-~/.config}/systemd/user),
# --from DIR, --no-enable (install without touching systemctl), --uninstall.
#
# A store with a passcode (healthctl passcode set): the unit starts healthd with --start-locked,
# so after a reboot apps can save at once and `healthctl unlock` (the passcode) opens the store.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="$HOME/.local"
unit_dir="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"
from=""
enable=yes
action=install
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
    --unit-dir) unit_dir="${2:?--unit-dir needs a folder}"; shift 2 ;;
    --from) from="${2:?--from needs a build folder}"; shift 2 ;;
    --no-enable) enable=no; shift ;;
    --uninstall) action=uninstall; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option '$1' (see --help)" >&2; exit 64 ;;
  esac
done
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
case "$unit_dir" in /*) ;; *) unit_dir="$PWD/$unit_dir" ;; esac

binaries=(healthd healthctl health-sandbox)
units=(healthd.socket healthd-admin.socket healthd.service health-sandbox-agent.service)
bin_dir="$prefix/bin"
doc_dir="$prefix/share/doc/openhealthkit"
# Where healthd.service keeps the store (its ExecStart= and ReadWritePaths=).
store_dir="$HOME/.local/share/openhealth"

# A user manager to talk to: systemctl exists and answers for this user. Not in CI containers
# or over a bare `su`; then the script says what to run instead.
user_manager() {
  [ "$enable" = yes ] && command -v systemctl >/dev/null 2>&1 && systemctl --user show-environment >/dev/null 2>&1
}

if [ "$action" = uninstall ]; then
  if user_manager; then
    systemctl --user disable --now health-sandbox-agent.service healthd.service healthd.socket healthd-admin.socket 2>/dev/null || true
  fi
  for unit in "${units[@]}"; do rm -f "$unit_dir/$unit"; done
  for binary in "${binaries[@]}"; do rm -f "$bin_dir/$binary"; done
  rm -rf "$doc_dir"
  if user_manager; then systemctl --user daemon-reload; fi
  echo "removed OpenHealthKit from $bin_dir and $unit_dir"
  echo "your health data is still in $store_dir (delete it yourself if you mean to)"
  exit 0
fi

if [ -z "$from" ]; then
  ./scripts/install-deps.sh
  for binary in "${binaries[@]}"; do
    echo "building $binary (release)…"
    swift build -c release --product "$binary"
  done
  from=$(swift build -c release --show-bin-path)
fi
for binary in "${binaries[@]}"; do
  [ -x "$from/$binary" ] || { echo "install.sh: $from/$binary is missing; build it first" >&2; exit 66; }
done

# The three tools side by side: healthd trusts healthctl and health-sandbox on its admin socket
# only when they sit next to it.
install -d -m 0755 "$bin_dir" "$unit_dir" "$doc_dir"
# The unit's ReadWritePaths= names the store folder, and systemd refuses to start a unit whose
# ReadWritePaths= does not exist; healthd itself could not create it under ProtectHome=read-only.
install -d -m 0700 "$store_dir"
for binary in "${binaries[@]}"; do
  install -m 0755 "$from/$binary" "$bin_dir/$binary.new"
  mv -f "$bin_dir/$binary.new" "$bin_dir/$binary"
done
install -m 0644 README.md "$doc_dir/README.md"
# Paths go into the units as they are; systemd splits ExecStart= at spaces.
case "$bin_dir$doc_dir" in *[[:space:]]*) echo "install.sh: the prefix must not contain spaces (systemd units)" >&2; exit 64 ;; esac
# sed's replacement text treats \, & and the delimiter specially.
escape() { printf '%s' "$1" | sed -e 's/[\\#&]/\\&/g'; }
for unit in "${units[@]}"; do
  sed -e "s#@BINDIR@#$(escape "$bin_dir")#g" -e "s#@DOCDIR@#$(escape "$doc_dir")#g" "systemd/$unit" > "$unit_dir/$unit.new"
  chmod 0644 "$unit_dir/$unit.new"
  mv -f "$unit_dir/$unit.new" "$unit_dir/$unit"
done
echo "installed ${binaries[*]} into $bin_dir"
echo "installed ${units[*]} into $unit_dir"

if user_manager; then
  systemctl --user daemon-reload
  systemctl --user enable --now healthd.socket healthd-admin.socket
  systemctl --user enable --now health-sandbox-agent.service
  echo "healthd starts on the first connection; try: $bin_dir/healthctl status"
  echo "(with a passcode set, it starts locked: run $bin_dir/healthctl unlock to read your data)"
else
  echo "no systemd user manager to enable the units with; when there is one (a login session), run:"
  echo "  systemctl --user daemon-reload"
  echo "  systemctl --user enable --now healthd.socket healthd-admin.socket health-sandbox-agent.service"
  echo "or start healthd by hand: $bin_dir/healthd"
fi
