#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What exec records cost: a shell that runs /bin/true N times, on the host,
# in bubblewrap (same namespaces, no exec listener) and in moat (every exec
# waits while moat-supervisor reads its path and argv). Per-exec cost is the
# slope between two loop lengths, so start-up cancels out. Prints markdown
# for docs/performance.md. Not part of the test suite.
#
#   tests/bench/exec/run.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR: a build tree with bin/moat and bin/moat-supervisor (default
# /tmp/build-bench-exec, configured as Release and built when missing).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
build=/tmp/build-bench-exec quick=0
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
if [[ ! -x $build/bin/moat ]]; then
  say "configuring a Release build in $build"
  cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMOAT_BUILD_TESTS=OFF >/dev/null
  cmake --build "$build" --target moat moat-supervisor -- -j2 >/dev/null
fi
moat=$build/bin/moat

short=200 long=2000 runs=10
((quick)) && { long=1000; runs=5; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
loop() { echo "i=0; while [ \$i -lt $1 ]; do /bin/true; i=\$((i+1)); done"; }

bwrap_cmd=(bwrap --unshare-all --die-with-parent --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib
  --symlink usr/lib64 /lib64 --proc /proc --dev /dev --tmpfs /tmp --chdir /tmp)
declare -A commands=(
  [host]="sh -c"
  [bwrap]="${bwrap_cmd[*]} sh -c"
  [moat]="$moat run --embedded --workspace $work -- sh -c"
)
say "running $runs rounds of $short and $long execs per path"
for path in host bwrap moat; do
  hyperfine -N --warmup 2 --runs "$runs" --export-json "$work/$path.json" \
    "${commands[$path]} '$(loop $short)'" "${commands[$path]} '$(loop $long)'" >/dev/null 2>&1
done

python3 - "$work" "$short" "$long" <<'EOF'
import json, statistics, sys
work, short, long_ = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = {}
for path in ("host", "bwrap", "moat"):
    results = json.load(open(f"{work}/{path}.json"))["results"]
    a, b = (statistics.median(r["times"]) for r in results)
    rows[path] = (a, b, (b - a) / (long_ - short) * 1e6)
print(f"| path | {short} execs | {long_} execs | per exec | vs bwrap |")
print("| --- | ---: | ---: | ---: | ---: |")
for path, (a, b, per) in rows.items():
    ratio = per / rows["bwrap"][2]
    print(f"| {path} | {a*1e3:,.1f} ms | {b*1e3:,.1f} ms | {per:,.1f} µs | {ratio:.2f}x |")
extra = rows["moat"][2] - rows["bwrap"][2]
print(f"\nAn exec in moat (the exec listener's round trip to the supervisor, plus the seccomp filter and "
      f"Landlock, which bubblewrap does not apply) costs {extra:,.1f} µs more than in bubblewrap "
      f"({(rows['moat'][1] / rows['bwrap'][1] - 1) * 100:+.1f}% on the {long_}-exec loop).")
EOF
