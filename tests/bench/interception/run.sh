#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# moat's TLS interception beside direct HTTPS and beside mitmproxy, on one
# nginx upstream on loopback, in one run (issue 6, "Speed"):
#   (a) throughput of one large HTTPS download (1 GiB);
#   (b) latency of a small GET on a kept-alive connection, p50 and p99, and
#       of a new connection (TCP, CONNECT, TLS handshake) per request;
#   (c) requests per second with 32 concurrent kept-alive connections.
# Paths: direct; moat intercepting (`moat run --allow-host H --upstream-ca CA
# --rule 'GET H /** allow'`, the client inside the sandbox trusting the
# session CA); moat's blind tunnel (the same host allowed without a rule);
# mitmdump. Prints a markdown report for docs/performance.md. Leaf
# certificate minting is measured by tests/bench/tls/run.sh. Not part of the
# test suite.
#
#   tests/bench/interception/run.sh [--quick] [--keep] [BIN_DIR]
#
# BIN_DIR holds moat and moat-supervisor (default: build/bin of this
# checkout). Installs nginx-light and mitmproxy with apt-get when missing (as
# root, or through sudo) and leaves nginx's Debian service stopped; runs its
# own nginx and mitmdump with private configurations on free loopback ports.
# Builds tlsclient.cpp with g++ -O2 -lssl -lcrypto into a temporary directory,
# removed at the end. --quick: fewer rounds, a 256 MiB download, shorter runs
# (under a minute instead of about 5). --keep: keep the temporary directory
# (PKI, configurations, logs, raw JSON).
# Environment: ONLY=direct,moat,moat-tunnel,mitmproxy to run a subset;
# CLIENTS=32 for the requests-per-second test.
set -euo pipefail

case ${1:-} in
  -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
command -v python3 >/dev/null || { echo "run.sh: missing python3 (Debian package: python3)" >&2; exit 2; }
exec timeout 3600 python3 -B "$(dirname "${BASH_SOURCE[0]}")/bench.py" "$@"
