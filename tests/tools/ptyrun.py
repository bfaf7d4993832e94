#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Run a command with a fresh pseudo-terminal as its controlling terminal.

The integration tests use this to give `moat run` (or a plain command) a real
terminal without needing one themselves (CI has no stdin at all).

    ptyrun.py [--rows N --cols N] [--send SECONDS:HEX]... [--resize SECONDS:ROWSxCOLS]...
              [--timeout SECONDS] [--expect TEXT] [--report-termios] -- COMMAND [ARG...]

--rows/--cols   window size set on the pty before COMMAND starts (TIOCSWINSZ)
--send S:HEX    write the bytes HEX to the master S seconds after the start, or,
                with --expect, S seconds after TEXT first appeared in the output
--resize S:RxC  set the window size to R rows and C columns after S seconds
                (counted like --send); the kernel sends SIGWINCH
--report-termios  after COMMAND ends, print "ptyrun: icanon=N echo=N" for
                the terminal it leaves behind (is it still in raw mode?)
--expect TEXT   a marker the command prints once it is ready for input
--timeout S     SIGKILL COMMAND's process group after S seconds (default 30)

Everything COMMAND writes to the terminal is copied to our stdout. Our exit
status is COMMAND's, or 128+N when signal N ended it.
"""

import argparse
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=24)
    parser.add_argument("--cols", type=int, default=80)
    parser.add_argument("--send", action="append", default=[])
    parser.add_argument("--resize", action="append", default=[])
    parser.add_argument("--report-termios", action="store_true")
    parser.add_argument("--expect", default=None)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        parser.error("no command given")

    sends = []
    for item in args.send:
        delay, _, payload = item.partition(":")
        sends.append((float(delay), bytes.fromhex(payload)))
    for item in args.resize:
        delay, _, size = item.partition(":")
        rows, _, cols = size.partition("x")
        sends.append((float(delay), (int(rows), int(cols))))

    master, slave = pty.openpty()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", args.rows, args.cols, 0, 0))

    pid = os.fork()
    if pid == 0:
        os.close(master)
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        if slave > 2:
            os.close(slave)
        try:
            os.execvp(command[0], command)
        except OSError as error:
            os.write(2, ("ptyrun: cannot execute %s: %s\n" % (command[0], error.strerror)).encode())
            os._exit(127)
    if not args.report_termios:
        os.close(slave)

    start = time.monotonic()
    ready_at = None if args.expect else start
    transcript = b""
    status = None
    timed_out = False
    out = sys.stdout.buffer
    while True:
        now = time.monotonic()
        if ready_at is None and args.expect.encode() in transcript:
            ready_at = now
        if ready_at is not None:
            remaining = []
            for delay, payload in sends:
                if now - ready_at >= delay:
                    if isinstance(payload, tuple):
                        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", payload[0], payload[1], 0, 0))
                    else:
                        os.write(master, payload)
                else:
                    remaining.append((delay, payload))
            sends = remaining
        if not timed_out and now - start > args.timeout:
            timed_out = True
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            sys.stderr.write("ptyrun: timed out after %.1f s\n" % args.timeout)
        try:
            readable, _, _ = select.select([master], [], [], 0.05)
        except InterruptedError:
            readable = []
        if readable:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every slave fd is closed
                chunk = b""
            if chunk:
                transcript += chunk
                out.write(chunk)
                out.flush()
                continue
            readable = []
        if status is None:
            done, raw = os.waitpid(pid, os.WNOHANG)
            if done:
                status = raw
        if status is not None and not readable:
            # Drain what is left, then stop.
            try:
                while select.select([master], [], [], 0.1)[0]:
                    chunk = os.read(master, 65536)
                    if not chunk:
                        break
                    out.write(chunk)
            except OSError:
                pass
            break
    if args.report_termios:
        lflag = termios.tcgetattr(slave)[3]
        out.write(b"\nptyrun: icanon=%d echo=%d\n" % (bool(lflag & termios.ICANON), bool(lflag & termios.ECHO)))
    out.flush()
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main())
