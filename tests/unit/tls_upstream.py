#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The TLS upstream of the interception tests (tst_tls_interception).

    tls_upstream.py CERT KEY

Serves HTTPS on 127.0.0.1 (a free port, printed first as "port N") with the
given certificate, answers every request 200 "upstream saw METHOD PATH", and
prints one JSON line per request it received: method, path, headers, body.
A real server, independent of moat's code, so that what it prints is what
went over the wire.
"""
import http.server
import json
import ssl
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        print(json.dumps({"method": self.command, "path": self.path,
                          "headers": [[k, v] for k, v in self.headers.items()],
                          "body": body.decode("latin-1")}), flush=True)
        reply = f"upstream saw {self.command} {self.path}\n".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = answer

    def log_message(self, *args):
        pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(f"port {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
