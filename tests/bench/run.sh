#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# moat beside bubblewrap on this machine:
#   (a) start-up time of `moat run --workspace W -- true` against the closest
#       bubblewrap command, as root and as an ordinary user;
#   (b) the resident memory of moat-supervisor during `moat run -- sleep 2`.
# Prints a markdown report ready for docs/performance.md. Not part of the test
# suite; builds nothing and installs nothing.
# The egress proxy's benchmarks (beside tinyproxy and squid) are a separate
# command: tests/bench/egress/run.sh [--quick].
#
#   tests/bench/run.sh [BIN_DIR]     BIN_DIR defaults to build/bin of this checkout
#
# Environment knobs:
#   RUNS=200        timed runs per command, split over ROUNDS hyperfine calls
#   ROUNDS=4        rounds, alternating which command goes first (shared machines drift)
#   WARMUP=20       warm-up runs per command and round
#   MEM_RUNS=5      `moat run -- sleep 2` runs sampled for memory
#   PHASE_RUNS=25   perf trace runs for the phase breakdown (0 skips it and the profiles)
#   BENCH_USER=moat-test  ordinary user for the second set of rows ("" to skip)
#   KEEP=1          keep the temporary directory (hyperfine JSON, logs)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin_dir=$(cd "${1:-$repo/build/bin}" 2>/dev/null && pwd) || {
  echo "run.sh: no such directory: ${1:-$repo/build/bin} (build first: cmake --preset default && cmake --build build)" >&2
  exit 2
}
RUNS=${RUNS:-200}
ROUNDS=${ROUNDS:-4}
WARMUP=${WARMUP:-20}
MEM_RUNS=${MEM_RUNS:-5}
PHASE_RUNS=${PHASE_RUNS:-25}
BENCH_USER=${BENCH_USER-moat-test}

say() { echo "run.sh: $*" >&2; }

# --- what is needed --------------------------------------------------------
missing=()
for binary in moat moat-supervisor; do
  [[ -x $bin_dir/$binary ]] || missing+=("$bin_dir/$binary (build it: cmake --preset default && cmake --build build)")
done
command -v bwrap >/dev/null || missing+=("bwrap (Debian package: bubblewrap)")
command -v hyperfine >/dev/null || missing+=("hyperfine (Debian package: hyperfine)")
command -v python3 >/dev/null || missing+=("python3 (Debian package: python3)")
if ((${#missing[@]})); then
  echo "run.sh: missing, install or build these first (run.sh installs nothing):" >&2
  printf '  - %s\n' "${missing[@]}" >&2
  exit 2
fi
as_user=""
if [[ $(id -u) == 0 && -n $BENCH_USER ]]; then
  if ! id "$BENCH_USER" >/dev/null 2>&1; then
    say "no user '$BENCH_USER': the ordinary-user rows are skipped (useradd -m $BENCH_USER, or set BENCH_USER)"
  elif ! command -v setpriv >/dev/null; then
    say "no setpriv (Debian package: util-linux): the ordinary-user rows are skipped"
  else
    as_user=$BENCH_USER
  fi
fi
with_perf=0 with_strace=0
if ((PHASE_RUNS > 0)); then
  if [[ $(id -u) == 0 ]] && command -v perf >/dev/null && perf trace -e exit_group -- true >/dev/null 2>&1; then
    with_perf=1
  else
    say "no usable perf (needs root and linux-perf): the phase breakdown and CPU profile are skipped"
  fi
  if command -v strace >/dev/null; then with_strace=1; else say "no strace: the system-call counts are skipped"; fi
fi

# --- a private place for everything ----------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/moat-bench.XXXXXX")
chmod 755 "$tmp"
cleanup() {
  if [[ ${KEEP:-0} == 1 ]]; then say "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

# The closest bubblewrap command: the host's /usr read-only, its top-level
# links (or directories) to /usr, fresh /proc, /dev and /tmp, the workspace
# read-write at its own path, every namespace new. moat additionally writes
# /etc, a HOME, session records and the audit log, and applies Landlock and
# seccomp; bubblewrap here does none of that.
bwrap_command() {
  local ws=$1 parts=(bwrap --unshare-all --die-with-parent --ro-bind /usr /usr) name target
  for name in bin sbin lib lib32 lib64 libx32; do
    if [[ -L /$name ]]; then
      target=$(readlink "/$name")
      parts+=(--symlink "$target" "/$name")
    elif [[ -d /$name ]]; then
      parts+=(--ro-bind "/$name" "/$name")
    fi
  done
  parts+=(--proc /proc --dev /dev --tmpfs /tmp --bind "$ws" "$ws" --chdir "$ws" -- true)
  echo "${parts[*]}"
}

# setup_account LABEL OWNER: a workspace, moat's own directories (never
# the invoker's real ones: each run leaves a session record) and, for another
# user, a place it can write. Prints the command prefix that runs as OWNER.
setup_account() {
  local owner=$2 base=$tmp/$1
  mkdir -p "$base/ws" "$base/home" "$base/moat/config" "$base/moat/state" "$base/moat/data" "$base/out"
  chown -R "$owner:" "$base"
  chmod 755 "$base" "$base/ws" "$base/out"
  local prefix=()
  [[ $owner != "$(id -un)" ]] && prefix=(setpriv "--reuid=$owner" "--regid=$owner" --init-groups)
  prefix+=(env -i "PATH=/usr/local/bin:/usr/bin:/bin" "HOME=$base/home" "MOAT_CONFIG_DIR=$base/moat/config"
    "MOAT_STATE_DIR=$base/moat/state" "MOAT_DATA_DIR=$base/moat/data")
  echo "${prefix[*]}"
}

accounts=("root-or-invoker")
declare -A label_of bin_of prefix_of
me=$(id -un)
label_of[root-or-invoker]=$([[ $(id -u) == 0 ]] && echo "root" || echo "$me (ordinary user)")
bin_of[root-or-invoker]=$bin_dir
prefix_of[root-or-invoker]=$(setup_account invoker "$me")
if [[ -n $as_user ]]; then
  accounts+=("user")
  mkdir -p "$tmp/bin"
  cp "$bin_dir/moat" "$bin_dir/moat-supervisor" "$tmp/bin/"
  chmod 755 "$tmp/bin" "$tmp/bin/moat" "$tmp/bin/moat-supervisor"
  label_of[user]="$as_user (ordinary user)"
  bin_of[user]=$tmp/bin
  prefix_of[user]=$(setup_account user "$as_user")
fi
base_of() { [[ $1 == user ]] && echo "$tmp/user" || echo "$tmp/invoker"; }

# Check that both commands work before timing them.
for account in "${accounts[@]}"; do
  base=$(base_of "$account")
  # shellcheck disable=SC2086  # the prefix is words on purpose
  if ! (cd "$base/ws" && ${prefix_of[$account]} "${bin_of[$account]}/moat" run --workspace "$base/ws" -- true) \
      >"$tmp/check.log" 2>&1; then
    say "moat run fails as ${label_of[$account]}:"; cat "$tmp/check.log" >&2; exit 1
  fi
  # shellcheck disable=SC2046
  if ! (cd "$base/ws" && ${prefix_of[$account]} $(bwrap_command "$base/ws")) >"$tmp/check.log" 2>&1; then
    say "bwrap fails as ${label_of[$account]}:"; cat "$tmp/check.log" >&2; exit 1
  fi
done

# --- (a) start-up time -----------------------------------------------------
per_round=$(((RUNS + ROUNDS - 1) / ROUNDS))
declare -A timing
for account in "${accounts[@]}"; do
  base=$(base_of "$account")
  moat_cmd="${bin_of[$account]}/moat run --workspace $base/ws -- true"
  bwrap_cmd=$(bwrap_command "$base/ws")
  say "timing as ${label_of[$account]}: $ROUNDS rounds of $per_round runs (+$WARMUP warm-up) per command"
  files=()
  for ((round = 1; round <= ROUNDS; round++)); do
    order=(-n moat "$moat_cmd" -n bwrap "$bwrap_cmd")
    ((round % 2 == 0)) && order=(-n bwrap "$bwrap_cmd" -n moat "$moat_cmd")
    out=$base/out/round-$round.json
    # shellcheck disable=SC2086
    (cd "$base/ws" && ${prefix_of[$account]} hyperfine -N --style basic --warmup "$WARMUP" --runs "$per_round" \
      --export-json "$out" "${order[@]}") >>"$tmp/hyperfine.log" 2>&1 || {
      say "hyperfine failed:"; tail -20 "$tmp/hyperfine.log" >&2; exit 1
    }
    files+=("$out")
  done
  while read -r name runs median mean stddev min max user system; do
    timing[$account,$name]="$runs $median $mean $stddev $min $max $user $system"
  done < <(python3 "$here/summarize.py" "${files[@]}")
  timing[$account,moat_cmd]=$moat_cmd
  timing[$account,bwrap_cmd]=$bwrap_cmd
done

# --- (b) moat-supervisor memory --------------------------------------------
declare -A memory
for account in "${accounts[@]}"; do
  base=$(base_of "$account")
  say "sampling moat-supervisor memory as ${label_of[$account]}: $MEM_RUNS runs of sleep 2"
  rss=0 hwm=0 init_rss=0 seen=0
  for ((i = 1; i <= MEM_RUNS; i++)); do
    # shellcheck disable=SC2086
    sample=$(cd "$base/ws" && python3 "$here/sample_rss.py" 5 -- ${prefix_of[$account]} \
      "${bin_of[$account]}/moat" run --workspace "$base/ws" -- sleep 2) || {
      say "moat run -- sleep 2 failed: $sample"; exit 1
    }
    read -r r h ir n < <(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); s=d["supervisor"]; i=d["sandbox_init"];
print(s["rss_kib"], s["hwm_kib"], i["rss_kib"], s["samples"])' "$sample")
    seen=$((seen + n))
    ((r > rss)) && rss=$r
    ((h > hwm)) && hwm=$h
    ((ir > init_rss)) && init_rss=$ir
  done
  ((seen > 0)) || say "moat-supervisor never seen as ${label_of[$account]}: memory not measured"
  memory[$account]="$rss $hwm $init_rss $seen"
done

# --- where moat's time goes ------------------------------------------------
# Phases from `perf trace` (tracepoints, not ptrace: close to full speed), the
# CPU profile by process and library (`perf record`), and system-call counts
# of one run of each command (`strace -f -c`).
phases="" profile="" syscalls=""
base=$(base_of root-or-invoker)
moat_one="$bin_dir/moat run --workspace $base/ws -- true"
if ((with_perf)); then
  say "phase breakdown: $PHASE_RUNS runs under perf trace"
  # shellcheck disable=SC2086
  phases=$(cd "$base/ws" && python3 "$here/phases.py" "$PHASE_RUNS" -- ${prefix_of[root-or-invoker]} $moat_one) ||
    phases="(phase breakdown failed: $phases)"
  say "CPU profile: 100 runs under perf record"
  # shellcheck disable=SC2086
  if (cd "$base/ws" && ${prefix_of[root-or-invoker]} perf record -q -F 10000 -o "$tmp/perf.data" -- \
      sh -c "for i in \$(seq 100); do $moat_one </dev/null; done") >"$tmp/perf.log" 2>&1; then
    profile=$(perf report -i "$tmp/perf.data" --sort comm,dso --stdio 2>/dev/null |
      awk '/^ *[0-9.]+%/ && n < 12 { printf "| %s | %s | %s |\n", $2, $3, $1; n++ }')
  fi
fi
if ((with_strace)); then
  for which in moat bwrap; do
    # shellcheck disable=SC2086
    if [[ $which == moat ]]; then run=$moat_one; else run=$(bwrap_command "$base/ws"); fi
    # shellcheck disable=SC2086
    (cd "$base/ws" && ${prefix_of[root-or-invoker]} strace -f -c -o "$tmp/strace-$which.txt" $run </dev/null) \
      >/dev/null 2>&1 || true
    syscalls+="$which $(awk '$NF == "total" { print $(NF-2) }' "$tmp/strace-$which.txt" 2>/dev/null) "
  done
fi

# --- the report ------------------------------------------------------------
verdict_ratio() { python3 -c 'import sys; r=float(sys.argv[1]); t=1.5
print("yes" if r <= t else f"no: {r:.2f}x, {100*(r/t-1):.0f}% over the 1.5x target")' "$1"; }

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "## Results $(date -u +%F)"
echo
echo "Machine: $(nproc) CPUs ($cpu), kernel $(uname -r), $(. /etc/os-release && echo "$PRETTY_NAME"),"
echo "$(bwrap --version), $(hyperfine --version). moat from \`$bin_dir\` ($(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo 'no git')$(git -C "$repo" diff --quiet 2>/dev/null || echo ', with local changes'))."
echo
echo "### Start-up: \`-- true\`, $RUNS runs per command and user ($ROUNDS alternating rounds, $WARMUP warm-up each)"
echo
echo "| as | moat median | bwrap median | moat / bwrap | moat mean ± sd | bwrap mean ± sd | moat CPU user+sys | bwrap CPU user+sys | within 1.5x? |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
for account in "${accounts[@]}"; do
  read -r _ m_med m_mean m_sd _ _ m_user m_sys <<<"${timing[$account,moat]}"
  read -r _ b_med b_mean b_sd _ _ b_user b_sys <<<"${timing[$account,bwrap]}"
  ratio=$(python3 -c "print(f'{$m_med / $b_med:.2f}')")
  echo "| ${label_of[$account]} | $m_med ms | $b_med ms | ${ratio}x | $m_mean ± $m_sd ms | $b_mean ± $b_sd ms" \
    "| $(python3 -c "print(f'{$m_user + $m_sys:.1f}')") ms | $(python3 -c "print(f'{$b_user + $b_sys:.1f}')") ms" \
    "| $(verdict_ratio "$ratio") |"
done
echo
echo "### moat-supervisor memory: \`moat run -- sleep 2\`, sampled every 5 ms, max of $MEM_RUNS runs"
echo
echo "| as | VmRSS max | VmHWM max | under 10 MiB? | sandbox init VmRSS max |"
echo "| --- | ---: | ---: | --- | ---: |"
for account in "${accounts[@]}"; do
  read -r rss hwm init_rss seen <<<"${memory[$account]}"
  peak=$((rss > hwm ? rss : hwm))
  verdict=$( ((peak < 10240)) && echo yes || echo "no: $((peak - 10240)) KiB over")
  ((seen > 0)) || verdict="not measured: moat-supervisor never seen"
  echo "| ${label_of[$account]} | $rss KiB ($(python3 -c "print(f'{$rss/1024:.1f}')") MiB) | $hwm KiB ($(python3 -c "print(f'{$hwm/1024:.1f}')") MiB) | $verdict | $init_rss KiB |"
done
if [[ -n $phases$profile$syscalls ]]; then
  echo
  echo "### Where moat's start-up goes (as ${label_of[root-or-invoker]})"
fi
if [[ -n $phases ]]; then
  echo
  echo "$phases"
fi
if [[ -n $profile ]]; then
  echo
  echo "CPU samples of 100 \`moat run -- true\` (perf record -F 10000), by process and library:"
  echo
  echo "| process | library | share of samples |"
  echo "| --- | --- | ---: |"
  echo "$profile"
fi
if [[ -n $syscalls ]]; then
  read -r _ moat_calls _ bwrap_calls <<<"$syscalls"
  echo
  echo "System calls of one run, all processes (strace -f -c): moat ${moat_calls:-?}, bwrap ${bwrap_calls:-?}."
fi
echo
echo "### Commands"
echo
for account in "${accounts[@]}"; do
  echo "As ${label_of[$account]} (environment: \`${prefix_of[$account]//$tmp/\$TMP}\`):"
  echo
  echo '```'
  echo "hyperfine -N --warmup $WARMUP --runs $per_round --export-json round-N.json \\"
  echo "  -n moat '${timing[$account,moat_cmd]//$tmp/\$TMP}' \\"
  echo "  -n bwrap '${timing[$account,bwrap_cmd]//$tmp/\$TMP}'"
  echo '```'
  echo
done
echo "Memory: \`tests/bench/sample_rss.py 5 -- moat run --workspace \$TMP/.../ws -- sleep 2\` reads VmRSS and VmHWM"
echo "of moat-supervisor (the moat process after it execs the supervisor) and of its child, the sandbox init."
