// SPDX-License-Identifier: Apache-2.0
#include "probe/proxy_checks.h"

#include "probe/network_checks.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <netinet/in.h>
#include <poll.h>
#include <sstream>
#include <sys/socket.h>
#include <unistd.h>

namespace moat::probe {

namespace {

constexpr int kAnswerTimeoutMs = 2000;

std::string proxyVariable()
{
    for (const char* name : {"HTTPS_PROXY", "https_proxy"}) {
        if (const char* value = std::getenv(name); value && *value) {
            return value;
        }
    }
    return {};
}

class Socket {
public:
    explicit Socket(int fd) : fd_(fd) {}
    ~Socket()
    {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

bool connectLoopback(int fd, uint16_t port)
{
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
}

// Reads until the first line ends, the peer closes, or the deadline.
std::string firstLine(int fd)
{
    std::string text;
    char buffer[512];
    while (text.find('\n') == std::string::npos && text.size() < 4096) {
        pollfd wait{fd, POLLIN, 0};
        if (::poll(&wait, 1, kAnswerTimeoutMs) <= 0) {
            break;
        }
        const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
        if (got <= 0) {
            break;
        }
        text.append(buffer, static_cast<size_t>(got));
    }
    const auto end = text.find_first_of("\r\n");
    return text.substr(0, end);
}

std::string printable(const std::string& text)
{
    std::string out;
    for (unsigned char c : text) {
        out.push_back(c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?');
    }
    return out;
}

}  // namespace

uint16_t loopbackProxyPort(const std::string& proxyUrl)
{
    const std::string prefix = "http://127.0.0.1:";
    if (proxyUrl.rfind(prefix, 0) != 0) {
        return 0;
    }
    std::string port = proxyUrl.substr(prefix.size());
    if (!port.empty() && port.back() == '/') {
        port.pop_back();
    }
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos) {
        return 0;
    }
    const unsigned long value = std::stoul(port);
    return value > 0 && value <= 65535 ? static_cast<uint16_t>(value) : 0;
}

Check proxyRefuses(const std::string& name, const std::string& host, uint16_t port)
{
    const std::string target = host + ":" + std::to_string(port);
    const std::string proxy = proxyVariable();
    const uint16_t proxyPort = loopbackProxyPort(proxy);
    if (proxyPort == 0) {
        return {name, false,
                "not asked: no proxy on this sandbox's loopback (HTTPS_PROXY is " +
                    (proxy.empty() ? std::string("unset") : printable(proxy)) + ")",
                kNotAsked};
    }
    Socket socket(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (socket.get() < 0 || !connectLoopback(socket.get(), proxyPort)) {
        return {name, false, "the proxy at 127.0.0.1:" + std::to_string(proxyPort) + " does not answer: " +
                                 std::strerror(errno)};
    }
    const std::string request = "CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n\r\n";
    if (::send(socket.get(), request.data(), request.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(request.size())) {
        return {name, false, std::string("cannot write to the proxy: ") + std::strerror(errno)};
    }
    // Whatever the answer, the tunnel (if any) is closed unused.
    const std::string status = printable(firstLine(socket.get()));
    const bool refused = status.rfind("HTTP/1.1 403", 0) == 0 || status.rfind("HTTP/1.0 403", 0) == 0;
    return {name, refused,
            "CONNECT " + target + " via 127.0.0.1:" + std::to_string(proxyPort) + ": " +
                (status.empty() ? std::string("no answer") : status)};
}

Check dnsStubRefuses()
{
    if (loopbackProxyPort(proxyVariable()) == 0) {
        return {"dns_stub_refuses", false, "not asked: no moat proxy here, so the nameserver may forward off the machine",
                kNotAsked};
    }
    std::ifstream file("/etc/resolv.conf");
    std::stringstream text;
    text << file.rdbuf();
    const auto servers = nameservers(text.str());
    if (servers.empty() || servers.front() != "127.0.0.1") {
        return {"dns_stub_refuses", false,
                "not asked: the first nameserver is " + (servers.empty() ? std::string("absent") : servers.front()) +
                    ", not moat's stub on 127.0.0.1",
                kNotAsked};
    }
    // A standard query, id 0x6d74, recursion desired, one question: example.com A IN.
    static const unsigned char query[] = {0x6d, 0x74, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                          7,    'e',  'x',  'a',  'm',  'p',  'l',  'e',  3,    'c',  'o',  'm',
                                          0,    0x00, 0x01, 0x00, 0x01};
    Socket socket(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (socket.get() < 0 || !connectLoopback(socket.get(), 53) ||
        ::send(socket.get(), query, sizeof query, 0) != static_cast<ssize_t>(sizeof query)) {
        return {"dns_stub_refuses", false, std::string("cannot ask 127.0.0.1:53: ") + std::strerror(errno)};
    }
    pollfd wait{socket.get(), POLLIN, 0};
    unsigned char answer[512];
    ssize_t got = -1;
    if (::poll(&wait, 1, kAnswerTimeoutMs) > 0) {
        got = ::recv(socket.get(), answer, sizeof answer, 0);
    }
    if (got < 4 || answer[0] != 0x6d || answer[1] != 0x74 || (answer[2] & 0x80) == 0) {
        return {"dns_stub_refuses", false, "127.0.0.1:53 gave no answer to a query for example.com"};
    }
    const int rcode = answer[3] & 0x0f;
    const int answers = got >= 8 ? (answer[6] << 8 | answer[7]) : 0;
    const bool ok = rcode == 3 && answers == 0;
    return {"dns_stub_refuses", ok,
            "example.com A via 127.0.0.1:53: " + std::string(rcode == 3 ? "NXDOMAIN" : "rcode " + std::to_string(rcode)) +
                ", " + std::to_string(answers) + " answers"};
}

}  // namespace moat::probe
