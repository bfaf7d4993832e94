#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# moatd's resident memory: idle, then with N sessions running at once (each
# `moat run --net none -- sleep`, started through moatd), then after they all
# ended. moatd runs on a private session bus (dbus-run-session) with private
# MOAT_*_DIR directories; nothing is left behind. Prints a markdown report
# for docs/performance.md. Not part of the test suite.
#
#   tests/bench/moatd/run.sh [--sessions N] [BIN_DIR]
#
# BIN_DIR: where moat, moatd and moat-supervisor are (default: build/bin of
# this checkout). It builds nothing.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
bin=$repo/build/bin sessions=20
while (($#)); do
  case $1 in
    --sessions) sessions=$2; shift ;;
    --inner) inner=1 ;;
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) bin=$1 ;;
  esac
  shift
done
say() { echo "run.sh: $*" >&2; }
for program in moat moatd moat-supervisor; do
  [[ -x $bin/$program ]] || { say "$bin/$program is missing: build it first (cmake --build build)"; exit 2; }
done
command -v dbus-run-session >/dev/null || { say "dbus-run-session is missing (Debian: dbus)"; exit 2; }

if [[ -z ${inner:-} ]]; then
  # Everything else runs inside a private session bus.
  work=$(mktemp -d /tmp/moat-bench-moatd-XXXXXX)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work"/{config,state,data,run,ws,xdg}
  chmod 700 "$work/xdg"
  # The bus listens in $work: the stock session configuration would leave its
  # socket behind in /tmp.
  cat >"$work/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=$work/xdg/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
EOF
  MOAT_CONFIG_DIR=$work/config MOAT_STATE_DIR=$work/state MOAT_DATA_DIR=$work/data MOAT_RUNTIME_DIR=$work/run \
    XDG_RUNTIME_DIR=$work/xdg BENCH_WORK=$work \
    dbus-run-session --config-file="$work/bus.conf" -- "$0" --inner --sessions "$sessions" "$bin"
  exit $?
fi

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
work=$BENCH_WORK
"$bin/moatd" 2>"$work/moatd.log" &
moatd=$!
# On any exit: moatd, and the supervisors of this run's sessions (they
# outlive moatd by design), by the pids their status.json names.
cleanup() {
  kill "$moatd" 2>/dev/null || true
  for status in "$work"/state/sessions/*/status.json; do
    [[ -f $status ]] || continue
    pid=$(sed -n 's/.*"supervisor_pid": *\([0-9]*\).*/\1/p' "$status")
    [[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT
for _ in $(seq 100); do
  "$bin/moat" ps --json >/dev/null 2>&1 && break
  sleep 0.1
done
idle=$(rss_kib "$moatd")

cd "$work/ws"
pids=()
for i in $(seq "$sessions"); do
  "$bin/moat" run --net none --name "bench-$i" -- sleep 120 >/dev/null 2>&1 &
  pids+=($!)
done
running=0
for _ in $(seq 600); do
  running=$({ "$bin/moat" ps --json 2>/dev/null || true; } | { grep -o '"state": *"running"' || true; } | wc -l)
  ((running >= sessions)) && break
  sleep 0.1
done
((running >= sessions)) || { say "only $running of $sessions sessions started"; cat "$work/moatd.log" >&2; exit 1; }
sleep 1
busy=$(rss_kib "$moatd")
peak=$(awk '/^VmHWM:/ {print $2}' "/proc/$moatd/status")
supervisor=$(for status in "$work"/state/sessions/*/status.json; do
  pid=$(sed -n 's/.*"supervisor_pid": *\([0-9]*\).*/\1/p' "$status")
  [[ -n $pid ]] && rss_kib "$pid"
done 2>/dev/null | sort -n | tail -1 || true)

for i in $(seq "$sessions"); do
  "$bin/moat" stop "bench-$i" >/dev/null 2>&1 || true
done
wait "${pids[@]}" 2>/dev/null || true
sleep 1
after=$(rss_kib "$moatd")

mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }
cat <<REPORT
### moatd resident memory ($(date -u +%Y-%m-%d), $(uname -r), $(nproc) cores)

| moatd | VmRSS |
| --- | --- |
| idle, no session | $(mib "$idle") |
| $sessions sessions running (\`moat run --net none -- sleep 120\` each) | $(mib "$busy") |
| peak (VmHWM) | $(mib "$peak") |
| after all $sessions were stopped | $(mib "$after") |

Per session moatd holds about $(awk -v a="$idle" -v b="$busy" -v n="$sessions" 'BEGIN { printf "%.0f KiB", (b - a) / n }'); each session's own moat-supervisor is a separate process (largest here: $(mib "${supervisor:-0}")).
REPORT
