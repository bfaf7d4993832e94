#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where moat's start-up time goes: runs `moat run --workspace W -- true`
under `perf trace` (kernel tracepoints: no ptrace, so the process runs at
nearly full speed, unlike under strace) and splits each run at the system
calls that mark its phases.

usage: phases.py RUNS -- COMMAND...   (COMMAND execs `moat run ... -- true`)
Prints a markdown table of the median of each phase. Needs root (or a low
kernel.perf_event_paranoid) and the perf tool."""
import os
import re
import statistics
import subprocess
import sys
import tempfile

PHASES = [
    "moat CLI: flags, spec, exec of moat-supervisor",
    "moat-supervisor: loading, session records, id-mapped mounts, until the sandbox clone",
    "sandbox init: namespaces, mounts, until pivot_root",
    "sandbox init: Landlock and seccomp",
    "until the command's exec (fork, PATH search)",
    "the command itself (`true`)",
    "teardown: reap, records, exit",
]

# "     5.226 ( 0.276 ms): moat-superviso/21817 clone3(uargs: 0x7ffd, size: 88)   = 21818"
LINE = re.compile(r"^\s*([\d.]+) \([^)]*\): (\S+)/(\d+) (\w+)\((.*)\)\s+= (\S+)")


def marks_of(text):
    events = []
    for line in text.splitlines():
        match = LINE.match(line)
        if match:
            ms, comm, pid, call, args, result = match.groups()
            events.append((float(ms), comm, int(pid), call, args, result))
    marks = {}
    init_pid = next((pid for _, _, pid, call, _, result in events if call == "pivot_root" and result == "0"), None)
    supervisor_pid = None
    command_pid = None
    for ms, comm, pid, call, args, result in events:
        if call == "execve" and result == "0":
            if comm.startswith("moat-supervis"):
                marks["t1"] = ms
                supervisor_pid = pid
            elif comm == "moat":
                marks.setdefault("t0", ms)
            elif "t4" in marks and command_pid is None:
                marks["t5"] = ms
                command_pid = pid
        elif call == "clone3" and result == str(init_pid):
            marks["t2"] = ms
        elif call == "pivot_root" and pid == init_pid:
            marks["t3"] = ms
        elif call == "seccomp" and pid == init_pid and result == "0" and "FILTER" in args:
            marks["t4"] = ms
        elif call == "exit_group":
            if pid == command_pid:
                marks["t6"] = ms
            if pid == supervisor_pid:
                marks["t7"] = ms
    return marks


def main():
    runs = int(sys.argv[1])
    command = sys.argv[sys.argv.index("--") + 1:]
    rows = []
    for _ in range(runs):
        fd, path = tempfile.mkstemp(prefix="moat-phases.")
        os.close(fd)
        subprocess.run(["perf", "trace", "-o", path, "-e", "execve,clone3,pivot_root,seccomp,exit_group", "--", *command],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(path) as f:
            marks = marks_of(f.read())
        os.unlink(path)
        keys = [f"t{i}" for i in range(8)]
        if all(key in marks for key in keys):
            rows.append([marks[keys[i + 1]] - marks[keys[i]] for i in range(7)])
    if not rows:
        print("(perf trace gave no complete run: phases unavailable; is perf installed and are you root?)")
        return 1
    medians = [statistics.median(row[i] for row in rows) for i in range(7)]
    total = sum(medians)
    print(f"| phase (median of {len(rows)} runs under perf trace) | ms | share |")
    print("| --- | ---: | ---: |")
    for name, value in zip(PHASES, medians):
        print(f"| {name} | {value:.2f} | {100 * value / total:.0f}% |")
    print(f"| sum | {total:.2f} | 100% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
