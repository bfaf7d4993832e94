#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""egress-probe.py ACTION ...: raw network attempts for the egress tests.

Real clients (curl, git) tidy up what they send; an attacker does not. Each
action sends exactly the bytes it is told to and prints what came back, one
"key value" line at a time, so that a test can read the outcome:

  direct HOST PORT [PATH]       resolve HOST here (any spelling getaddrinfo
                                takes), connect, GET PATH; "connected ADDRESS",
                                then the answer
  tcp HOST PORT                 connect only: "connected" or "failed ERRNO"
  udp HOST PORT                 one datagram, wait 2 s: "reply ..." or "failed ..."
  http PROXYPORT REQUEST        REQUEST (with \\r \\n escapes, {pad:N} for N
                                'a's) to 127.0.0.1:PROXYPORT; "status N",
                                "elapsed-ms N", the answer's body
  connect PROXYPORT AUTHORITY [--sni NAME] [--path P]
                                CONNECT AUTHORITY; on 200, TLS with SNI NAME
                                (certificates not checked: only what the proxy
                                does matters) or plain HTTP, then GET P
  tls HOST PORT --sni NAME [--path P]
                                the same TLS attempt, directly
  socks5 PROXYPORT HOST PORT [PATH] [--command connect|bind|udp]
                                SOCKS5 CONNECT (address type from HOST: IPv4,
                                IPv6 or domain), then GET PATH: "reply 0xNN";
                                BIND or UDP ASSOCIATE: the reply only
  slowloris PROXYPORT URL SECONDS
                                one header byte a second on one connection,
                                while a normal request for URL goes through
                                another; "normal status N", "slow closed-after
                                S" or "slow open-after S"
  idle PROXYPORT COUNT URL      COUNT idle connections to the proxy, then GET
                                URL through it: "opened N", "status N"

Exit status: 0 when the attempt got through (a connection, an answer, a
reply), 1 when it was refused or failed, 2 on a usage error.
"""

import codecs
import ipaddress
import resource
import socket
import ssl
import sys
import threading
import time


def out(key, value=""):
    sys.stdout.write(("%s %s" % (key, value)).rstrip() + "\n")
    sys.stdout.flush()


def errno_name(error):
    import errno
    return errno.errorcode.get(error.errno, str(error)) if getattr(error, "errno", None) else str(error)


def expand(request):
    text = codecs.decode(request, "unicode_escape")
    while "{pad:" in text:
        start = text.index("{pad:")
        end = text.index("}", start)
        text = text[:start] + "a" * int(text[start + 5:end]) + text[end + 1:]
    return text.encode("latin-1")


def read_answer(sock, timeout=30):
    """Reads one HTTP answer: the head, then Content-Length bytes (or to EOF)."""
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return data, True
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = None
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while length is None or len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                return head + b"\r\n\r\n" + body, True
            body += chunk
        return head + b"\r\n\r\n" + body, False
    except socket.timeout:
        out("timeout", "no complete answer after %d s" % timeout)
        return data, False
    except OSError as error:
        out("error", errno_name(error))
        return data, True


def report_answer(answer):
    if not answer:
        out("closed", "without an answer")
        return None
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line = head.split(b"\r\n")[0].decode("latin-1")
    parts = status_line.split(" ", 2)
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    out("status", status)
    for line in head.split(b"\r\n")[1:]:
        out("header", line.decode("latin-1"))
    sys.stdout.write(body.decode("utf-8", "replace"))
    if body and not body.endswith(b"\n"):
        sys.stdout.write("\n")
    sys.stdout.flush()
    return status


def proxy_socket(port, timeout=10):
    return socket.create_connection(("127.0.0.1", int(port)), timeout=timeout)


def get(sock, host, path):
    sock.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % (path, host)).encode())
    return report_answer(read_answer(sock)[0])


def action_direct(host, port, path="/"):
    started = time.monotonic()
    try:
        sock = socket.create_connection((host.strip("[]"), int(port)), timeout=3)
    except OSError as error:
        out("failed", errno_name(error))
        out("elapsed-ms", int((time.monotonic() - started) * 1000))
        return 1
    out("connected", sock.getpeername()[0])
    return 0 if get(sock, "%s:%s" % (host, port), path) else 1


def action_tcp(host, port):
    started = time.monotonic()
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=3).close()
        out("connected")
        result = 0
    except OSError as error:
        out("failed", errno_name(error))
        result = 1
    out("elapsed-ms", int((time.monotonic() - started) * 1000))
    return result


def action_udp(host, port):
    try:
        infos = socket.getaddrinfo(host.strip("[]"), int(port), type=socket.SOCK_DGRAM)
        family, _, _, _, address = infos[0]
        sock = socket.socket(family, socket.SOCK_DGRAM)
        sock.settimeout(2)
        sock.sendto(b"moat-udp-probe", address)
        data, peer = sock.recvfrom(4096)
        out("reply", data.decode("latin-1"))
        return 0
    except OSError as error:
        out("failed", errno_name(error))
        return 1


def action_http(port, request, timeout="30"):
    started = time.monotonic()
    try:
        sock = proxy_socket(port)
    except OSError as error:
        out("failed", errno_name(error))
        return 1
    try:
        sock.sendall(expand(request))
    except OSError as error:
        out("send-failed", errno_name(error))
    answer, _ = read_answer(sock, int(timeout))
    out("elapsed-ms", int((time.monotonic() - started) * 1000))
    status = report_answer(answer)
    return 0 if status and status < 400 else 1


def tls_then_get(sock, sni, host, path):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:
        tls = context.wrap_socket(sock, server_hostname=sni)
        out("tls", "established")
    except ssl.SSLError as error:
        out("tls-failed", str(error))
        return 1
    except OSError as error:
        out("tls-failed", errno_name(error))
        return 1
    return 0 if get(tls, host, path) == 200 else 1


def options(arguments):
    parsed = {}
    rest = []
    index = 0
    while index < len(arguments):
        if arguments[index].startswith("--"):
            parsed[arguments[index][2:]] = arguments[index + 1]
            index += 2
        else:
            rest.append(arguments[index])
            index += 1
    return parsed, rest


def action_connect(port, authority, *arguments):
    opts, _ = options(arguments)
    try:
        sock = proxy_socket(port)
    except OSError as error:
        out("failed", errno_name(error))
        return 1
    sock.sendall(("CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n" % (authority, authority)).encode())
    # The answer to CONNECT has no body when it is 200; a refusal has one.
    sock.settimeout(30)
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            break
        head += chunk
    if not head:
        out("closed", "without an answer")
        return 1
    status_line = head.split(b"\r\n")[0].decode("latin-1")
    parts = status_line.split(" ", 2)
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    out("connect-status", status)
    if status != 200:
        rest, _ = read_answer_body(sock, head)
        sys.stdout.write(rest.decode("utf-8", "replace") + "\n")
        return 1
    path = opts.get("path", "/")
    if "sni" in opts:
        return tls_then_get(sock, opts["sni"], authority, path)
    return 0 if get(sock, authority, path) == 200 else 1


def read_answer_body(sock, head):
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    body = b""
    try:
        while len(body) < length:
            chunk = sock.recv(length - len(body))
            if not chunk:
                break
            body += chunk
    except OSError:
        pass
    return body, len(body) == length


def action_tls(host, port, *arguments):
    opts, _ = options(arguments)
    try:
        sock = socket.create_connection((host.strip("[]"), int(port)), timeout=5)
    except OSError as error:
        out("failed", errno_name(error))
        return 1
    return tls_then_get(sock, opts["sni"], "%s:%s" % (host, port), opts.get("path", "/"))


SOCKS_REPLIES = {0: "succeeded", 1: "general failure", 2: "not allowed by ruleset", 3: "network unreachable",
                 4: "host unreachable", 5: "connection refused", 6: "TTL expired", 7: "command not supported",
                 8: "address type not supported"}


def socks_address(host):
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        address = ipaddress.ip_address(bare)
        if address.version == 4:
            return b"\x01" + address.packed
        return b"\x04" + address.packed
    except ValueError:
        encoded = host.encode("latin-1")
        return b"\x03" + bytes([len(encoded)]) + encoded


def recv_exactly(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            break
        data += chunk
    return data


SOCKS_COMMANDS = {"connect": 1, "bind": 2, "udp": 3}


def action_socks5(port, host, target_port, *arguments):
    opts, rest = options(arguments)
    path = rest[0] if rest else "/"
    command = SOCKS_COMMANDS[opts.get("command", "connect")]
    try:
        sock = proxy_socket(port)
    except OSError as error:
        out("failed", errno_name(error))
        return 1
    sock.settimeout(30)
    sock.sendall(b"\x05\x01\x00")
    choice = recv_exactly(sock, 2)
    if choice != b"\x05\x00":
        out("greeting", choice.hex() or "closed")
        return 1
    sock.sendall(bytes([5, command, 0]) + socks_address(host) + int(target_port).to_bytes(2, "big"))
    reply = recv_exactly(sock, 4)
    if len(reply) < 2:
        out("closed", "without a reply")
        return 1
    out("reply", "0x%02x %s" % (reply[1], SOCKS_REPLIES.get(reply[1], "unknown")))
    if reply[1] != 0 or command != 1:
        return 1 if reply[1] != 0 else 0
    kind = reply[3] if len(reply) > 3 else 1
    if kind == 1:
        recv_exactly(sock, 4 + 2)
    elif kind == 4:
        recv_exactly(sock, 16 + 2)
    else:
        recv_exactly(sock, recv_exactly(sock, 1)[0] + 2)
    return 0 if get(sock, "%s:%s" % (host, target_port), path) == 200 else 1


def action_slowloris(port, url, seconds):
    seconds = int(seconds)
    result = {}

    def slow():
        started = time.monotonic()
        sock = proxy_socket(port)
        sock.settimeout(1)
        request = ("GET %s HTTP/1.1\r\nX-Slow: " % url).encode() + b"a" * 100000
        for index in range(len(request)):
            elapsed = time.monotonic() - started
            if elapsed > seconds:
                result["slow"] = "open-after %d" % elapsed
                return
            try:
                sock.send(request[index:index + 1])
                # A closed connection shows as EOF (or a reset) on read.
                if not sock.recv(65536):
                    break
            except socket.timeout:
                continue
            except OSError:
                break
            # An answer (408, 400) also ends the attempt.
            break
        result["slow"] = "closed-after %d" % (time.monotonic() - started)

    thread = threading.Thread(target=slow)
    thread.start()
    time.sleep(2)
    started = time.monotonic()
    try:
        sock = proxy_socket(port)
        sock.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" %
                      (url, url.split("/")[2])).encode())
        answer, _ = read_answer(sock, 10)
        status_line = answer.split(b"\r\n")[0].decode("latin-1").split(" ")
        out("normal", "status %s elapsed-ms %d" % (status_line[1] if len(status_line) > 1 else "none",
                                                     (time.monotonic() - started) * 1000))
    except OSError as error:
        out("normal", "failed %s" % errno_name(error))
    thread.join()
    out("slow", result.get("slow", "unknown"))
    return 0


def action_idle(port, count, url):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = int(count) + 64
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
        except (ValueError, OSError):
            pass
    held = []
    failure = ""
    for _ in range(int(count)):
        try:
            held.append(proxy_socket(port, timeout=5))
        except OSError as error:
            failure = errno_name(error)
            break
    out("opened", "%d%s" % (len(held), (" then " + failure) if failure else ""))
    started = time.monotonic()
    try:
        sock = proxy_socket(port)
        sock.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" %
                      (url, url.split("/")[2])).encode())
        answer, _ = read_answer(sock, 20)
        out("elapsed-ms", int((time.monotonic() - started) * 1000))
        status = report_answer(answer)
    except OSError as error:
        out("failed", errno_name(error))
        status = None
    # Were the idle ones kept or dropped? Either is fine; say which.
    alive = 0
    for sock in held:
        sock.setblocking(False)
        try:
            alive += 1 if sock.recv(1) else 0
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
    out("idle-still-open", alive)
    return 0 if status == 200 else 1


ACTIONS = {
    "direct": action_direct,
    "tcp": action_tcp,
    "udp": action_udp,
    "http": action_http,
    "connect": action_connect,
    "tls": action_tls,
    "socks5": action_socks5,
    "slowloris": action_slowloris,
    "idle": action_idle,
}


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ACTIONS:
        sys.stderr.write(__doc__)
        return 2
    try:
        return ACTIONS[sys.argv[1]](*sys.argv[2:])
    except TypeError as error:
        sys.stderr.write("usage: %s\n" % error)
        return 2


if __name__ == "__main__":
    sys.exit(main())
