// SPDX-License-Identifier: Apache-2.0
#include "api_post.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "base/unique_fd.h"

namespace moat::cli {

namespace {

constexpr std::size_t kMaxAnswer = 1024 * 1024;

struct Endpoint {
    sockaddr_storage address{};
    socklen_t length = 0;
    std::string authority;
    std::string prefix;
};

Result<Endpoint> parseBase(const std::string& url)
{
    const std::string scheme = "http://";
    const auto bad = [&url](const std::string& why) {
        return Error{"MOAT_API='" + url.substr(0, 200) + "' is not a URL moat request can use: " + why, EINVAL,
                     "It is set by moat inside a sandbox as http://127.0.0.1:PORT"};
    };
    if (url.compare(0, scheme.size(), scheme) != 0) {
        return bad("it does not start with http://");
    }
    const std::string rest = url.substr(scheme.size());
    const auto slash = rest.find('/');
    Endpoint endpoint;
    endpoint.authority = rest.substr(0, slash);
    endpoint.prefix = slash == std::string::npos ? "" : rest.substr(slash);
    while (!endpoint.prefix.empty() && endpoint.prefix.back() == '/') {
        endpoint.prefix.pop_back();
    }
    std::string host;
    std::string port;
    if (!endpoint.authority.empty() && endpoint.authority.front() == '[') {
        const auto close = endpoint.authority.find(']');
        if (close == std::string::npos || endpoint.authority.compare(close + 1, 1, ":") != 0) {
            return bad("an IPv6 address needs [ADDRESS]:PORT");
        }
        host = endpoint.authority.substr(1, close - 1);
        port = endpoint.authority.substr(close + 2);
    } else {
        const auto colon = endpoint.authority.rfind(':');
        if (colon == std::string::npos) {
            return bad("it names no port");
        }
        host = endpoint.authority.substr(0, colon);
        port = endpoint.authority.substr(colon + 1);
    }
    unsigned number = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), number);
    if (ec != std::errc() || end != port.data() + port.size() || number == 0 || number > 65535) {
        return bad("the port is not a number from 1 to 65535");
    }
    if (host == "localhost") {
        host = "127.0.0.1";
    }
    auto* v4 = reinterpret_cast<sockaddr_in*>(&endpoint.address);
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&endpoint.address);
    if (::inet_pton(AF_INET, host.c_str(), &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(static_cast<uint16_t>(number));
        endpoint.length = sizeof *v4;
    } else if (::inet_pton(AF_INET6, host.c_str(), &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(static_cast<uint16_t>(number));
        endpoint.length = sizeof *v6;
    } else {
        return bad("the host is not an IP address");
    }
    return endpoint;
}

// Waits for `events` on fd until the deadline; false when it passed.
bool waitFor(int fd, short events, std::chrono::steady_clock::time_point deadline)
{
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            return false;
        }
        pollfd pfd{fd, events, 0};
        const int ready = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left.count(), 60000)));
        if (ready > 0) {
            return true;
        }
        if (ready < 0 && errno != EINTR) {
            return false;
        }
    }
}

Result<ApiAnswer> parseAnswer(const std::string& raw, const std::string& url)
{
    const auto malformed = [&url](const std::string& why) {
        return Error{"the answer of " + url + " is not HTTP moat request understands: " + why, EPROTO};
    };
    const auto headEnd = raw.find("\r\n\r\n");
    if (raw.compare(0, 9, "HTTP/1.1 ") != 0 && raw.compare(0, 9, "HTTP/1.0 ") != 0) {
        return malformed("no HTTP status line");
    }
    if (headEnd == std::string::npos || raw.size() < 12) {
        return malformed("the answer ends before its head does");
    }
    ApiAnswer answer;
    const auto [end, ec] = std::from_chars(raw.data() + 9, raw.data() + 12, answer.status);
    if (ec != std::errc() || end != raw.data() + 12) {
        return malformed("no status code");
    }
    answer.body = raw.substr(headEnd + 4);
    return answer;
}

}  // namespace

Result<ApiAnswer> postJson(const std::string& baseUrl, const std::string& path, const std::string& body,
                           std::chrono::seconds wait)
{
    auto endpoint = parseBase(baseUrl);
    if (!endpoint) {
        return endpoint.error();
    }
    const std::string url = "http://" + endpoint->authority + endpoint->prefix;
    const auto deadline = std::chrono::steady_clock::now() + wait;
    UniqueFd socket(::socket(endpoint->address.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (!socket) {
        return Error::fromErrno("cannot create a socket", errno);
    }
    if (::connect(socket.get(), reinterpret_cast<const sockaddr*>(&endpoint->address), endpoint->length) != 0) {
        if (errno != EINPROGRESS) {
            return Error::fromErrno("cannot reach moat's control endpoint at " + url, errno,
                                    "moat request works inside a sandbox started with --net proxy");
        }
        int error = 0;
        socklen_t length = sizeof error;
        if (!waitFor(socket.get(), POLLOUT, deadline) ||
            ::getsockopt(socket.get(), SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error != 0) {
            return Error::fromErrno("cannot reach moat's control endpoint at " + url, error ? error : ETIMEDOUT,
                                    "moat request works inside a sandbox started with --net proxy");
        }
    }
    const std::string request = "POST " + endpoint->prefix + path + " HTTP/1.1\r\nHost: " + endpoint->authority +
                                "\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
                                "Connection: close\r\nContent-Length: " +
                                std::to_string(body.size()) + "\r\n\r\n" + body;
    std::size_t sent = 0;
    while (sent < request.size()) {
        const ssize_t n = ::send(socket.get(), request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
        if (n > 0) {
            sent += static_cast<std::size_t>(n);
        } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            if (!waitFor(socket.get(), POLLOUT, deadline)) {
                return Error{"sending the request to " + url + " timed out", ETIMEDOUT};
            }
        } else {
            return Error::fromErrno("cannot send the request to " + url, errno);
        }
    }
    std::string raw;
    char chunk[16384];
    for (;;) {
        const ssize_t n = ::recv(socket.get(), chunk, sizeof chunk, 0);
        if (n > 0) {
            raw.append(chunk, static_cast<std::size_t>(n));
            if (raw.size() > kMaxAnswer) {
                return Error{"the answer of " + url + " is larger than 1 MiB", EMSGSIZE};
            }
        } else if (n == 0) {
            break;
        } else if (errno == EAGAIN || errno == EINTR) {
            if (!waitFor(socket.get(), POLLIN, deadline)) {
                return Error{"no answer from " + url + " within " + std::to_string(wait.count()) + " s", ETIMEDOUT};
            }
        } else {
            return Error::fromErrno("cannot read the answer of " + url, errno);
        }
    }
    return parseAnswer(raw, url);
}

}  // namespace moat::cli
