#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The egress benchmarks, driven by tests/bench/egress/run.sh (which installs
the peers and builds the tools first). Runs every measurement against the
upstream directly, through moat's proxy (the client inside `moat run`, as an
agent would be), through tinyproxy and through squid, interleaved round by
round, and prints a markdown report.

usage: bench.py --tools DIR --moat-bin DIR --work DIR [--quick] [--json FILE]

--tools holds upstream and loadclient; --work is a private directory for
configurations, logs and the sandbox's workspace. Exit status: 0 when every
row was measured, 1 on a hard failure, 4 when some rows could not be measured
(moat's proxy missing, a peer failing): the report says which and why."""
import argparse
import json
import os
import platform
import pwd
import resource
import select
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sample_rss import children  # noqa: E402  (tests/bench/sample_rss.py)

PROCS = []  # every long-running process started here, stopped at exit


def say(message):
    print(f"bench.py: {message}", file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, process, seconds, name):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with status {process.returncode} before listening")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{name} did not listen on 127.0.0.1:{port} within {seconds} s")


def start(command, name, log, **kwargs):
    out = open(log, "w")
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                               start_new_session=True, **kwargs)
    PROCS.append((name, process))
    return process


def stop_all():
    for name, process in reversed(PROCS):
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
    deadline = time.monotonic() + 5
    for name, process in reversed(PROCS):
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            say(f"{name} ignored SIGTERM, killing it")
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait(timeout=5)
    PROCS.clear()


# --- memory from /proc -----------------------------------------------------
def status(pid):
    """Name, VmRSS and VmHWM (KiB) and the thread count of pid, or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = {key: value.strip() for key, value in (line.split(":", 1) for line in f if ":" in line)}
    except OSError:
        return None
    number = lambda key: int(fields.get(key, "0").split()[0])
    return {"name": fields.get("Name", ""), "rss": number("VmRSS"), "hwm": number("VmHWM"),
            "threads": number("Threads")}


def tree(pid):
    pids, level = [], [pid]
    while level:
        pids += level
        level = [child for p in level for child in children(p)]
    return pids


def memory_of(pids):
    """Sum of VmRSS, largest VmHWM, and thread count of the processes."""
    total = {"rss": 0, "hwm": 0, "threads": 0, "processes": 0}
    for pid in pids:
        info = status(pid)
        if info:
            total["rss"] += info["rss"]
            total["hwm"] = max(total["hwm"], info["hwm"])
            total["threads"] += info["threads"]
            total["processes"] += 1
    return total


def find_named(root, name):
    """The topmost process named name in root's tree, breadth first."""
    level = [root]
    while level:
        for pid in level:
            info = status(pid)
            if info and info["name"] == name:
                return pid
        level = [child for p in level for child in children(p)]
    return None


# --- the subjects ----------------------------------------------------------
class Subject:
    """A way to reach the upstream: directly, or through one proxy."""

    def __init__(self, name, label, http=None, tunnel_via=None, tunnel=None, runner=None, proxy_pids=None):
        self.name, self.label = name, label
        self.http = http              # HOST:PORT for absolute-form requests, or None
        self.tunnel_via = tunnel_via  # "connect" or "socks5", None for direct
        self.tunnel = tunnel          # HOST:PORT for tunnels
        self.runner = runner or (lambda command: command)
        self.proxy_pids = proxy_pids  # callable(process of the client command) -> pids
        self.skipped = None           # why this subject was not measured

    def client(self, tools, mode, variant, upstream, extra):
        if variant == "http":
            route = ["--via", "http", "--proxy", self.http] if self.http else ["--via", "direct"]
        else:
            route = ["--via", self.tunnel_via, "--proxy", self.tunnel] if self.tunnel_via else ["--via", "direct"]
        return self.runner([f"{tools}/loadclient", mode, "--target", upstream] + route + extra)


def run_client(command, timeout, env=None, cwd=None):
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout,
                              env=env, cwd=cwd)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"timed out after {timeout} s: {' '.join(command)}")
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        detail = (done.stderr.strip() or done.stdout.strip())[-600:]
        raise RuntimeError(f"status {done.returncode}: {detail}")
    return json.loads(lines[-1])


class Bench:
    def __init__(self, args):
        self.args = args
        self.tools = args.tools
        self.work = args.work
        self.quick = args.quick
        self.raw = []
        self.failures = []
        self.moat_env = None

    # --- set-up ------------------------------------------------------------
    def start_upstream(self):
        port = free_port()
        process = start([f"{self.tools}/upstream", "--port", str(port), "--threads", "2"], "upstream",
                        f"{self.work}/upstream.log")
        wait_listening(port, process, 10, "upstream")
        self.upstream = f"127.0.0.1:{port}"
        self.upstream_port = port

    def launch_peer(self, name, port, config_lines, command):
        """Writes the peer's configuration, starts it in the foreground with
        the configuration's path appended to command, waits until it listens."""
        config = f"{self.work}/{name}/{name}.conf"
        with open(config, "w") as f:
            f.write("\n".join(config_lines) + "\n")
        process = start(command + [config], name, f"{self.work}/{name}/stdout.log")
        wait_listening(port, process, 30, name)
        address = f"127.0.0.1:{port}"
        return Subject(name, name, http=address, tunnel_via="connect", tunnel=address,
                       proxy_pids=lambda _client: tree(process.pid))

    def start_tinyproxy(self):
        port = free_port()
        base = f"{self.work}/tinyproxy"
        os.makedirs(base, exist_ok=True)
        lines = [f"Port {port}", "Listen 127.0.0.1", "Timeout 600", "MaxClients 10000", "LogLevel Critical",
                 f'LogFile "{base}/tinyproxy.log"', f'PidFile "{base}/tinyproxy.pid"', "Allow 127.0.0.1",
                 "DisableViaHeader Yes"]
        if os.getuid() == 0:
            lines = ["User nobody", "Group nogroup"] + lines
            shutil.chown(base, "nobody", "nogroup")
        return self.launch_peer("tinyproxy", port, lines, ["tinyproxy", "-d", "-c"])

    def start_squid(self):
        port = free_port()
        base = f"{self.work}/squid"
        os.makedirs(base, exist_ok=True)
        fds = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        lines = [f"http_port 127.0.0.1:{port}", "acl from_loopback src 127.0.0.1/32",
                 "http_access allow from_loopback", "http_access deny all", "cache deny all", "cache_mem 8 MB",
                 "access_log none", "cache_store_log none", f"cache_log {base}/cache.log",
                 f"pid_filename {base}/squid.pid", f"coredump_dir {base}", f"max_filedescriptors {fds}",
                 "pinger_enable off", "via off", "forwarded_for delete", "shutdown_lifetime 1 second",
                 "read_timeout 10 minutes", "client_lifetime 1 hour"]
        if os.getuid() == 0:
            try:
                user = pwd.getpwnam("proxy")
                shutil.chown(base, user.pw_uid, user.pw_gid)
            except KeyError:
                pass
        return self.launch_peer("squid", port, lines, ["squid", "-N", "-f"])

    def moat_subject(self, name, label, tunnel_via, tunnel):
        ws = f"{self.work}/ws"
        prefix = [f"{self.args.moat_bin}/moat", "run", "--workspace", ws,
                  "--allow-host", self.upstream, "--"]

        def proxy_pids(client):
            supervisor = find_named(client.pid, "moat-supervisor")
            return [supervisor] if supervisor else []

        return Subject(name, label, http="127.0.0.1:3128", tunnel_via=tunnel_via, tunnel=tunnel,
                       runner=lambda command: prefix + command, proxy_pids=proxy_pids)

    def setup_moat(self):
        ws = f"{self.work}/ws"
        os.makedirs(ws, exist_ok=True)
        for tool in ("loadclient",):
            shutil.copy2(f"{self.tools}/{tool}", f"{ws}/{tool}")
        os.chmod(self.work, 0o755)
        os.chmod(ws, 0o755)
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": f"{self.work}/home"}
        for kind in ("CONFIG", "STATE", "DATA"):
            path = f"{self.work}/moat-{kind.lower()}"
            os.makedirs(path, exist_ok=True)
            env[f"MOAT_{kind}_DIR"] = path
        os.makedirs(env["HOME"], exist_ok=True)
        self.moat_env = env
        self.client_tools = ws

    # --- running one measurement -------------------------------------------
    def measure(self, subject, mode, variant, extra, timeout):
        tools = self.client_tools if subject.name.startswith("moat") else self.tools
        command = subject.client(tools, mode, variant, self.upstream, extra)
        env = self.moat_env if subject.name.startswith("moat") else None
        cwd = f"{self.work}/ws" if subject.name.startswith("moat") else None
        last = None
        for attempt in range(2):
            try:
                result = run_client(command, timeout, env=env, cwd=cwd)
                result.update(subject=subject.name, variant=variant, attempt=attempt)
                self.raw.append(result)
                return result
            except RuntimeError as error:
                last = str(error)
                self.failures.append(f"{subject.label} {mode} {variant}: {last}")
                say(f"{subject.label} {mode} {variant} failed (attempt {attempt + 1}): {last}")
        return {"error": last}

    def rounds(self, subjects, runs, mode, variant, extra, timeout):
        """runs rounds, each subject once per round, the order rotated."""
        results = {s.name: [] for s in subjects}
        for r in range(runs):
            order = subjects[r % len(subjects):] + subjects[:r % len(subjects)]
            for subject in order:
                result = self.measure(subject, mode, variant, extra, timeout)
                if "error" not in result:
                    results[subject.name].append(result)
        return results

    # --- the four measurements ---------------------------------------------
    def throughput(self, subjects):
        runs = 3 if self.quick else 5
        size = 1 << 30
        say(f"throughput: {runs} rounds of a 1 GiB GET per path")
        res = self.rounds(subjects, runs, "throughput", "tunnel", ["--bytes", str(size)], 300)
        return {name: [r["mib_s"] for r in rows] for name, rows in res.items()}, runs

    def latency(self, subjects):
        runs = 1 if self.quick else 3
        n = 5000 if self.quick else 20000
        fresh_n = 1000 if self.quick else 3000
        say(f"latency: {runs} rounds of {n} keep-alive and {fresh_n} new-connection requests per path")
        out = {}
        for variant, extra, label in (
                ("http", ["--requests", str(n), "--warmup", "500"], "keep-alive, absolute-form"),
                ("tunnel", ["--requests", str(n), "--warmup", "500"], "keep-alive, inside one tunnel"),
                ("tunnel", ["--requests", str(fresh_n), "--warmup", "100", "--fresh"], "a new tunnel per request")):
            eligible = [s for s in subjects if variant != "http" or s.http or s.name == "direct"]
            res = self.rounds(eligible, runs, "latency", variant, extra, 300)
            out[label] = res
        return out, runs, n, fresh_n

    def rps(self, subjects):
        runs = 1 if self.quick else 3
        seconds = 3 if self.quick else 10
        say(f"requests per second: {runs} rounds of 64 clients for {seconds} s per path")
        out = {}
        for variant, label in (("http", "absolute-form, keep-alive"), ("tunnel", "one tunnel per client")):
            eligible = [s for s in subjects if variant != "http" or s.http or s.name == "direct"]
            out[label] = self.rounds(eligible, runs, "rps", variant,
                                     ["--clients", "64", "--seconds", str(seconds), "--warmup-seconds", "1"],
                                     seconds + 120)
        return out, runs, seconds

    def idle(self, subjects, tunnels):
        say(f"idle tunnels: {tunnels} per proxy")
        out = {}
        for subject in subjects:
            if subject.name == "direct" or subject.name.endswith("socks5"):
                continue
            try:
                out[subject.name] = self.idle_one(subject, tunnels)
            except RuntimeError as error:
                self.failures.append(f"{subject.label} idle: {error}")
                say(f"{subject.label} idle failed: {error}")
                out[subject.name] = {"error": str(error)}
        return out

    def idle_one(self, subject, tunnels):
        moat = subject.name.startswith("moat")
        tools = self.client_tools if moat else self.tools
        command = subject.client(tools, "idle", "tunnel", self.upstream,
                                 ["--tunnels", str(tunnels), "--hold", "3", "--pause", "1.5"])
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=self.moat_env if moat else None,
                                   cwd=f"{self.work}/ws" if moat else None, start_new_session=True)
        samples, result, deadline = {}, None, time.monotonic() + 180
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise RuntimeError("timed out after 180 s")
                ready, _, _ = select.select([process.stdout], [], [], remaining)
                if not ready:
                    continue
                line = process.stdout.readline()
                if not line:
                    break
                word = line.split()[0] if line.split() else ""
                if word in ("BASE", "OPENED", "USED"):
                    time.sleep(0.5)  # let the proxy settle
                    pids = subject.proxy_pids(process)
                    if not pids:
                        raise RuntimeError("the proxy's process was not found")
                    samples[word] = memory_of(pids)
                elif line.startswith("{"):
                    result = json.loads(line)
            process.wait(timeout=30)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if process.returncode != 0 or result is None or "USED" not in samples:
            raise RuntimeError(f"status {process.returncode}: {process.stderr.read().strip()[-600:]}")
        result.update(samples, subject=subject.name)
        self.raw.append(result)
        return result


# --- the report ------------------------------------------------------------
def med(values):
    return statistics.median(values) if values else None


def fmt(value, digits=1, unit=""):
    return "n/a" if value is None else f"{value:,.{digits}f}{unit}"


def ratio(a, b):
    return None if a is None or b in (None, 0) else a / b


def fx(value):
    return "n/a" if value is None else f"{value:.2f}x"


def versions():
    def first_line(command):
        try:
            out = subprocess.run(command, capture_output=True, text=True, timeout=10)
            return (out.stdout or out.stderr).strip().splitlines()[0]
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return "unknown"
    return first_line(["tinyproxy", "-v"]), first_line(["squid", "-v"])


def report(bench, subjects, results, repo):
    (tput, tput_runs), (lat, lat_runs, lat_n, fresh_n), (rps, rps_runs, rps_seconds), idle, tunnels = results
    names = [s.name for s in subjects if not s.skipped]
    label = {s.name: s.label for s in subjects}
    moat_name = "moat" if "moat" in names else None
    peers = [n for n in ("tinyproxy", "squid") if n in names]
    lines = []
    p = lines.append
    cpu = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    try:
        with open("/etc/os-release") as f:
            pretty = next(l.split("=", 1)[1].strip().strip('"') for l in f if l.startswith("PRETTY_NAME="))
    except (OSError, StopIteration):
        pretty = "unknown"
    commit = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "no git"
    dirty = subprocess.run(["git", "-C", repo, "diff", "--quiet", "HEAD", "--", "core", "app", "helper"],
                           capture_output=True).returncode != 0
    commit += ", source with local changes" if dirty else ""
    tiny_v, squid_v = versions()
    p(f"## Egress results {time.strftime('%Y-%m-%d', time.gmtime())}")
    p("")
    p(f"Machine: {os.cpu_count()} CPUs ({cpu}), kernel {platform.release()}, {pretty}; {tiny_v}, {squid_v}.")
    p(f"moat binaries from `{bench.args.moat_bin}`, checkout at {commit}. Everything on loopback: upstream,")
    p("proxies and client share the same CPUs. Medians over rounds; each round runs every path once, in")
    p("rotated order.")
    for s in subjects:
        if s.skipped:
            p("")
            p(f"**{s.label}: not measured**: {s.skipped}")
    if bench.quick:
        p("")
        p("**Quick mode**: fewer rounds and requests than the full run; numbers are indicative only.")

    # throughput
    p("")
    p(f"### CONNECT tunnel throughput: 1 GiB GET, median of {tput_runs} rounds")
    p("")
    direct = med(tput.get("direct", []))
    moat_t = med(tput.get(moat_name, [])) if moat_name else None
    p("| path | median | min – max | vs direct | moat vs this |")
    p("| --- | ---: | ---: | ---: | ---: |")
    for name in names:
        values = tput.get(name, [])
        m = med(values)
        spread = f"{min(values):,.0f} – {max(values):,.0f} MiB/s" if values else "n/a"
        versus = "" if name in ("direct", moat_name) or name.startswith("moat") else fx(ratio(moat_t, m))
        p(f"| {label[name]} | {fmt(m, 0, ' MiB/s')} | {spread} | {fx(ratio(m, direct))} | {versus} |")

    # latency
    p("")
    p(f"### Latency of a small GET (100-byte body), sequential, one client; median over {lat_runs} round(s)")
    p("")
    p(f"Keep-alive rows: {lat_n:,} requests per round after 500 warm-up; new-tunnel rows: {fresh_n:,} requests per")
    p("round after 100, each opening a TCP connection, a tunnel (direct: only the connection), one request, close.")
    p("Added = the path's percentile minus direct's percentile, same variant, same round set.")
    p("")
    p("| variant | path | p50 | p99 | added p50 | added p99 | p50 vs direct |")
    p("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for variant, res in lat.items():
        d50 = med([r["p50_us"] for r in res.get("direct", [])])
        d99 = med([r["p99_us"] for r in res.get("direct", [])])
        for name in names:
            if name not in res:
                continue
            rows = res[name]
            m50 = med([r["p50_us"] for r in rows])
            m99 = med([r["p99_us"] for r in rows])
            added = lambda a, b: None if a is None or b is None else a - b
            reconnects = sum(r.get("connections", 0) for r in rows)
            note = f" ({reconnects} reconnects)" if reconnects and "new tunnel" not in variant else ""
            if name == "direct":
                p(f"| {variant} | direct{note} | {fmt(m50, 1, ' µs')} | {fmt(m99, 1, ' µs')} | | | |")
            else:
                p(f"| {variant} | {label[name]}{note} | {fmt(m50, 1, ' µs')} | {fmt(m99, 1, ' µs')} "
                  f"| {fmt(added(m50, d50), 1, ' µs')} | {fmt(added(m99, d99), 1, ' µs')} | {fx(ratio(m50, d50))} |")

    # rps
    p("")
    p(f"### Requests per second: 64 concurrent clients, small GETs for {rps_seconds} s; median of {rps_runs} round(s)")
    p("")
    p("| variant | path | requests/s | vs direct | moat vs this | p50 / p99 under load |")
    p("| --- | --- | ---: | ---: | ---: | ---: |")
    for variant, res in rps.items():
        d = med([r["rps"] for r in res.get("direct", [])])
        mo = med([r["rps"] for r in res.get(moat_name, [])]) if moat_name else None
        for name in names:
            if name not in res:
                continue
            rows = res[name]
            m = med([r["rps"] for r in rows])
            l50 = med([r["p50_us"] for r in rows])
            l99 = med([r["p99_us"] for r in rows])
            reconnects = sum(r.get("connections", 0) for r in rows)
            note = f" ({reconnects} reconnects)" if reconnects else ""
            versus = "" if name == "direct" or name.startswith("moat") else fx(ratio(mo, m))
            p(f"| {variant} | {label[name]}{note} | {fmt(m, 0)} | {fx(ratio(m, d)) if name != 'direct' else ''} "
              f"| {versus} | {fmt(l50, 0, ' µs')} / {fmt(l99, 0, ' µs')} |")

    # idle
    p("")
    p(f"### {tunnels:,} idle CONNECT tunnels: the proxy's resident memory")
    p("")
    p("The client opens the tunnels one after another, sends one small GET through each (every tunnel proven")
    p("end to end), then holds them idle. Memory is VmRSS summed over the proxy's processes (moat: the session's")
    p("moat-supervisor), 0.5 s after each step; VmHWM is the peak since the process started. Per tunnel: growth")
    p("from before to after the requests, divided by the tunnels. Kernel memory (socket buffers, pipes, thread")
    p("stacks' page tables) is in no process's VmRSS and not counted here.")
    p("")
    p("| proxy | before | tunnels open | after one request each | VmHWM | per tunnel | threads | moat's / this |")
    p("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    mo_used = idle.get(moat_name, {}).get("USED", {}).get("rss") if moat_name else None
    for name in names:
        if name not in idle:
            continue
        r = idle[name]
        if "error" in r:
            p(f"| {label[name]} | failed: {r['error'][:120]} | | | | | | |")
            continue
        base, opened, used = r["BASE"]["rss"], r["OPENED"]["rss"], r["USED"]["rss"]
        per = (used - base) / tunnels
        versus = "" if name.startswith("moat") else fx(ratio(mo_used, used))
        p(f"| {label[name]} | {base / 1024:.1f} MiB | {opened / 1024:.1f} MiB | {used / 1024:.1f} MiB "
          f"| {r['USED']['hwm'] / 1024:.1f} MiB | {per:.1f} KiB | {r['USED']['threads']} | {versus} |")

    # verdicts
    p("")
    p("### Targets")
    p("")
    if moat_name and moat_t is not None:
        r_direct = ratio(moat_t, direct)
        behind = [n for n in peers if tput.get(n) and moat_t <= med(tput[n])]
        ok = r_direct is not None and r_direct >= 0.9 and not behind
        p(f"- Throughput at least 0.9x direct and ahead of both peers: **{'met' if ok else 'not met'}** "
          f"(moat {fx(r_direct)} of direct; " +
          "; ".join(f"{fx(ratio(moat_t, med(tput[n])))} of {n}" for n in peers if tput.get(n)) + ").")
        for key in lat:
            if lat[key].get(moat_name) and lat[key].get("direct"):
                added50 = (med([r["p50_us"] for r in lat[key][moat_name]]) -
                           med([r["p50_us"] for r in lat[key]["direct"]]))
                p(f"- Added latency under 0.3 ms at p50, {key}: **{'met' if added50 < 300 else 'not met'}** "
                  f"({added50:.1f} µs).")
    else:
        p("- moat not measured: no verdict.")
    if bench.failures:
        p("")
        p("Failed attempts (each measurement is tried twice):")
        p("")
        for failure in bench.failures:
            p(f"- {failure[:300]}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", required=True)
    parser.add_argument("--moat-bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--tunnels", type=int, default=5000)
    parser.add_argument("--json", help="write every raw result here")
    parser.add_argument("--only", default="", help="comma-separated: direct,moat,moat-socks5,tinyproxy,squid")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 2 * args.tunnels + 1000
    if soft < need:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(need, min(hard, 65536)), max(hard, need)))
        except (ValueError, OSError):
            if hard < need:
                say(f"open files: the hard limit is {hard}, {args.tunnels} tunnels need {need} in the proxy; "
                    f"run as root or lower --tunnels")
                return 1
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    bench = Bench(args)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *_: (stop_all(), sys.exit(130)))
    exit_code = 0
    try:
        bench.start_upstream()
        bench.setup_moat()
        wanted = set(filter(None, args.only.split(","))) or {"direct", "moat", "moat-socks5", "tinyproxy", "squid"}
        subjects = [Subject("direct", "direct")]
        moat = bench.moat_subject("moat", "moat", "connect", "127.0.0.1:3128")
        moat_socks = bench.moat_subject("moat-socks5", "moat (SOCKS5)", "socks5", "127.0.0.1:1080")
        moat_socks.http = None
        for subject in (moat, moat_socks):
            if subject.name not in wanted:
                continue
            say(f"checking {subject.label}")
            probe = bench.measure(subject, "latency", "tunnel", ["--requests", "3", "--warmup", "0"], 60)
            if "error" in probe:
                subject.skipped = f"its proxy did not answer: {probe['error'][:400]}"
                say(f"{subject.label} skipped: {subject.skipped}")
            bench.failures = []
            bench.raw = []
            subjects.append(subject)
        for name, starter in (("tinyproxy", bench.start_tinyproxy), ("squid", bench.start_squid)):
            if name in wanted:
                say(f"starting {name}")
                subjects.append(starter())
        measured = [s for s in subjects if not s.skipped and (s.name in wanted)]
        results = (bench.throughput(measured), bench.latency(measured), bench.rps(measured),
                   bench.idle(measured, args.tunnels), args.tunnels)
        print(report(bench, [s for s in subjects if s.name in wanted], results, args.repo))
        if any(s.skipped for s in subjects) or bench.failures:
            exit_code = 4
    except RuntimeError as error:
        say(str(error))
        exit_code = 1
    finally:
        stop_all()
        if args.json:
            with open(args.json, "w") as f:
                json.dump(bench.raw, f, indent=1)
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
