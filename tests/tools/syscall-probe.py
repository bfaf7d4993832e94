#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""syscall-probe.py NAME: try one kernel interface an escape would start from.

Prints "NAME: ok" and exits 0 when the kernel granted it; prints
"NAME: ERRNO" and exits 1 when refused. x86-64 system call numbers.

NAME is one of io_uring_setup, userfaultfd, add_key, perf_event_open, bpf,
open_by_handle_at, setns.
"""

import ctypes
import errno
import os
import sys

NUMBERS = {
    "io_uring_setup": 425,
    "userfaultfd": 323,
    "add_key": 248,
    "perf_event_open": 298,
    "bpf": 321,
    "open_by_handle_at": 304,
    "setns": 308,
}


def main():
    name = sys.argv[1]
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    if name == "io_uring_setup":
        params = ctypes.create_string_buffer(120)
        result = libc.syscall(NUMBERS[name], ctypes.c_uint(4), params)
    elif name == "userfaultfd":
        result = libc.syscall(NUMBERS[name], ctypes.c_int(os.O_CLOEXEC | 1))  # UFFD_USER_MODE_ONLY
    elif name == "add_key":
        result = libc.syscall(NUMBERS[name], b"user", b"moat-it-probe", b"x", ctypes.c_size_t(1),
                              ctypes.c_int(-2))  # KEY_SPEC_PROCESS_KEYRING
    elif name == "perf_event_open":
        attr = ctypes.create_string_buffer(128)
        ctypes.memmove(attr, (1).to_bytes(4, "little") + (128).to_bytes(4, "little"), 8)  # software, size
        attr[40] = 0x60  # exclude_kernel | exclude_hv
        result = libc.syscall(NUMBERS[name], attr, ctypes.c_int(0), ctypes.c_int(-1), ctypes.c_int(-1),
                              ctypes.c_ulong(0))
    elif name == "bpf":
        attr = ctypes.create_string_buffer(128)
        ctypes.memmove(attr, (2).to_bytes(4, "little") + (4).to_bytes(4, "little") + (4).to_bytes(4, "little")
                       + (1).to_bytes(4, "little"), 16)  # BPF_MAP_TYPE_ARRAY, 4-byte keys and values, 1 entry
        result = libc.syscall(NUMBERS[name], ctypes.c_int(0), attr, ctypes.c_uint(128))  # BPF_MAP_CREATE
    elif name == "open_by_handle_at":
        handle = ctypes.create_string_buffer(16)
        ctypes.memmove(handle, (8).to_bytes(4, "little"), 4)
        result = libc.syscall(NUMBERS[name], ctypes.c_int(-100), handle, ctypes.c_int(0))
    elif name == "setns":
        fd = os.open("/proc/self/ns/uts", os.O_RDONLY)
        result = libc.syscall(NUMBERS[name], ctypes.c_int(fd), ctypes.c_int(0))
    else:
        print("unknown probe %s" % name)
        return 2
    if result < 0:
        code = ctypes.get_errno()
        if name == "open_by_handle_at" and code == errno.ESTALE:
            # Past the permission check: only our made-up handle was wrong.
            print("%s: ok (ESTALE)" % name)
            return 0
        print("%s: %s" % (name, errno.errorcode.get(code, code)))
        return 1
    print("%s: ok" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
