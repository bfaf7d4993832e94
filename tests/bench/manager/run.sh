#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# moat-manager's session view with a large timeline (issue 7, Speed), against
# the build's real moatd on a private dbus-daemon:
#   (1) open a session of 1,000,000 events: first rows drawn, all loaded,
#       event-loop latency, memory;
#   (2) 1,000 new events a second: lag of the view, event-loop latency.
# Prints a markdown report for docs/performance.md. Not part of the test suite.
#
#   tests/bench/manager/run.sh [--quick] [--rounds N] [BUILD_DIR]
#
# BUILD_DIR: a Release build tree to use or make (default
# /tmp/build-bench-manager); only moatd and manager_timeline_bench are built.
# --quick: 100,000 events and 3 s live. --rounds: runs (default 3; the
# report shows each run, docs/performance.md their medians).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
build=/tmp/build-bench-manager quick=0 rounds=3
while (($#)); do
  case $1 in
    --quick) quick=1 ;;
    --rounds) rounds=$2; shift ;;
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) build=$1 ;;
  esac
  shift
done
say() { echo "run.sh: $*" >&2; }
command -v dbus-daemon >/dev/null || { say "dbus-daemon is missing (apt-get install dbus-daemon)"; exit 2; }

if [[ ! -f $build/CMakeCache.txt ]]; then
  say "configuring a Release build in $build"
  cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
say "building moatd and manager_timeline_bench"
cmake --build "$build" --target moatd manager_timeline_bench -- -j2 >/dev/null
bench=$(find "$build" -name manager_timeline_bench -type f -perm -u+x | head -1)
moatd=$(find "$build" -name moatd -type f -perm -u+x | head -1)
[[ -x $bench && -x $moatd ]] || { say "the bench or moatd was not built"; exit 2; }

args=(--moatd "$moatd")
((quick)) && args+=(--events 100000 --seconds 3)
echo "moat $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) CPUs, Qt offscreen platform"
for ((i = 1; i <= rounds; i++)); do
  echo
  echo "run $i"
  echo
  "$bench" "${args[@]}"
done
