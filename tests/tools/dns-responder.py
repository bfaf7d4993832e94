#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""dns-responder.py PORT: a tiny DNS server on 127.0.0.1:PORT (UDP).

Answers every question with one A record, 203.0.113.7 (TEST-NET-3), and
prints "ready" once it listens. Enough to show that a direct DNS query reaches
a resolver on the host's loopback.
"""

import socket
import struct
import sys

ANSWER_ADDRESS = bytes([203, 0, 113, 7])


def answer(query):
    if len(query) < 12:
        return None
    ident = query[:2]
    # The question ends at the first zero-length label, then QTYPE and QCLASS.
    end = 12
    while end < len(query) and query[end] != 0:
        end += query[end] + 1
    question = query[12:end + 5]
    header = ident + struct.pack(">HHHHH", 0x8180, 1, 1, 0, 0)
    record = b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 60, 4) + ANSWER_ADDRESS
    return header + question + record


def main():
    port = int(sys.argv[1])
    server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    server.bind(("127.0.0.1", port))
    print("ready", flush=True)
    while True:
        query, peer = server.recvfrom(4096)
        reply = answer(query)
        if reply:
            server.sendto(reply, peer)


if __name__ == "__main__":
    main()
