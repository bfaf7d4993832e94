#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Run inside a moat sandbox by tst_secret_exposure: use a secret's
placeholder the way an agent would, then copy out everything the sandbox
can see so that the test, outside, can search it for the real value (which
this script never knows).

    exposure_dump.py VAR BOUND_URL OTHER_URL OUT_DIR [--abort]

Sends a GET with the header X-Api-Key: $VAR to BOUND_URL (the secret's
host) and to OTHER_URL (another allowed host) through moat's proxy, prints
"bound STATUS" and "other STATUS", then writes into OUT_DIR:
  self.mem      every readable mapping of this process's memory;
  procs.txt     the environment and command line of every process it sees,
                and the readable memory of every other process it may read;
--abort ends it with SIGABRT, for a core dump (written by the kernel).
"""

import os
import re
import ssl
import sys
import urllib.error
import urllib.request


def fetch(opener, url, key):
    request = urllib.request.Request(url, headers={"X-Api-Key": key})
    try:
        with opener.open(request, timeout=20) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def readable_memory(pid):
    chunks = []
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as mem:
        for line in maps:
            match = re.match(r"([0-9a-f]+)-([0-9a-f]+) r", line)
            if not match or "[vvar]" in line or "[vsyscall]" in line:
                continue
            start, end = int(match.group(1), 16), int(match.group(2), 16)
            try:
                mem.seek(start)
                chunks.append(mem.read(end - start))
            except OSError:
                pass
    return b"".join(chunks)


def main():
    var, bound, other, out = sys.argv[1:5]
    # The test's hosts are 127.0.0.1, which NO_PROXY names: use the proxy anyway.
    os.environ.pop("no_proxy", None)
    os.environ.pop("NO_PROXY", None)
    key = os.environ[var]
    context = ssl.create_default_context(cafile=os.environ["SSL_CERT_FILE"])
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({"https": "http://127.0.0.1:3128"}),
        urllib.request.HTTPSHandler(context=context),
    )
    print("bound", fetch(opener, bound, key), flush=True)
    print("other", fetch(opener, other, key), flush=True)

    with open(os.path.join(out, "self.mem"), "wb") as dump:
        dump.write(readable_memory("self"))
    others = 0
    with open(os.path.join(out, "procs.txt"), "wb") as dump:
        for pid in sorted(p for p in os.listdir("/proc") if p.isdigit()):
            for name in ("environ", "cmdline"):
                try:
                    with open(f"/proc/{pid}/{name}", "rb") as f:
                        dump.write(f"== {pid} {name}\n".encode() + f.read() + b"\n")
                except OSError:
                    pass
            if int(pid) != os.getpid():
                try:
                    dump.write(f"== {pid} mem\n".encode() + readable_memory(pid) + b"\n")
                    others += 1
                except OSError:
                    pass
    print("dumped, other processes' memory read:", others, flush=True)
    if "--abort" in sys.argv[5:]:
        os.abort()


if __name__ == "__main__":
    main()
