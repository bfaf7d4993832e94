#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# moat's egress proxy beside no proxy, tinyproxy and squid, on loopback, in
# one run:
#   (a) CONNECT tunnel throughput of a 1 GiB transfer;
#   (b) the latency a small request gains through each proxy, p50 and p99;
#   (c) requests per second with 64 concurrent clients;
#   (d) 5,000 idle tunnels held open, and the proxy's resident memory.
# The client runs inside `moat run --allow-host 127.0.0.1:PORT` for moat (as
# an agent would, through 127.0.0.1:3128 and 127.0.0.1:1080 of the sandbox)
# and on the host for the others. Prints a markdown report for
# docs/performance.md. Not part of the test suite.
#
#   tests/bench/egress/run.sh [--quick] [--keep] [BIN_DIR]
#
# BIN_DIR holds moat and moat-supervisor (default: build/bin of this
# checkout). Installs tinyproxy and squid with apt-get when missing (as root,
# or through sudo) and leaves their Debian services stopped; runs its own
# instances with private configurations on free loopback ports. Builds its two
# tools (upstream.cpp, loadclient.cpp) with g++ -O2 into a temporary directory.
# --quick: fewer rounds and shorter runs (about 2 minutes instead of 7).
# --keep: keep the temporary directory (configurations, logs, raw JSON).
# Environment: ONLY=direct,moat,moat-socks5,tinyproxy,squid to run a subset;
# TUNNELS=5000 for the idle test.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
quick=() keep=0 bin_arg=""
for arg in "$@"; do
  case $arg in
    --quick) quick=(--quick) ;;
    --keep) keep=1 ;;
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $arg" >&2; exit 2 ;;
    *) bin_arg=$arg ;;
  esac
done
bin_dir=$(cd "${bin_arg:-$repo/build/bin}" 2>/dev/null && pwd) || {
  echo "run.sh: no such directory: ${bin_arg:-$repo/build/bin} (build moat first: cmake --preset default && cmake --build build)" >&2
  exit 2
}
say() { echo "run.sh: $*" >&2; }

# --- what is needed --------------------------------------------------------
for binary in moat moat-supervisor; do
  [[ -x $bin_dir/$binary ]] || { say "missing $bin_dir/$binary (build moat first)"; exit 2; }
done
for tool in g++ python3; do
  command -v "$tool" >/dev/null || { say "missing $tool (Debian packages: g++, python3)"; exit 2; }
done
packages=()
command -v tinyproxy >/dev/null || [[ -x /usr/bin/tinyproxy ]] || packages+=(tinyproxy)
command -v squid >/dev/null || [[ -x /usr/sbin/squid ]] || packages+=(squid)
if ((${#packages[@]})); then
  sudo=()
  if [[ $(id -u) != 0 ]]; then
    command -v sudo >/dev/null || { say "installing ${packages[*]} needs root or sudo"; exit 2; }
    sudo=(sudo)
  fi
  say "installing ${packages[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq "${packages[@]}" >&2 || {
    "${sudo[@]}" timeout 300 apt-get update -qq >&2
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq "${packages[@]}" >&2
  }
  # The packages start their services where an init system lets them; the
  # benchmark runs its own instances, so stop those.
  for service in "${packages[@]}"; do
    "${sudo[@]}" service "$service" stop >/dev/null 2>&1 || true
    for pid in $(pgrep -x "$service" || true); do
      [[ $(readlink "/proc/$pid/exe" 2>/dev/null) == */"$service" ]] && "${sudo[@]}" kill "$pid" 2>/dev/null || true
    done
  done
fi
export PATH=$PATH:/usr/sbin:/sbin

# --- a private place for everything ----------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/moat-egress-bench.XXXXXX")
chmod 755 "$tmp"
cleanup() {
  if ((keep)); then say "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

mkdir -p "$tmp/tools"
for tool in upstream loadclient; do
  g++ -O2 -std=c++20 -pthread -o "$tmp/tools/$tool" "$here/$tool.cpp" || { say "building $tool failed"; exit 1; }
done

# 5,000 tunnels hold 10,000 descriptors in a proxy: raise the soft limit to
# the hard one (bench.py says so when that is not enough).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

status=0
timeout 3600 python3 "$here/bench.py" --tools "$tmp/tools" --moat-bin "$bin_dir" --work "$tmp" --repo "$repo" \
  --json "$tmp/raw.json" --tunnels "${TUNNELS:-5000}" --only "${ONLY:-}" "${quick[@]}" || status=$?
((status == 4)) && say "some rows were not measured; the report says which"
exit "$status"
