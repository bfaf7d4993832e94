#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Cold start of moat-manager to a drawn Sessions window (target: under 1 s),
# on a real X server (Xvfb) against the build's moatd on a private
# dbus-daemon holding 20 past sessions, side by side with a bare Qt Widgets
# window (QMainWindow + QTableView: what starting Qt itself costs here).
# The page cache is warm after the first round ("cold" is the process, not
# the disk). Prints a markdown report for docs/performance.md. Not part of
# the test suite.
#
#   tests/bench/manager_start/run.sh [--rounds N] [BUILD_DIR]
#
# BUILD_DIR: a Release build tree to use or make (default
# /tmp/build-bench-manager); only the targets needed are built.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
build=/tmp/build-bench-manager rounds=15
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift ;;
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) build=$1 ;;
  esac
  shift
done
say() { echo "run.sh: $*" >&2; }
for tool in dbus-daemon xvfb-run; do
  command -v $tool >/dev/null || { say "$tool is missing (scripts/install-deps.sh installs it)"; exit 2; }
done
# Under an X server of our own: re-run this script inside xvfb-run.
if [[ -z ${MOAT_BENCH_UNDER_XVFB:-} ]]; then
  MOAT_BENCH_UNDER_XVFB=1 exec xvfb-run -a -s "-screen 0 1280x800x24" "$0" --rounds "$rounds" "$build"
fi

if [[ ! -f $build/CMakeCache.txt ]]; then
  say "configuring a Release build in $build"
  cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
say "building moat, moatd and manager_cold_start"
cmake --build "$build" --target moat moatd manager_cold_start -- -j2 >/dev/null
bench=$build/tests/bench/manager_start/manager_cold_start
[[ -x $bench && -x $build/bin/moatd ]] || { say "the bench or moatd was not built"; exit 2; }

scratch=$(mktemp -d /tmp/moat-bench-start-XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$scratch"; }
trap cleanup EXIT
export HOME=$scratch/home XDG_CONFIG_HOME=$scratch/home/.config XDG_RUNTIME_DIR=$scratch/run
export MOAT_STATE_DIR=$scratch/state MOAT_CONFIG_DIR=$scratch/config QT_QPA_PLATFORM=xcb
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" "$MOAT_STATE_DIR" "$MOAT_CONFIG_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
cat > "$scratch/bus.conf" <<CONF
<busconfig>
  <type>session</type>
  <listen>unix:path=$scratch/run/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
CONF
dbus-daemon --config-file="$scratch/bus.conf" --nofork >/dev/null 2>&1 &
pids+=($!)
export DBUS_SESSION_BUS_ADDRESS=unix:path=$scratch/run/bus
for _ in $(seq 50); do [[ -S $scratch/run/bus ]] && break; sleep 0.1; done
"$build/bin/moatd" >/dev/null 2>&1 &
pids+=($!)
sleep 1
# 20 past sessions for the list to show.
for i in $(seq 20); do "$build/bin/moat" run --name "past-$i" -- true >/dev/null 2>&1 || true; done
[[ $("$build/bin/moat" ps --all --json | grep -o '"id"' | wc -l) -ge 20 ]] || { say "moatd did not run the sessions"; exit 2; }

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
once() {  # $1: extra argument; prints "first drawn"
  out=$("$bench" --t0 "$(date +%s%N)" $1)
  echo "$(awk '/first_paint_ms/ {print $2}' <<<"$out") $(awk '/sessions_drawn_ms/ {print $2}' <<<"$out")"
}
"$bench" --t0 "$(date +%s%N)" >/dev/null  # warm the page cache
"$bench" --t0 "$(date +%s%N)" --bare >/dev/null
app="" bare=""
for ((i = 1; i <= rounds; i++)); do  # alternated, so that the machine's load falls on both alike
  app+="$(once "")"$'\n'
  bare+="$(once --bare)"$'\n'
done
app=$(sed '/^$/d' <<<"$app") bare=$(sed '/^$/d' <<<"$bare")
app_first=$(cut -d' ' -f1 <<<"$app" | median) app_drawn=$(cut -d' ' -f2 <<<"$app" | median)
bare_first=$(cut -d' ' -f1 <<<"$bare" | median)
echo "moat $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) CPUs, Xvfb, $rounds rounds, medians"
echo
echo "| | moat-manager | bare Qt window | ratio |"
echo "|---|---|---|---|"
echo "| exec to first paint | ${app_first} ms | ${bare_first} ms | $(awk -v a="$app_first" -v b="$bare_first" 'BEGIN {printf "%.2fx", a/b}') |"
echo "| exec to the Sessions list drawn (20 sessions from moatd) | ${app_drawn} ms | | |"
