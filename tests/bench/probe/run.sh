#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# How long `moat probe` takes (target: under 2 s), side by side with the same
# checks elsewhere: moat-probe in a bubblewrap sandbox (the same program, the
# peer's start-up instead of moat's), `moat probe --host` (no sandbox), and
# the seed's shell probe (the eight commands of "Check Your Own", minus the
# curl that would send traffic). Medians of hyperfine runs; prints markdown
# for docs/performance.md. Not part of the test suite.
#
#   tests/bench/probe/run.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR: a build tree with bin/moat, bin/moat-supervisor and
# bin/moat-probe (default /tmp/build-bench-probe, configured as Release and
# built when missing). Run as any user; `moat probe` starts embedded.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
build=/tmp/build-bench-probe quick=0
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

for tool in hyperfine bwrap python3; do
  command -v "$tool" >/dev/null || { say "$tool is missing (scripts/install-deps.sh installs it)"; exit 2; }
done
if [[ ! -x $build/bin/moat-probe ]]; then
  say "configuring a Release build in $build"
  cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMOAT_BUILD_TESTS=OFF >/dev/null
  cmake --build "$build" --target moat moat-supervisor moat-probe -- -j2 >/dev/null
fi
moat=$build/bin/moat
runs=20
((quick)) && runs=5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The context moat-probe needs, as `moat probe` would give it (host
# namespaces only: the rest is not needed to time the checks).
context=$(python3 -c '
import json, os
ns = {k: os.stat("/proc/self/ns/" + k).st_ino for k in ("user","mnt","pid","net","ipc","uts","cgroup","time")}
print(json.dumps({"namespaces": ns, "records": None, "checkpoints": None, "real_home": None,
                  "host_bus": "", "workspace": "/tmp"}))')
printf '%s' "$context" >"$work/context.json"
cp "$build/bin/moat-probe" "$work/moat-probe"
cat >"$work/bwrap-probe.sh" <<SH
exec bwrap --unshare-all --die-with-parent --new-session --ro-bind /usr /usr --symlink usr/bin /bin \
  --symlink usr/lib /lib --symlink usr/lib64 /lib64 --ro-bind /etc /etc --proc /proc --dev /dev --tmpfs /tmp \
  --ro-bind "$work" "$work" --cap-drop ALL "$work/moat-probe" --inside "\$(cat "$work/context.json")"
SH
cat >"$work/seed-probe.sh" <<'SH'
cat /sys/kernel/security/lsm >/dev/null 2>&1
grep -E '^(CapEff|CapAmb|NoNewPrivs|Seccomp):' /proc/self/status >/dev/null
sudo -n true >/dev/null 2>&1
id >/dev/null
unshare -Urpf --mount-proc true >/dev/null 2>&1
find / -maxdepth 3 \( -path /proc -o -path /sys \) -prune -o -type s -print >/dev/null 2>&1
env | cut -d= -f1 | grep -iE 'token|key|secret' >/dev/null
true
SH

say "checking that each path runs"
"$moat" probe --embedded --json >/dev/null
"$moat" probe --host --json >/dev/null
bash "$work/bwrap-probe.sh" >/dev/null
bash "$work/seed-probe.sh"

say "timing $runs runs of each"
hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/times.json" \
  -n "moat probe (fresh default sandbox)" "$moat probe --embedded --json" \
  -n "moat-probe in bubblewrap" "bash $work/bwrap-probe.sh" \
  -n "moat probe --host" "$moat probe --host --json" \
  -n "the seed's shell probe, on the host" "bash $work/seed-probe.sh" >/dev/null 2>&1

python3 - "$work/times.json" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
rows = [(r["command"], statistics.median(r["times"]), max(r["times"])) for r in results]
bwrap = next(t for name, t, _ in rows if "bubblewrap" in name)
print("| what | median | slowest | vs moat-probe in bubblewrap |")
print("| --- | ---: | ---: | ---: |")
for name, median, slowest in rows:
    print(f"| {name} | {median*1e3:,.1f} ms | {slowest*1e3:,.1f} ms | {median / bwrap:.2f}x |")
moat = rows[0][1]
print(f"\n`moat probe` took {moat*1e3:,.0f} ms at the median: {'under' if moat < 2 else 'OVER'} the 2 s target.")
PY
