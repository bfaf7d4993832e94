#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Run inside a moat sandbox by `scripts/dev demo`: tries what a hostile
# README would try, and says what it could and could not reach.
# Arguments: REAL_HOME HOST_PORT
real_home=$1
host_port=$2
PATH=/usr/bin:/bin:/usr/sbin:/sbin

ok() { printf '  [reachable]   %s\n' "$1"; }
no() { printf '  [blocked]     %s\n' "$1"; }
check() { desc=$1; shift; if "$@" >/dev/null 2>&1; then ok "$desc"; else no "$desc"; fi; }

echo "Inside the sandbox as $(id -un) (uid $(id -u)) on host $(hostname), in $(pwd)"
echo "  $(grep CapEff /proc/self/status), $(grep NoNewPrivs /proc/self/status)"
echo
echo "What the task needs:"
check "write a file in the workspace" sh -c 'echo hello > moat-demo.txt && rm moat-demo.txt'
check "run the host's tools read-only (/usr/bin/sort)" sh -c 'echo b a | tr " " "\n" | sort'
check "write to /tmp" sh -c 'echo x > /tmp/x'
echo
echo "What a hostile README would try:"
check "list the real home ($real_home)" ls -A "$real_home/.ssh" "$real_home/.aws"
check "read /etc/shadow" cat /etc/shadow
check "write to /usr" sh -c 'echo x > /usr/moat-demo'
check "see an AWS_SECRET_ACCESS_KEY from the host's environment" sh -c 'env | grep -q AWS_SECRET_ACCESS_KEY'
check "see host processes (more than this sandbox's)" sh -c '[ "$(ls -d /proc/[0-9]* | wc -l)" -gt 10 ]'
check "reach a server on the host's 127.0.0.1:$host_port" bash -c "exec 3<>/dev/tcp/127.0.0.1/$host_port"
check "resolve deb.debian.org" getent hosts deb.debian.org
check "become root with sudo" sudo -n true
check "create a user namespace (unshare -U)" unshare -U true
check "mount a file system" mount -t tmpfs none /tmp
echo
echo "Everything under [blocked] is enforced outside the agent's reach; see docs/sandbox.md."
