#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs `moat run ...` and samples, from /proc/PID/status until it exits, the
resident memory of moat-supervisor (the process tree's topmost process named
moat-supervisor: moat itself after it execs the supervisor in embedded mode)
and of the supervisor's children (the sandbox init).

usage: sample_rss.py INTERVAL_MS -- COMMAND...
Prints one JSON object: the largest VmRSS and VmHWM seen (KiB) per process,
and how many samples saw it (0: the supervisor was never found)."""
import json
import subprocess
import sys
import time


def status(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
    except OSError:
        return None
    return {key: fields[key].strip() for key in ("Name", "VmRSS", "VmHWM") if key in fields}


def kib(value):
    return int(value.split()[0]) if value else 0


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(child) for child in f.read().split()]
    except OSError:
        return []


def main():
    interval = float(sys.argv[1]) / 1000.0
    command = sys.argv[sys.argv.index("--") + 1:]
    peak = {"supervisor": {"rss_kib": 0, "hwm_kib": 0, "samples": 0},
            "sandbox_init": {"rss_kib": 0, "hwm_kib": 0, "samples": 0}}
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    while process.poll() is None:
        supervisor, own = None, None
        level = [process.pid]
        while level and supervisor is None:  # breadth first: the topmost one
            for pid in level:
                info = status(pid)
                if info and info.get("Name") == "moat-supervisor" and "VmRSS" in info:
                    supervisor, own = pid, info
                    break
            level = [child for pid in level for child in children(pid)]
        if supervisor is not None:
            entry = peak["supervisor"]
            entry["rss_kib"] = max(entry["rss_kib"], kib(own["VmRSS"]))
            entry["hwm_kib"] = max(entry["hwm_kib"], kib(own["VmHWM"]))
            entry["samples"] += 1
            for child in children(supervisor):
                init = status(child)
                if init and "VmRSS" in init:
                    entry = peak["sandbox_init"]
                    entry["rss_kib"] = max(entry["rss_kib"], kib(init["VmRSS"]))
                    entry["hwm_kib"] = max(entry["hwm_kib"], kib(init["VmHWM"]))
                    entry["samples"] += 1
        time.sleep(interval)
    peak["exit_code"] = process.returncode
    print(json.dumps(peak))
    return 0 if process.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
