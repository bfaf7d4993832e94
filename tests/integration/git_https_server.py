#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A smart-HTTP git server over TLS, for tst_push_approval.

    git_https_server.py CERT KEY ROOT

Serves the bare repositories below ROOT on https://127.0.0.1:PORT/NAME.git
(a free port, printed first as "port N") through the real `git http-backend`
run as CGI, so that what a push changes is what git itself wrote. A
repository accepts pushes when its config says `http.receivepack true`.
After each request it prints one line: "request METHOD PATH STATUS BYTES",
BYTES being the size of the request body it received, so that a test can
tell whether a push ever reached the server.

Request bodies come with Content-Length or in chunked transfer encoding
(git sends a push larger than http.postBuffer in chunks); either way the
whole body is handed to http-backend with its length.
"""
import http.server
import os
import ssl
import subprocess
import sys

ROOT = ""


class BadRequest(Exception):
    pass


def read_chunked(stream):
    """The body of a chunked request (RFC 9112 section 7.1), trailers dropped."""
    parts = []
    while True:
        line = stream.readline(1024)
        if not line.endswith(b"\n"):
            raise BadRequest("a chunk size line is cut short")
        size_text = line.split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            raise BadRequest(f"a chunk size is not hex: {size_text!r}") from None
        if size == 0:
            break
        data = stream.read(size)
        if len(data) != size or stream.read(2) != b"\r\n":
            raise BadRequest("a chunk is cut short")
        parts.append(data)
    while True:  # trailer fields, up to the empty line
        line = stream.readline(8192)
        if line in (b"\r\n", b"\n", b""):
            break
    return b"".join(parts)


def parse_cgi_output(output):
    """Splits http-backend's CGI answer into (status, headers, body)."""
    for separator in (b"\r\n\r\n", b"\n\n"):
        head, found, body = output.partition(separator)
        if found:
            break
    else:
        raise BadRequest("http-backend answered without a header block")
    status = 200
    headers = []
    for line in head.decode("latin-1").splitlines():
        name, _, value = line.partition(":")
        if name.lower() == "status":
            status = int(value.split()[0])
        elif name:
            headers.append((name, value.strip()))
    return status, headers, body


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return read_chunked(self.rfile)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def backend_environment(self, body):
        path, _, query = self.path.partition("?")
        environment = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "GIT_PROJECT_ROOT": ROOT,
            "GIT_HTTP_EXPORT_ALL": "1",
            "GATEWAY_INTERFACE": "CGI/1.1",
            "REQUEST_METHOD": self.command,
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "CONTENT_LENGTH": str(len(body)),
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "REMOTE_ADDR": self.client_address[0],
            "SERVER_PROTOCOL": "HTTP/1.1",
        }
        # http-backend reads these from the CGI variables of their headers.
        for header, variable in (("Content-Encoding", "HTTP_CONTENT_ENCODING"),
                                 ("Git-Protocol", "GIT_PROTOCOL")):
            if header in self.headers:
                environment[variable] = self.headers[header]
        return environment

    def answer(self):
        status, size = 500, 0
        try:
            body = self.read_body()
            size = len(body)
            backend = subprocess.run(["git", "http-backend"], input=body, capture_output=True,
                                     env=self.backend_environment(body), timeout=60, check=False)
            status, headers, reply = parse_cgi_output(backend.stdout)
            if backend.stderr:
                sys.stderr.write(backend.stderr.decode("utf-8", "replace"))
        except (BadRequest, ValueError, subprocess.TimeoutExpired) as problem:
            status, headers, reply = 400, [("Content-Type", "text/plain")], f"{problem}\n".encode()
            self.close_connection = True
        self.send_response(status)
        for name, value in headers:
            if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)
        print(f"request {self.command} {self.path} {status} {size}", flush=True)

    do_GET = do_POST = answer

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, context):
        super().__init__(("127.0.0.1", 0), Handler)
        self.context = context

    def get_request(self):
        # The TLS handshake happens on the first read, in the request's own
        # thread: a client that stalls it holds up nobody else.
        connection, address = self.socket.accept()
        return self.context.wrap_socket(connection, server_side=True, do_handshake_on_connect=False), address


def main():
    global ROOT
    if len(sys.argv) != 4:
        sys.exit("usage: git_https_server.py CERT KEY ROOT")
    ROOT = os.path.abspath(sys.argv[3])
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    server = Server(context)
    print(f"port {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
