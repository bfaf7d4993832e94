// SPDX-License-Identifier: Apache-2.0
// upstream: the origin server of the egress benchmarks. HTTP/1.1 on a
// loopback port, keep-alive, one epoll loop per thread (SO_REUSEPORT).
//
//   upstream [--port N] [--threads N]
//
// Prints "PORT n" on standard output once it listens, then serves until
// SIGTERM or SIGINT. Answers
//   GET /small      200 with a 100-byte body
//   GET /bytes/N    200 with an N-byte body, written from a 1 MiB buffer
// and 404 to anything else. A request with "Connection: close" (or HTTP/1.0
// without keep-alive) gets "Connection: close" and the connection is closed
// after the response. The request target may be origin-form or absolute-form.
//
// Build: g++ -O2 -std=c++20 -pthread -o upstream upstream.cpp

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace {

constexpr size_t kChunk = 1 << 20;
constexpr size_t kSmallBody = 100;
constexpr size_t kMaxRequest = 64 * 1024;

std::atomic<bool> stopping{false};
char bigBuffer[kChunk];

[[noreturn]] void die(const char* what)
{
    std::fprintf(stderr, "upstream: %s: %s\n", what, std::strerror(errno));
    std::exit(1);
}

bool startsWithNoCase(std::string_view text, std::string_view prefix)
{
    if (text.size() < prefix.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(text[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
            return false;
    }
    return true;
}

bool containsNoCase(std::string_view text, std::string_view word)
{
    for (size_t i = 0; i + word.size() <= text.size(); ++i) {
        if (startsWithNoCase(text.substr(i), word)) return true;
    }
    return false;
}

struct Connection {
    int fd = -1;
    std::string input;     // bytes of requests not yet answered
    std::string head;      // the response's bytes still to write (head, or all of a small response)
    size_t headDone = 0;
    uint64_t bodyLeft = 0;  // large body bytes still to write after head
    bool closeAfter = false;
    bool responding = false;
};

// Builds the response to the first complete request in c.input, if any.
// Returns false when the request is malformed (the connection is dropped).
bool takeRequest(Connection& c)
{
    size_t end = c.input.find("\r\n\r\n");
    if (end == std::string::npos) return c.input.size() < kMaxRequest;
    std::string_view request(c.input.data(), end + 2);
    size_t lineEnd = request.find("\r\n");
    std::string_view line = request.substr(0, lineEnd);
    size_t sp1 = line.find(' ');
    size_t sp2 = line.rfind(' ');
    if (sp1 == std::string_view::npos || sp2 == sp1) return false;
    std::string_view method = line.substr(0, sp1);
    std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    std::string_view version = line.substr(sp2 + 1);
    if (size_t scheme = target.find("://"); scheme != std::string_view::npos) {
        size_t path = target.find('/', scheme + 3);
        target = path == std::string_view::npos ? std::string_view("/") : target.substr(path);
    }
    bool keepAlive = version == "HTTP/1.1";
    bool hasBody = false;
    for (size_t pos = lineEnd + 2; pos < request.size();) {
        size_t next = request.find("\r\n", pos);
        std::string_view header = request.substr(pos, next - pos);
        if (startsWithNoCase(header, "connection:") || startsWithNoCase(header, "proxy-connection:")) {
            if (containsNoCase(header, "close")) keepAlive = false;
            if (containsNoCase(header, "keep-alive")) keepAlive = true;
        }
        if (startsWithNoCase(header, "content-length:") || startsWithNoCase(header, "transfer-encoding:")) {
            hasBody = true;
        }
        pos = next + 2;
    }
    if (hasBody) return false;  // the benchmarks send none
    c.closeAfter = !keepAlive;
    const char* connection = keepAlive ? "" : "Connection: close\r\n";
    char head[256];
    if (method == "GET" && target == "/small") {
        int n = std::snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n%sContent-Length: %zu\r\n\r\n",
                              connection, kSmallBody);
        c.head.assign(head, n);
        c.head.append(kSmallBody, 's');
        c.bodyLeft = 0;
    } else if (method == "GET" && target.starts_with("/bytes/")) {
        uint64_t size = std::strtoull(std::string(target.substr(7)).c_str(), nullptr, 10);
        int n = std::snprintf(head, sizeof head,
                              "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n%sContent-Length: %llu\r\n\r\n",
                              connection, static_cast<unsigned long long>(size));
        c.head.assign(head, n);
        c.bodyLeft = size;
    } else {
        int n = std::snprintf(head, sizeof head, "HTTP/1.1 404 Not Found\r\n%sContent-Length: 0\r\n\r\n", connection);
        c.head.assign(head, n);
        c.bodyLeft = 0;
    }
    c.input.erase(0, end + 4);  // target and request point into it until here
    c.headDone = 0;
    c.responding = true;
    return true;
}

// Writes what it can. Returns false when the connection is to be closed.
bool pump(Connection& c)
{
    for (;;) {
        if (!c.responding) {
            if (!takeRequest(c)) return false;
            if (!c.responding) return true;  // wait for more of the request
        }
        while (c.headDone < c.head.size()) {
            ssize_t n = send(c.fd, c.head.data() + c.headDone, c.head.size() - c.headDone, MSG_NOSIGNAL);
            if (n < 0) return errno == EAGAIN || errno == EINTR;
            c.headDone += n;
        }
        while (c.bodyLeft > 0) {
            ssize_t n = send(c.fd, bigBuffer, std::min<uint64_t>(c.bodyLeft, kChunk), MSG_NOSIGNAL);
            if (n < 0) return errno == EAGAIN || errno == EINTR;
            c.bodyLeft -= n;
        }
        c.responding = false;
        if (c.closeAfter) {
            shutdown(c.fd, SHUT_WR);
            return false;
        }
    }
}

int listenOn(uint16_t port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) die("socket");
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) < 0) die("bind");
    if (listen(fd, 4096) < 0) die("listen");
    return fd;
}

uint16_t portOf(int fd)
{
    sockaddr_in address{};
    socklen_t length = sizeof address;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) < 0) die("getsockname");
    return ntohs(address.sin_port);
}

void serve(int listener)
{
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0) die("epoll_create1");
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = listener;
    if (epoll_ctl(ep, EPOLL_CTL_ADD, listener, &event) < 0) die("epoll_ctl");
    std::unordered_map<int, Connection> connections;
    std::vector<epoll_event> events(512);
    char readBuffer[16384];
    while (!stopping.load(std::memory_order_relaxed)) {
        int ready = epoll_wait(ep, events.data(), static_cast<int>(events.size()), 200);
        if (ready < 0) {
            if (errno == EINTR) continue;
            die("epoll_wait");
        }
        for (int i = 0; i < ready; ++i) {
            int fd = events[i].data.fd;
            if (fd == listener) {
                for (;;) {
                    int client = accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
                    if (client < 0) break;
                    int one = 1;
                    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    epoll_event clientEvent{};
                    clientEvent.events = EPOLLIN | EPOLLOUT | EPOLLET | EPOLLRDHUP;
                    clientEvent.data.fd = client;
                    if (epoll_ctl(ep, EPOLL_CTL_ADD, client, &clientEvent) < 0) {
                        close(client);
                        continue;
                    }
                    connections[client].fd = client;
                }
                continue;
            }
            auto found = connections.find(fd);
            if (found == connections.end()) continue;
            Connection& c = found->second;
            bool keep = true;
            if (events[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
                for (;;) {
                    ssize_t n = recv(fd, readBuffer, sizeof readBuffer, 0);
                    if (n > 0) {
                        c.input.append(readBuffer, n);
                        continue;
                    }
                    if (n == 0 || (errno != EAGAIN && errno != EINTR)) keep = false;
                    break;
                }
            }
            if (keep) keep = pump(c);
            if (!keep) {
                close(fd);
                connections.erase(found);
            }
        }
    }
    for (auto& [fd, c] : connections) close(fd);
    close(ep);
}

}  // namespace

int main(int argc, char** argv)
{
    unsigned port = 0;
    unsigned threads = 1;
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg == "--port" && i + 1 < argc) {
            port = std::strtoul(argv[++i], nullptr, 10);
        } else if (arg == "--threads" && i + 1 < argc) {
            threads = std::max(1ul, std::strtoul(argv[++i], nullptr, 10));
        } else {
            std::fprintf(stderr, "usage: upstream [--port N] [--threads N]\n");
            return 2;
        }
    }
    std::memset(bigBuffer, 'b', sizeof bigBuffer);
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
    struct sigaction action{};
    action.sa_handler = [](int) { stopping.store(true); };
    sigaction(SIGTERM, &action, nullptr);
    sigaction(SIGINT, &action, nullptr);
    signal(SIGPIPE, SIG_IGN);

    std::vector<int> listeners{listenOn(port)};
    port = portOf(listeners[0]);
    for (unsigned i = 1; i < threads; ++i) listeners.push_back(listenOn(port));
    std::printf("PORT %u\n", port);
    std::fflush(stdout);
    std::vector<std::thread> workers;
    for (size_t i = 1; i < listeners.size(); ++i) workers.emplace_back(serve, listeners[i]);
    serve(listeners[0]);
    for (auto& worker : workers) worker.join();
    return 0;
}
