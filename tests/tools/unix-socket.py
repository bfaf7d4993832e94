#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""unix-socket.py serve|connect ADDRESS: a host service on a Unix socket.

ADDRESS is a path, or @NAME for the abstract namespace.
  serve    listen, print "ready", answer every connection with "hello from host"
  connect  connect, print what the server said and exit 0; print the errno
           name and exit 1 when the connection fails
"""

import errno
import socket
import sys


def address(text):
    return "\0" + text[1:] if text.startswith("@") else text


def main():
    mode, where = sys.argv[1], address(sys.argv[2])
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    if mode == "serve":
        sock.bind(where)
        sock.listen(8)
        print("ready", flush=True)
        while True:
            peer, _ = sock.accept()
            peer.sendall(b"hello from host\n")
            peer.close()
    try:
        sock.settimeout(3)
        sock.connect(where)
        print(sock.recv(100).decode().strip())
        return 0
    except OSError as error:
        print("connect: %s" % errno.errorcode.get(error.errno, error))
        return 1


if __name__ == "__main__":
    sys.exit(main())
