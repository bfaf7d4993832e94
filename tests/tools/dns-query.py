#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""dns-query.py SERVER PORT NAME [TIMEOUT]: one direct A query over UDP.

Prints "answer A.B.C.D" and exits 0 when SERVER answered with an address;
prints "no address: rcode N" when it answered without one; prints what went
wrong and exits 1 otherwise (no route, refused, or nothing within TIMEOUT
seconds, default 2).
"""

import os
import socket
import struct
import sys


def main():
    server, port, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    timeout = float(sys.argv[4]) if len(sys.argv) > 4 else 2.0
    ident = os.urandom(2)
    query = ident + struct.pack(">HHHHH", 0x0100, 1, 0, 0, 0)
    for label in name.strip(".").split("."):
        query += bytes([len(label)]) + label.encode()
    query += b"\x00" + struct.pack(">HH", 1, 1)
    client = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    client.settimeout(timeout)
    try:
        client.sendto(query, (server, port))
        reply, _ = client.recvfrom(4096)
    except OSError as error:
        print("no answer: %s" % (error.strerror or error))
        return 1
    if len(reply) < 12 or reply[:2] != ident:
        print("no answer: malformed reply")
        return 1
    if struct.unpack(">H", reply[6:8])[0] == 0:
        print("no address: rcode %d" % (reply[3] & 0x0F))
        return 1
    print("answer %s" % ".".join(str(b) for b in reply[-4:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
