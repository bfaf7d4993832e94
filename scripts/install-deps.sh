#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs every build and test dependency of moat from Debian 12's packages.
# Idempotent and non-interactive; uses sudo for apt-get when not run as root.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-tools-dev qt6-l10n-tools qtkeychain-qt6-dev libsecret-1-0
  libseccomp-dev libcap-ng-dev libspdlog-dev libfmt-dev nlohmann-json3-dev libssl-dev
  libboost-dev libcli11-dev libtomlplusplus-dev
  # tests: real tools the suite drives, and the peers the benchmark compares with
  python3 python3-pip curl git util-linux procps iproute2 sudo busybox-static strace
  clang-14 libclang-rt-14-dev
  dbus dbus-x11 gnome-keyring xvfb xauth fonts-dejavu-core
  xterm  # moat-manager's "Open in terminal" attaches a real terminal emulator in its test
  bubblewrap hyperfine uidmap nginx-light
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$pkg")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-deps: missing packages (${missing[*]}) and no sudo; run this script as root" >&2
    exit 1
  fi
  as_root=(sudo)
fi

echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
echo "install-deps: done"
