#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The TLS interception benchmark behind tests/bench/interception/run.sh
(whose comment says what it measures and how to run it). Measures
HTTPS to one nginx upstream directly, through moat's TLS interception (the
client inside `moat run` with a rule on the upstream), through moat's blind
tunnel (the same host allowed without a rule) and through mitmdump, round by
round in rotated order, and prints a markdown report.

usage: bench.py [--quick] [--keep] [--clients N] [--only NAMES] [BIN_DIR]

Installs nginx-light and mitmproxy when missing, builds tlsclient.cpp into a
private temporary directory that also holds the PKI, the configurations, the
large file, the logs, the raw JSON and the sandbox's workspace (removed at the
end unless --keep). Exit status: 0 when every row was measured, 1 on a hard
failure, 2 when something needed is missing, 4 when some rows could not be
measured or needed a retry (the report says which and why)."""
import argparse
import importlib.util
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

# free_port, wait_listening, start and stop_all (every process started
# through start is stopped by stop_all) are the egress benchmark's.
_spec = importlib.util.spec_from_file_location(
    "egress_bench", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "egress", "bench.py"))
_egress = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_egress)
free_port, wait_listening, start, stop_all = _egress.free_port, _egress.wait_listening, _egress.start, _egress.stop_all

SUBJECTS = ("direct", "moat", "moat-tunnel", "mitmproxy")
LABELS = {"direct": "direct", "moat": "moat (intercepted)", "moat-tunnel": "moat (blind tunnel)",
          "mitmproxy": "mitmproxy"}


def say(message):
    print(f"bench.py: {message}", file=sys.stderr, flush=True)


def run(command, what, timeout=120, **kwargs):
    done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout, **kwargs)
    if done.returncode != 0:
        raise RuntimeError(f"{what} failed (status {done.returncode}): {(done.stderr or done.stdout).strip()[-600:]}")
    return done.stdout


class Bench:
    def __init__(self, args):
        self.args = args
        self.work = args.work
        self.quick = args.quick
        self.raw, self.failures, self.skipped = [], [], {}
        self.big_bytes = (256 if self.quick else 1024) * 1024 * 1024

    # --- set-up ------------------------------------------------------------
    def make_pki(self):
        """A test CA and a certificate for 127.0.0.1 that it signs: the
        upstream's, trusted by direct clients and given to moat and mitmdump
        as the upstream's authority."""
        pki = f"{self.work}/pki"
        os.makedirs(pki)
        ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        run(["openssl", "req", "-x509", *ec, "-keyout", f"{pki}/ca.key", "-out", f"{pki}/ca.pem", "-days", "2",
             "-subj", "/CN=moat interception bench CA", "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign"], "making the test CA")
        run(["openssl", "req", *ec, "-keyout", f"{pki}/server.key", "-out", f"{pki}/server.csr",
             "-subj", "/CN=127.0.0.1"], "making the server key")
        with open(f"{pki}/server.ext", "w") as f:
            f.write("subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
                    "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
        run(["openssl", "x509", "-req", "-in", f"{pki}/server.csr", "-CA", f"{pki}/ca.pem", "-CAkey",
             f"{pki}/ca.key", "-CAcreateserial", "-out", f"{pki}/server.pem", "-days", "2",
             "-extfile", f"{pki}/server.ext"], "signing the server certificate")
        # nginx's workers run as an unprivileged user and read nothing of
        # this; the master (root when the bench is) reads the key.
        self.ca = f"{pki}/ca.pem"

    def start_nginx(self):
        base = f"{self.work}/nginx"
        www = f"{self.work}/www"
        os.makedirs(base)
        os.makedirs(www)
        # Sparse: the page cache serves zeroes; nothing of it is on disk.
        with open(f"{www}/big", "wb") as f:
            f.truncate(self.big_bytes)
        for path in (self.work, www):
            os.chmod(path, 0o755)
        os.chmod(f"{www}/big", 0o644)
        port = free_port()
        with open(f"{self.args.here}/nginx.conf.in") as f:
            config = f.read().replace("@WORK@", self.work).replace("@PORT@", str(port))
        with open(f"{base}/nginx.conf", "w") as f:
            f.write(config)
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        process = start([nginx, "-c", f"{base}/nginx.conf", "-p", base], "nginx", f"{base}/stdout.log")
        wait_listening(port, process, 30, "nginx")
        self.upstream = f"127.0.0.1:{port}"
        # nginx -v writes to standard error.
        self.nginx_version = subprocess.run([nginx, "-v"], capture_output=True, text=True).stderr.strip()

    def start_mitmproxy(self):
        base = f"{self.work}/mitmproxy"
        os.makedirs(base)
        port = free_port()
        mitmdump = shutil.which("mitmdump") or "/usr/bin/mitmdump"
        # stream_large_bodies: mitmproxy otherwise holds a whole body in
        # memory before it forwards it; streaming is its own advice for large
        # transfers and the fair comparison with moat, which streams.
        process = start([mitmdump, "-q", "--listen-host", "127.0.0.1", "--listen-port", str(port),
                         "--set", f"confdir={base}", "--set", f"ssl_verify_upstream_trusted_ca={self.ca}",
                         "--set", "stream_large_bodies=1m", "--set", "flow_detail=0"],
                        "mitmdump", f"{base}/stdout.log")
        wait_listening(port, process, 60, "mitmdump")
        cert = f"{base}/mitmproxy-ca-cert.pem"
        deadline = time.monotonic() + 10
        while not os.path.exists(cert) and time.monotonic() < deadline:
            time.sleep(0.05)
        if not os.path.exists(cert):
            raise RuntimeError(f"mitmdump made no CA certificate in {base}")
        self.mitm = {"proxy": f"127.0.0.1:{port}", "ca": cert}
        self.mitm_version = run([mitmdump, "--version"], "mitmdump --version").splitlines()[0].strip()

    def setup_moat(self):
        ws = f"{self.work}/ws"
        os.makedirs(ws)
        shutil.copy2(f"{self.args.tools}/tlsclient", f"{ws}/tlsclient")
        shutil.copy2(self.ca, f"{ws}/upstream-ca.pem")  # for the blind tunnel's client
        os.chmod(ws, 0o755)
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": f"{self.work}/home"}
        for kind in ("CONFIG", "STATE", "DATA"):
            path = f"{self.work}/moat-{kind.lower()}"
            os.makedirs(path)
            env[f"MOAT_{kind}_DIR"] = path
        os.makedirs(env["HOME"])
        self.moat_env, self.ws = env, ws

    # --- one measurement ---------------------------------------------------
    def command(self, subject, mode, extra):
        target = ["--target", self.upstream]
        if subject == "direct":
            return [f"{self.args.tools}/tlsclient", mode, *target, "--cafile", self.ca, *extra]
        if subject == "mitmproxy":
            return [f"{self.args.tools}/tlsclient", mode, *target, "--proxy", self.mitm["proxy"],
                    "--cafile", self.mitm["ca"], *extra]
        moat = [f"{self.args.moat_bin}/moat", "run", "--workspace", self.ws, "--allow-host", self.upstream]
        if subject == "moat":
            # A rule on the host switches interception on; the client trusts
            # the session CA through SSL_CERT_FILE, as any program inside does.
            moat += ["--upstream-ca", self.ca, "--rule", f"GET {self.upstream} /** allow", "--",
                     "./tlsclient", mode, *target, "--proxy", "127.0.0.1:3128", *extra]
        else:
            moat += ["--", "./tlsclient", mode, *target, "--proxy", "127.0.0.1:3128",
                     "--cafile", "upstream-ca.pem", *extra]
        return moat

    def measure(self, subject, mode, extra, timeout):
        if subject in self.skipped:
            return None
        inside = subject.startswith("moat")
        command = self.command(subject, mode, extra)
        for attempt in range(2):
            try:
                done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                      timeout=timeout, env=self.moat_env if inside else None,
                                      cwd=self.ws if inside else None)
                lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
                if done.returncode != 0 or not lines:
                    raise RuntimeError(f"status {done.returncode}: {(done.stderr or done.stdout).strip()[-600:]}")
                result = json.loads(lines[-1])
                result["subject"] = subject
                self.raw.append(result)
                return result
            except (RuntimeError, subprocess.TimeoutExpired) as error:
                message = f"{LABELS[subject]} {mode}: {error}"
                self.failures.append(message)
                say(f"failed (attempt {attempt + 1}): {message}")
        return None

    def rounds(self, subjects, mode, count, extra, timeout):
        """count rounds; each runs every subject once, the order rotated."""
        results = {s: [] for s in subjects}
        for r in range(count):
            order = subjects[r % len(subjects):] + subjects[:r % len(subjects)]
            for subject in order:
                result = self.measure(subject, mode, extra, timeout)
                if result:
                    results[subject].append(result)
                    key = {"throughput": "mib_s", "rps": "rps"}.get(mode, "p50_us")
                    say(f"{mode} round {r + 1}/{count}: {LABELS[subject]}: {result[key]:,.1f} {key}")
        return results


# --- the report ------------------------------------------------------------
def med(values):
    return statistics.median(values) if values else None


def ratio(a, b):
    return a / b if a is not None and b else None


def fx(value):
    return "" if value is None else f"{value:.2f}x"


def us(value):
    return "–" if value is None else f"{value:,.1f} µs"


def machine():
    with open("/proc/cpuinfo") as f:
        cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
    distro = "?"
    try:
        with open("/etc/os-release") as f:
            distro = dict(line.rstrip().split("=", 1) for line in f if "=" in line).get("PRETTY_NAME", "?").strip('"')
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs ({cpu}), kernel {platform.release()}, {distro}"


def rate_table(p, names, results, key, medians, unit, latency_column):
    """A table of one rate per path (median, range, against direct and
    against moat's interception), with the latency under load if asked."""
    extra = f" {latency_column} |" if latency_column else ""
    p(f"| path | median | min – max | vs direct | moat (intercepted) vs this |{extra}")
    p("| --- | ---: | ---: | ---: | ---: |" + (" ---: |" if latency_column else ""))
    for n in names:
        values = [x[key] for x in results.get(n, [])]
        if not values:
            p(f"| {LABELS[n]} | not measured | | | |" + (" |" if latency_column else ""))
            continue
        versus = fx(ratio(medians.get("moat"), medians[n])) if n not in ("direct", "moat") else ""
        cells = (f"| {LABELS[n]} | {medians[n]:,.0f}{unit} | {min(values):,.0f} – {max(values):,.0f}{unit} | "
                 f"{fx(ratio(medians[n], medians.get('direct')))} | {versus} |")
        if latency_column:
            p50 = med([x["p50_us"] for x in results[n]])
            p99 = med([x["p99_us"] for x in results[n]])
            cells += f" {p50:,.0f} µs / {p99:,.0f} µs |"
        p(cells)
    p("")


def report(bench, names, tput, lat, fresh, load, plan):
    out = []
    p = out.append
    commit = subprocess.run(["git", "-C", bench.args.repo, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "?"
    openssl = subprocess.run(["openssl", "version"], capture_output=True, text=True).stdout.strip()
    p(f"## Results {time.strftime('%Y-%m-%d', time.gmtime())}")
    p("")
    p(f"Machine: {machine()}; {bench.nginx_version.replace('nginx version: ', '')}, "
      f"{getattr(bench, 'mitm_version', 'mitmproxy not run')}, {openssl}.")
    p(f"moat binaries from `{bench.args.moat_bin}`, checkout at {commit}. Everything on loopback: nginx, the")
    p("proxies and the client share the same CPUs. Medians over rounds; each round runs every path once, in")
    p("rotated order. Every hop verifies its peer's certificate.")
    p("")
    direct = "direct"

    def rows(results, key):
        return {n: med([r[key] for r in results.get(n, [])]) for n in names}

    t, r = rows(tput, "mib_s"), rows(load, "rps")
    p(f"### Throughput: one HTTPS GET of {bench.big_bytes // 1048576} MiB, median of {plan['tput']} rounds")
    p("")
    rate_table(p, names, tput, "mib_s", t, " MiB/s", None)
    for title, results in (
            (f"### Latency of a small GET (100-byte body) on one kept-alive connection, "
             f"{plan['requests']:,} requests per round after {plan['warmup']}; median of {plan['lat']} round(s)", lat),
            (f"### A new connection per request (TCP, CONNECT, TLS handshake, one small GET), "
             f"{plan['fresh']:,} requests per round; median of {plan['lat']} round(s)", fresh)):
        p(title)
        p("")
        p("| path | p50 | p90 | p99 | added p50 | p50 vs direct |")
        p("| --- | ---: | ---: | ---: | ---: | ---: |")
        p50, p90, p99 = rows(results, "p50_us"), rows(results, "p90_us"), rows(results, "p99_us")
        for n in names:
            if p50[n] is None:
                p(f"| {LABELS[n]} | not measured | | | | |")
                continue
            added = "" if n == direct or p50.get(direct) is None else us(p50[n] - p50[direct])
            reconnects = sum(x.get("reconnects", 0) for x in results.get(n, []))
            label = LABELS[n] + (f" ({reconnects} reconnects)" if reconnects else "")
            p(f"| {label} | {us(p50[n])} | {us(p90[n])} | {us(p99[n])} | {added} | "
              f"{fx(ratio(p50[n], p50.get(direct)))} |")
        p("")
    p(f"### Requests per second: {bench.args.clients} kept-alive connections, small GETs back to back for "
      f"{plan['seconds']} s; median of {plan['rps']} round(s)")
    p("")
    rate_table(p, names, load, "rps", r, "", "p50 / p99 under load")
    p("### Targets")
    p("")
    tr = ratio(t.get("moat"), t.get(direct))
    rr = ratio(r.get("moat"), r.get("mitmproxy"))
    if tr is None:
        p("- Throughput at least 0.5x direct: not measured.")
    else:
        p(f"- Throughput at least 0.5x direct: **{'met' if tr >= 0.5 else 'missed'}**, {fx(tr)} "
          f"({t['moat']:,.0f} against {t[direct]:,.0f} MiB/s).")
    if rr is None:
        p("- Requests per second at least 10x mitmproxy's: not measured.")
    else:
        p(f"- Requests per second at least 10x mitmproxy's: **{'met' if rr >= 10 else 'missed'}**, {rr:.1f}x "
          f"({r['moat']:,.0f} against {r['mitmproxy']:,.0f}/s).")
    p("- Leaf certificate minting under 2 ms: measured by tests/bench/tls/run.sh, not here.")
    notes = bench.failures + [f"{LABELS[name]} skipped: {why}" for name, why in bench.skipped.items()]
    if notes:
        # Each measurement is tried twice: a note may be of a first attempt.
        p("\n### Not measured, or measured after a retry\n\n" + "\n".join(f"- {note}" for note in notes))
    return "\n".join(out) + "\n"


def prerequisites(args):
    """Says what is missing, or installs the peers; True when all is there."""
    for binary in ("moat", "moat-supervisor"):
        if not os.access(f"{args.moat_bin}/{binary}", os.X_OK):
            say(f"missing {args.moat_bin}/{binary} (build moat first: cmake --preset default && cmake --build build)")
            return False
    for tool, package in (("g++", "g++"), ("openssl", "openssl"), ("/usr/include/openssl/ssl.h", "libssl-dev")):
        if not (os.path.exists(tool) if tool.startswith("/") else shutil.which(tool)):
            say(f"missing {tool} (Debian package: {package})")
            return False
    os.environ["PATH"] += ":/usr/sbin:/sbin"
    packages = [package for command, package in (("nginx", "nginx-light"), ("mitmdump", "mitmproxy"))
                if not shutil.which(command)]
    if not packages:
        return True
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    if sudo and not shutil.which("sudo"):
        say(f"installing {' '.join(packages)} needs root or sudo")
        return False
    say(f"installing {' '.join(packages)}")
    install = sudo + ["env", "DEBIAN_FRONTEND=noninteractive", "timeout", "900", "apt-get", "install", "-y", "-qq",
                      *packages]
    if subprocess.run(install, stdout=sys.stderr).returncode != 0:
        subprocess.run(sudo + ["timeout", "300", "apt-get", "update", "-qq"], stdout=sys.stderr)
        if subprocess.run(install, stdout=sys.stderr).returncode != 0:
            say(f"apt-get install {' '.join(packages)} failed")
            return False
    # Debian starts nginx's service where an init system lets it; the
    # benchmark runs its own instance, so stop that one.
    if "nginx-light" in packages:
        subprocess.run(sudo + ["service", "nginx", "stop"], capture_output=True)
    return True


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(os.path.dirname(here)))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bin_dir", nargs="?", default=f"{repo}/build/bin")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--clients", type=int, default=int(os.environ.get("CLIENTS") or 32))
    parser.add_argument("--only", default=os.environ.get("ONLY", ""), help="comma-separated: " + ",".join(SUBJECTS))
    args = parser.parse_args()
    wanted = set(filter(None, args.only.split(","))) or set(SUBJECTS)
    unknown = wanted - set(SUBJECTS)
    if unknown:
        say(f"unknown ONLY names: {', '.join(sorted(unknown))} (known: {', '.join(SUBJECTS)})")
        return 2
    names = [n for n in SUBJECTS if n in wanted]
    if not os.path.isdir(args.bin_dir):
        say(f"no such directory: {args.bin_dir} (build moat first: cmake --preset default && cmake --build build)")
        return 2
    args.moat_bin, args.here, args.repo = os.path.abspath(args.bin_dir), here, repo
    if not prerequisites(args):
        return 2
    if args.quick:
        plan = {"tput": 2, "lat": 1, "rps": 1, "requests": 2000, "warmup": 100, "fresh": 200, "seconds": 5}
    else:
        plan = {"tput": 5, "lat": 3, "rps": 3, "requests": 10000, "warmup": 500, "fresh": 1000, "seconds": 10}

    tmp = tempfile.mkdtemp(prefix="moat-interception-bench.")
    os.chmod(tmp, 0o755)
    args.tools, args.work = f"{tmp}/tools", f"{tmp}/work"
    bench = Bench(args)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGHUP, lambda *_: sys.exit(129))
    try:
        os.makedirs(args.tools)
        run(["g++", "-O2", "-std=c++20", "-pthread", "-o", f"{args.tools}/tlsclient", f"{here}/tlsclient.cpp",
             "-lssl", "-lcrypto"], "building tlsclient", timeout=300)
        bench.make_pki()
        bench.start_nginx()
        if "mitmproxy" in names:
            try:
                bench.start_mitmproxy()
            except RuntimeError as error:
                bench.skipped["mitmproxy"] = str(error)
                say(f"mitmproxy skipped: {error}")
        bench.setup_moat()
        timeout = 900
        tput = bench.rounds(names, "throughput", plan["tput"], ["--path", "/big"], timeout)
        lat = bench.rounds(names, "latency", plan["lat"],
                           ["--requests", str(plan["requests"]), "--warmup", str(plan["warmup"])], timeout)
        fresh = bench.rounds(names, "handshake", plan["lat"],
                             ["--requests", str(plan["fresh"]), "--warmup", "20"], timeout)
        load = bench.rounds(names, "rps", plan["rps"],
                            ["--clients", str(args.clients), "--seconds", str(plan["seconds"]),
                             "--warmup-seconds", "2"], timeout)
        sys.stdout.write(report(bench, names, tput, lat, fresh, load, plan))
        with open(f"{tmp}/raw.json", "w") as f:
            json.dump(bench.raw, f, indent=1)
    except (RuntimeError, OSError, subprocess.SubprocessError) as error:
        say(f"failed: {error}")
        return 1
    finally:
        stop_all()
        if args.keep:
            say(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    if bench.failures or bench.skipped:
        say("some rows were not measured or needed a retry; the report says which")
        return 4
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
