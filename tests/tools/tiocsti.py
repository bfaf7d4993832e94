#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""tiocsti.py: push the characters of a command into our terminal's input
queue with TIOCSTI, as a keystroke-injection attack does.

Exit 0 and print "injected" when the ioctl worked; exit 1 and print the errno
name when it was refused; exit 2 when stdin is not a terminal.
"""

import errno
import fcntl
import os
import sys
import termios


def main():
    if not os.isatty(0):
        print("tiocsti: stdin is not a terminal")
        return 2
    try:
        for byte in b"id\n":
            fcntl.ioctl(0, termios.TIOCSTI, bytes([byte]))
    except OSError as error:
        print("tiocsti: %s (%s)" % (errno.errorcode.get(error.errno, error.errno), error.strerror))
        return 1
    print("injected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
