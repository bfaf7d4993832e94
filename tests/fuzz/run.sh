#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer targets of this directory into BUILD_DIR with clang
# and runs each for a short fixed time, starting from corpus/<target>/.
# Exit status: 0 when no target found anything, 1 when one crashed (the input
# is kept as BUILD_DIR/artifacts/<target>-crash-*), 77 (ctest: skipped) when
# clang or the libFuzzer runtime is missing.
#   run.sh BUILD_DIR          MOAT_FUZZ_SECONDS (default 10) per target
#   MOAT_FUZZ_TARGETS         the targets to build and run (default: the egress parsers)
set -eu

build_dir=${1:?usage: run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
cxx=${MOAT_FUZZ_CXX:-clang++-14}
seconds=${MOAT_FUZZ_SECONDS:-10}
targets=${MOAT_FUZZ_TARGETS:-"fuzz_request_target fuzz_socks5_messages fuzz_dns_stub_answer fuzz_tls_client_hello fuzz_proxy_request"}

if ! command -v "$cxx" >/dev/null 2>&1; then
    echo "skipped: $cxx not found (Debian: apt-get install clang-14 libclang-rt-14-dev)"
    exit 77
fi

mkdir -p "$build_dir"
# A compiler without its libFuzzer runtime fails only at link time; find out
# here, with a one-line fuzzer, rather than halfway through the build.
probe="$build_dir/libfuzzer-probe"
if ! printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' |
    "$cxx" -x c++ -fsanitize=fuzzer,address,undefined - -o "$probe" >"$probe.log" 2>&1; then
    echo "skipped: $cxx cannot link libFuzzer (Debian: apt-get install libclang-rt-14-dev):"
    sed 's/^/  /' "$probe.log"
    exit 77
fi

generator=
if command -v ninja >/dev/null 2>&1; then
    generator="-G Ninja"
fi
# shellcheck disable=SC2086 # $generator is empty or two words on purpose
cmake -S "$here" -B "$build_dir" $generator -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
# shellcheck disable=SC2086 # $targets is a list of words on purpose
cmake --build "$build_dir" --target $targets

# Findings abort at once and are reported with a stack; leaks count too.
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

status=0
for target in $targets; do
    # New inputs go to a scratch corpus in the build directory; the seeds in
    # the source tree are only read.
    corpus="$build_dir/corpus/$target"
    mkdir -p "$corpus" "$build_dir/artifacts"
    echo "== $target: ${seconds}s"
    if "$build_dir/$target" -max_total_time="$seconds" -rss_limit_mb=1024 -timeout=10 -max_len=9000 \
        -print_final_stats=1 -artifact_prefix="$build_dir/artifacts/$target-" \
        "$corpus" "$here/corpus/$target" >"$build_dir/$target.log" 2>&1; then
        grep -E '^stat::number_of_executed_units|^Done ' "$build_dir/$target.log" || true
    else
        echo "FAILED: $target found a crash; log: $build_dir/$target.log"
        tail -n 40 "$build_dir/$target.log"
        status=1
    fi
done
exit $status
