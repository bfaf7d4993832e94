#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""egress-upstream.py --cert PEM --key PEM [--git-root DIR] [--static DIR] [--marker TEXT] [--log FILE]

The destinations of the egress tests, on the host's loopback (stdlib only, so
that /usr/bin/python3 runs it):

  http    plain HTTP/1.1 with keep-alive on 127.0.0.1 (and on [::1] with the
          same port when the host has IPv6 loopback)
  alt     a second plain HTTP port, the "other port of an allowed host"
  https   HTTPS with --cert/--key (the test CA's certificate for localhost)
  silent  accepts connections and never answers (upstream timeouts)
  udp     a UDP echo, to show that datagrams work outside

Every HTTP port answers:
  /bytes/N        N bytes of 'x'
  /NAME.git/...   git smart HTTP for DIR/NAME.git (git http-backend as CGI)
  GET or HEAD of a file under --static DIR
                  that file (a directory: its index.html or index.json), read
                  when asked for, so files written after the start are served;
                  Content-Type text/html, application/json or
                  application/octet-stream by the name's suffix
  anything else   an echo: the marker, the port's name, method, path, Host

Prints "ready http=P http6=P|none alt=P alt6=P|none https=P silent=P udp=P"
on stdout once every port listens. Writes one line per request ("request
PORTNAME METHOD PATH host=H"), TLS handshake ("tls sni=NAME"), accepted silent
connection and datagram to --log (else stdout), each as it happens, so that
a test can tell what reached the upstream and what never did.
"""

import argparse
import http.server
import os
import re
import socket
import ssl
import subprocess
import sys
import threading
import urllib.parse

GIT = "/usr/bin/git"
LOG_LOCK = threading.Lock()
LOG = [sys.stdout]
GIT_PATH = re.compile(r"^/[A-Za-z0-9._-]+\.git(/|$)")
STATIC_TYPES = {".html": "text/html", ".json": "application/json"}


def log(line):
    with LOG_LOCK:
        LOG[0].write(line + "\n")
        LOG[0].flush()


def printable(text):
    return "".join(c if 0x20 < ord(c) < 0x7F else "?" for c in text or "")[:200]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "moat-egress-upstream"
    # Set per server class below.
    port_name = "http"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def setup(self):
        super().setup()
        self.requests_on_connection = 0
        if isinstance(self.connection, ssl.SSLSocket):
            self.connection.settimeout(10)
            try:
                self.connection.do_handshake()
            except (ssl.SSLError, OSError) as error:
                log("tls failed %s" % printable(str(error)))
                raise
            self.connection.settimeout(None)

    def _reply(self, status, body, content_type="text/plain", extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _request_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _handle(self):
        self.requests_on_connection += 1
        host = self.headers.get("Host", "")
        log("request %s %s %s host=%s" % (self.port_name, self.command, printable(self.path), printable(host)))
        path = self.path.split("?", 1)[0]
        if GIT_PATH.match(path) and self.server.git_root:
            self._git()
            return
        body = self._request_body()
        sized = re.match(r"^/bytes/(\d+)$", path)
        if sized:
            self._bytes(int(sized.group(1)))
            return
        static = self._static_file(path) if self.command in ("GET", "HEAD") else None
        if static:
            with open(static, "rb") as file:
                content = file.read()
            suffix = os.path.splitext(static)[1]
            self._reply(200, content, STATIC_TYPES.get(suffix, "application/octet-stream"))
            return
        lines = [
            "moat-upstream %s" % self.server.marker,
            "server=%s" % self.port_name,
            "method=%s" % self.command,
            "path=%s" % self.path,
            "host=%s" % host,
            "request-on-connection=%d" % self.requests_on_connection,
            "body-bytes=%d" % len(body),
        ]
        self._reply(200, ("\n".join(lines) + "\n").encode())

    def _static_file(self, path):
        """The file under --static that `path` names, or None."""
        root = self.server.static_root
        if not root:
            return None
        found = os.path.realpath(os.path.join(root, urllib.parse.unquote(path).lstrip("/")))
        if found != root and not found.startswith(root + os.sep):
            return None
        if os.path.isdir(found):
            for index in ("index.html", "index.json"):
                if os.path.isfile(os.path.join(found, index)):
                    return os.path.join(found, index)
            return None
        return found if os.path.isfile(found) else None

    def _bytes(self, count):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(count))
        self.end_headers()
        if self.command == "HEAD":
            return
        chunk = b"x" * 65536
        while count > 0:
            piece = chunk[:count]
            self.wfile.write(piece)
            count -= len(piece)

    def _git(self):
        body = self._request_body()
        path, _, query = self.path.partition("?")
        environment = {
            "PATH": "/usr/bin:/bin",
            "GIT_PROJECT_ROOT": self.server.git_root,
            "GIT_HTTP_EXPORT_ALL": "1",
            # The repository belongs to whoever made it; the server may run as
            # someone else.
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": "safe.directory",
            "GIT_CONFIG_VALUE_0": "*",
            "GATEWAY_INTERFACE": "CGI/1.1",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REQUEST_METHOD": self.command,
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
            "REMOTE_ADDR": self.client_address[0],
            "REMOTE_USER": "",
        }
        for header, variable in (("Content-Encoding", "HTTP_CONTENT_ENCODING"), ("Git-Protocol", "GIT_PROTOCOL")):
            if self.headers.get(header):
                environment[variable] = self.headers[header]
        result = subprocess.run([GIT, "http-backend"], input=body, env=environment, capture_output=True,
                                check=False, timeout=60)
        output = result.stdout
        end = re.search(rb"\r?\n\r?\n", output)
        if not end:
            self._reply(500, b"git http-backend failed: " + result.stderr[-500:])
            return
        status = 200
        headers = []
        for line in output[:end.start()].decode("latin-1").splitlines():
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.strip().split()[0])
            elif name:
                headers.append((name.strip(), value.strip()))
        content = output[end.end():]
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(content)

    do_GET = _handle
    do_HEAD = _handle
    do_POST = _handle
    do_PUT = _handle
    do_DELETE = _handle


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address, family, handler, marker, git_root, static_root, tls=None):
        self.address_family = family
        self.marker = marker
        self.git_root = git_root
        self.static_root = static_root
        self.tls = tls
        super().__init__(address, handler)

    def get_request(self):
        connection, address = self.socket.accept()
        if self.tls:
            # The handshake runs in the handler's thread, so a client that
            # stalls it cannot block the accept loop.
            connection = self.tls.wrap_socket(connection, server_side=True, do_handshake_on_connect=False)
        return connection, address


def handler_for(name):
    return type("Handler_" + name, (Handler,), {"port_name": name})


def serve(server):
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()


def silent_listener():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    held = []

    def accept():
        while True:
            connection, _ = listener.accept()
            log("silent accepted")
            held.append(connection)

    threading.Thread(target=accept, daemon=True).start()
    return listener.getsockname()[1]


def udp_echo():
    server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    server.bind(("127.0.0.1", 0))

    def echo():
        while True:
            data, peer = server.recvfrom(4096)
            log("udp %d bytes" % len(data))
            server.sendto(b"echo " + data, peer)

    threading.Thread(target=echo, daemon=True).start()
    return server.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--git-root", default="")
    parser.add_argument("--static", default="")
    parser.add_argument("--marker", default="moat-upstream-marker")
    parser.add_argument("--log", default="")
    arguments = parser.parse_args()
    if arguments.log:
        LOG[0] = open(arguments.log, "a", encoding="utf-8")

    static_root = os.path.realpath(arguments.static) if arguments.static else ""

    def make(name, family=socket.AF_INET, host="127.0.0.1", port=0, tls=None):
        return Server((host, port), family, handler_for(name), arguments.marker, arguments.git_root, static_root,
                      tls)

    def dual_stack(name):
        """One port on 127.0.0.1 and, when the host has IPv6 loopback, on ::1."""
        v4 = make(name)
        try:
            v6 = make(name, socket.AF_INET6, "::1", v4.server_address[1])
        except OSError:
            v6 = None
        return v4, v6, v4.server_address[1]

    http4, http6, port = dual_stack("http")
    alt4, alt6, alt_port = dual_stack("alt")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(arguments.cert, arguments.key)

    def note_sni(sock, server_name, ctx):
        log("tls sni=%s" % printable(server_name or "(none)"))

    context.sni_callback = note_sni
    https = make("https", tls=context)
    for server in (http4, http6, alt4, alt6, https):
        if server:
            serve(server)
    silent = silent_listener()
    udp = udp_echo()
    print("ready http=%d http6=%s alt=%d alt6=%s https=%d silent=%d udp=%d" %
        (port, str(port) if http6 else "none", alt_port, str(alt_port) if alt6 else "none",
         https.server_address[1], silent, udp), flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        os._exit(0)
