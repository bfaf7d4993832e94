#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""ptrace-attach.py PID: PTRACE_ATTACH to PID, wait for the stop, detach.

Exit 0 and print "attached" when the attach worked; exit 1 and print the
errno name when the kernel refused it.
"""

import ctypes
import errno
import os
import sys

PTRACE_ATTACH = 16
PTRACE_DETACH = 17


def main():
    pid = int(sys.argv[1])
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    libc.ptrace.restype = ctypes.c_long
    if libc.ptrace(PTRACE_ATTACH, pid, None, None) != 0:
        error = ctypes.get_errno()
        print("ptrace-attach: %s (%s)" % (errno.errorcode.get(error, error), os.strerror(error)))
        return 1
    os.waitpid(pid, 0x40000000)  # __WALL: the tracee is not our child
    libc.ptrace(PTRACE_DETACH, pid, None, None)
    print("attached")
    return 0


if __name__ == "__main__":
    sys.exit(main())
