#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# How fast the session CA mints the leaf certificates of TLS interception:
# a fresh authority, N distinct names minted, then each asked for again
# (served from the cache). Prints a markdown table for docs/performance.md.
# Not part of the test suite.
#
#   tests/bench/tls/run.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR: a Release build tree to use or make (default /tmp/build-bench-tls);
# only the tls_bench target is built. --quick: fewer names and rounds.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
build=/tmp/build-bench-tls quick=0
while (($#)); do
  case $1 in
    --quick) quick=1 ;;
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) build=$1 ;;
  esac
  shift
done
say() { echo "run.sh: $*" >&2; }

if [[ ! -f $build/CMakeCache.txt ]]; then
  say "configuring a Release build in $build"
  cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
say "building tls_bench"
cmake --build "$build" --target tls_bench -- -j2 >/dev/null
bench=$(find "$build" -name tls_bench -type f -perm -u+x | head -1)
[[ -x $bench ]] || { say "tls_bench was not built"; exit 2; }

args=()
if ((quick)); then
  args+=(--names 200 --rounds 1)
fi
echo "moat $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(openssl version)"
echo
"$bench" "${args[@]}"
