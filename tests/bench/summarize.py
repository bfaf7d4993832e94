#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Pools the per-run times of several hyperfine --export-json files (rounds in
alternating order) and prints one line of shell-readable numbers per command:
NAME RUNS MEDIAN_MS MEAN_MS STDDEV_MS MIN_MS MAX_MS USER_MS SYSTEM_MS

usage: summarize.py FILE.json..."""
import json
import statistics
import sys

pooled = {}
for path in sys.argv[1:]:
    with open(path) as f:
        for result in json.load(f)["results"]:
            entry = pooled.setdefault(result["command"], {"times": [], "user": [], "system": []})
            entry["times"] += result["times"]
            entry["user"].append(result["user"])
            entry["system"].append(result["system"])

for name, entry in pooled.items():
    times = [t * 1000 for t in entry["times"]]
    print(name, len(times), *(f"{value:.2f}" for value in (
        statistics.median(times), statistics.mean(times), statistics.stdev(times) if len(times) > 1 else 0.0,
        min(times), max(times), statistics.mean(entry["user"]) * 1000, statistics.mean(entry["system"]) * 1000)))
