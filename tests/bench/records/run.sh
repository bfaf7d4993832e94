#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# How fast moat keeps a session's records:
#   (a) events appended with the hash chain and the HMAC, as the supervisor
#       writes them (one write() a line, fdatasync in the background);
#   (b) `moat audit verify`'s check of a log of 1,000,000 events.
# Prints a markdown report for docs/performance.md. Not part of the test suite.
#
#   tests/bench/records/run.sh [--quick] [--dir DIR] [BUILD_DIR]
#
# BUILD_DIR: a Release build tree to use or make (default /tmp/build-bench-records);
# only the records_bench target is built. --dir: where the logs are written
# (default: a temporary directory under $HOME, on the disk that holds moat's
# state directory). --quick: fewer events and rounds.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
build=/tmp/build-bench-records dir="" quick=0
while (($#)); do
  case $1 in
    --quick) quick=1 ;;
    --dir) dir=$2; shift ;;
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
say "building records_bench"
cmake --build "$build" --target records_bench -- -j2 >/dev/null
bench=$(find "$build" -name records_bench -type f -perm -u+x | head -1)
[[ -x $bench ]] || { say "records_bench was not built"; exit 2; }

cleanup=""
if [[ -z $dir ]]; then
  dir=$(mktemp -d "$HOME/moat-records-bench.XXXXXX")
  cleanup=$dir
fi
trap '[[ -n $cleanup ]] && rm -rf "$cleanup"' EXIT

args=(--dir "$dir")
if ((quick)); then
  args+=(--append-events 50000 --verify-events 200000 --rounds 3)
fi
say "running (the verify log alone is about 260 MiB)"
echo "moat $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(df -T "$dir" | awk 'NR==2 {print $2 " on " $1}')"
echo
"$bench" "${args[@]}"
