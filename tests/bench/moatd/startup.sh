#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `moat run -- true` through moatd against embedded mode, on this machine:
#   moatd     a private session bus (dbus-daemon) that activates BIN_DIR/moatd,
#             with an unlocked gnome-keyring, as a desktop session has;
#   embedded  `moat run --embedded -- true` on the same bus (the record keys
#             come from gnome-keyring, as they would for that user);
#   no bus    `moat run -- true` without a session bus (the record keys in the
#             key file; no Qt is loaded at all).
# Prints the medians, the ratios and a markdown table for docs/performance.md.
# Builds nothing, installs nothing; everything lives in a temporary directory.
# moatd's memory is measured by run.sh beside this script.
#
#   tests/bench/moatd/startup.sh [BIN_DIR]     BIN_DIR defaults to build/bin of this checkout
#
# Environment knobs: RUNS=200 WARMUP=20 KEEP=1 (keep the temporary directory).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
bin_dir=$(cd "${1:-$repo/build/bin}" 2>/dev/null && pwd) || {
  echo "startup.sh: no such directory: ${1:-$repo/build/bin} (build first: cmake --preset default && cmake --build build)" >&2
  exit 2
}
RUNS=${RUNS:-200}
WARMUP=${WARMUP:-20}

say() { echo "startup.sh: $*" >&2; }

for tool in hyperfine dbus-daemon gnome-keyring-daemon python3; do
  command -v "$tool" >/dev/null || { say "$tool is not installed (Debian: hyperfine, dbus, gnome-keyring, python3)"; exit 2; }
done
for program in moat moat-supervisor moatd moat-dbus.so; do
  [ -e "$bin_dir/$program" ] || { say "$bin_dir/$program is missing: build moat, moatd and moat-dbus first"; exit 2; }
done

work=$(mktemp -d /tmp/moat-bench-startup-XXXXXX)
bus_pid=
# The moatd this run's bus started (its environment names $work), if any.
our_moatd() {
  local pid
  for pid in $(pgrep -f "^$bin_dir/moatd" -U "$(id -u)" || true); do
    if grep -qa "$work" "/proc/$pid/environ" 2>/dev/null; then echo "$pid"; return; fi
  done
}
cleanup() {
  # moatd and gnome-keyring were started for this run: end them by their pids.
  for pid in $(our_moatd) $(cat "$work/keyring.pid" 2>/dev/null || true); do
    kill "$pid" 2>/dev/null || true
  done
  [ -n "$bus_pid" ] && kill "$bus_pid" 2>/dev/null || true
  if [ "${KEEP:-}" = 1 ]; then say "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

mkdir -p "$work"/{run,data,services,state,config,state-nobus,config-nobus,ws}
chmod 700 "$work/run"
export HOME="$work" XDG_RUNTIME_DIR="$work/run" XDG_DATA_HOME="$work/data"
export MOAT_STATE_DIR="$work/state" MOAT_CONFIG_DIR="$work/config"
address="unix:path=$work/run/bus"
cat >"$work/services/org.moat.Manager1.service" <<SERVICE
[D-BUS Service]
Name=org.moat.Manager1
Exec=$bin_dir/moatd
SERVICE
cat >"$work/bus.conf" <<CONF
<busconfig>
  <type>session</type>
  <listen>$address</listen>
  <auth>EXTERNAL</auth>
  <servicedir>$work/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
export DBUS_SESSION_BUS_ADDRESS="$address"
dbus-daemon --config-file="$work/bus.conf" --nofork 2>"$work/bus.log" &
bus_pid=$!
for _ in $(seq 100); do [ -S "$work/run/bus" ] && break; sleep 0.05; done
printf %s bench-pass | gnome-keyring-daemon --unlock --components=secrets >"$work/keyring.env" 2>>"$work/bus.log"
sed -n 's/^GNOME_KEYRING_PID=//p' "$work/keyring.env" >"$work/keyring.pid"

cd "$work/ws"
# The first runs activate moatd and make the record keys.
"$bin_dir/moat" run -- true
"$bin_dir/moat" run --embedded -- true
[ -n "$(our_moatd)" ] || { say "moatd did not start by D-Bus activation"; exit 1; }

say "timing $RUNS runs each (after $WARMUP warm-up runs)"
hyperfine -N --style basic --warmup "$WARMUP" --runs "$RUNS" --export-json "$work/bus.json" \
  -n moatd "$bin_dir/moat run -- true" \
  -n embedded "$bin_dir/moat run --embedded -- true" >&2
nobus=(env -u DBUS_SESSION_BUS_ADDRESS MOAT_STATE_DIR="$work/state-nobus" MOAT_CONFIG_DIR="$work/config-nobus"
       XDG_RUNTIME_DIR="$work/nobus-run")
"${nobus[@]}" "$bin_dir/moat" run -- true 2>/dev/null
"${nobus[@]}" hyperfine -N --style basic --warmup "$WARMUP" --runs "$RUNS" --export-json "$work/nobus.json" \
  -n "no bus" "$bin_dir/moat run -- true" >&2

python3 - "$work/bus.json" "$work/nobus.json" "$RUNS" <<'PY'
import json, statistics, sys
results = {}
for path in sys.argv[1:3]:
    for r in json.load(open(path))["results"]:
        times = [t * 1000 for t in r["times"]]
        results[r["command"]] = (statistics.median(times), statistics.mean(times), statistics.stdev(times))
moatd, embedded, nobus = results["moatd"], results["embedded"], results["no bus"]
print(f"`moat run -- true`, {sys.argv[3]} runs each, hyperfine -N:")
print()
print("| `moat run -- true` | median | mean ± sd | moatd / this |")
print("| --- | ---: | ---: | ---: |")
for name, label in (("moatd", "through moatd (private bus, gnome-keyring)"),
                    ("embedded", "`--embedded`, same bus (keys from gnome-keyring)"),
                    ("no bus", "embedded, no session bus (keys in the key file)")):
    median, mean, sd = results[name]
    ratio = "" if name == "moatd" else f"{moatd[0] / median:.2f}x"
    print(f"| {label} | {median:.2f} ms | {mean:.2f} ± {sd:.2f} ms | {ratio} |")
print()
print(f"target: through moatd under 1.3x embedded; measured {moatd[0] / embedded[0]:.2f}x "
      f"(same bus), {moatd[0] / nobus[0]:.2f}x (no bus)")
PY
