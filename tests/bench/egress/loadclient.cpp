// SPDX-License-Identifier: Apache-2.0
// loadclient: the client side of the egress benchmarks. Blocking sockets,
// steady_clock timing, one JSON object on standard output at the end.
//
//   loadclient MODE --target HOST:PORT [--via direct|http|connect|socks5] [--proxy HOST:PORT] [options]
//
// --via says how a request reaches the target:
//   direct   a TCP connection to the target, origin-form requests
//   http     a connection to an HTTP proxy, absolute-form requests
//            (GET http://HOST:PORT/small), kept alive while the proxy keeps it
//   connect  a connection to an HTTP proxy, CONNECT HOST:PORT, then
//            origin-form requests inside the tunnel
//   socks5   a connection to a SOCKS5 proxy (no authentication), CONNECT to
//            the target's IPv4 address, then origin-form requests
//
// Modes:
//   throughput --bytes N         one connection, GET /bytes/N, read and count
//                                every byte; seconds from connect to last byte
//   latency --requests N [--warmup N] [--fresh]
//                                N sequential GET /small, each timed; on one
//                                kept-alive connection, reopened (and the
//                                reopening timed as part of the next request)
//                                only when the far side closes it; --fresh
//                                opens a connection (and tunnel) per request
//   rps --clients N --seconds S [--warmup-seconds S]
//                                N threads, each with its own connection,
//                                GET /small back to back; completed requests
//                                per second over S seconds after the warm-up
//   idle --tunnels N [--hold S] [--pause S]
//                                prints "BASE" and waits --pause seconds, opens
//                                N tunnels (--via connect or socks5) and prints
//                                "OPENED N", sends one GET /small through every
//                                tunnel and prints "USED N", holds them idle
//                                --hold seconds, closes them
// Every socket has 30 s send and receive timeouts; --timeout S (default 600)
// ends the whole run with status 3.
//
// Build: g++ -O2 -std=c++20 -pthread -o loadclient loadclient.cpp

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
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The far side closed a connection, or reset it, before the end of a message.
struct ClosedEarly : Failure {
    using Failure::Failure;
};

// A kept-alive connection ended before any byte of the response to the
// request sent on it: a client retries such a request on a new connection.
struct ClosedBeforeResponse : Failure {
    using Failure::Failure;
};

[[noreturn]] void fail(const std::string& what)
{
    throw Failure(what);
}

[[noreturn]] void failErrno(const std::string& what)
{
    throw Failure(what + ": " + std::strerror(errno));
}

struct Endpoint {
    std::string host;
    uint16_t port = 0;
    sockaddr_in address{};
};

Endpoint parseEndpoint(std::string_view text)
{
    size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) fail("expected HOST:PORT, got " + std::string(text));
    Endpoint e;
    e.host = std::string(text.substr(0, colon));
    e.port = static_cast<uint16_t>(std::strtoul(std::string(text.substr(colon + 1)).c_str(), nullptr, 10));
    e.address.sin_family = AF_INET;
    e.address.sin_port = htons(e.port);
    if (inet_pton(AF_INET, e.host.c_str(), &e.address.sin_addr) != 1) fail("not an IPv4 address: " + e.host);
    return e;
}

enum class Via { Direct, Http, Connect, Socks5 };

// What a response's head says about the rest of the message.
struct Head {
    bool keepAlive = false;
    bool chunked = false;
    int64_t length = -1;  // Content-Length, -1 when absent
};

std::string lowered(std::string_view text)
{
    std::string out(text);
    for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return out;
}

// head: the status line and headers, "\r\n\r\n" included. Fails unless 200.
Head parseHead(std::string_view head)
{
    if (head.size() < 12 || head.substr(0, 5) != "HTTP/") fail("not an HTTP response");
    if (head.substr(9, 3) != "200") fail("HTTP status " + std::string(head.substr(9, head.find('\r') - 9)));
    Head h;
    h.keepAlive = head.substr(0, 8) == "HTTP/1.1";
    for (size_t pos = head.find("\r\n") + 2; pos < head.size();) {
        size_t next = head.find("\r\n", pos);
        std::string_view line = head.substr(pos, next - pos);
        size_t colon = std::min(line.size(), line.find(':'));
        std::string name = lowered(line.substr(0, colon));
        std::string value = lowered(line.substr(std::min(line.size(), colon + 1)));
        if (name == "content-length") {
            h.length = std::strtoll(value.c_str(), nullptr, 10);
        } else if (name == "transfer-encoding" && value.find("chunked") != std::string::npos) {
            h.chunked = true;
        } else if (name == "connection" || name == "proxy-connection") {
            if (value.find("close") != std::string::npos) h.keepAlive = false;
            if (value.find("keep-alive") != std::string::npos) h.keepAlive = true;
        }
        pos = next + 2;
    }
    return h;
}

// For responses held whole in memory: the length of the complete response at
// the start of data, or 0 while it is incomplete. A response without a length
// is not supported here.
size_t completeResponse(std::string_view data, Head& h, uint64_t& body)
{
    size_t headEnd = data.find("\r\n\r\n");
    if (headEnd == std::string_view::npos) {
        if (data.size() > 64 * 1024) fail("response head too long");
        return 0;
    }
    h = parseHead(data.substr(0, headEnd + 4));
    size_t pos = headEnd + 4;
    if (h.chunked) {
        body = 0;
        for (;;) {
            size_t lineEnd = data.find("\r\n", pos);
            if (lineEnd == std::string_view::npos) return 0;
            uint64_t size = std::strtoull(std::string(data.substr(pos, lineEnd - pos)).c_str(), nullptr, 16);
            pos = lineEnd + 2;
            if (size == 0) {
                size_t end = data.find("\r\n\r\n", pos - 2);  // after any trailers
                return end == std::string_view::npos ? 0 : end + 4;
            }
            if (data.size() < pos + size + 2) return 0;
            pos += size + 2;
            body += size;
        }
    }
    if (h.length < 0) fail("a response without Content-Length or chunked encoding");
    if (data.size() < pos + static_cast<uint64_t>(h.length)) return 0;
    body = static_cast<uint64_t>(h.length);
    return pos + body;
}

struct Options {
    std::string mode;
    Endpoint target;
    Endpoint proxy;
    Via via = Via::Direct;
    uint64_t bytes = 1ull << 30;
    long requests = 10000;
    long warmup = 500;
    bool fresh = false;
    int clients = 64;
    double seconds = 10;
    double warmupSeconds = 1;
    long tunnels = 5000;
    double hold = 5;
    double pause = 1;
};

class Connection {
public:
    explicit Connection(size_t bufferBytes = 256 * 1024) : buffer_(bufferBytes) {}
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    ~Connection() { close(); }

    bool open() const { return fd_ >= 0; }
    void close()
    {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
        start_ = end_ = 0;
    }

    // Connects, and sets up the proxy's tunnel when there is one.
    void connect(const Options& o)
    {
        close();
        fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd_ < 0) failErrno("socket");
        timeval timeout{30, 0};
        setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
        int one = 1;
        setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        const Endpoint& to = o.via == Via::Direct ? o.target : o.proxy;
        if (::connect(fd_, reinterpret_cast<const sockaddr*>(&to.address), sizeof to.address) < 0) {
            failErrno("connect to " + to.host + ":" + std::to_string(to.port));
        }
        if (o.via == Via::Connect) {
            std::string authority = o.target.host + ":" + std::to_string(o.target.port);
            sendAll("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n");
            size_t headEnd = readHead();
            std::string_view head(buffer_.data() + start_, headEnd);
            if (head.size() < 12 || head.substr(9, 3) != "200") {
                fail("CONNECT refused: " + std::string(head.substr(0, head.find('\r'))));
            }
            start_ += headEnd;
        } else if (o.via == Via::Socks5) {
            sendAll(std::string("\x05\x01\x00", 3));
            readAtLeast(2);
            if (buffer_[start_] != 5 || buffer_[start_ + 1] != 0) fail("SOCKS5 greeting refused");
            start_ += 2;
            std::string request("\x05\x01\x00\x01", 4);
            request.append(reinterpret_cast<const char*>(&o.target.address.sin_addr), 4);
            request.append(reinterpret_cast<const char*>(&o.target.address.sin_port), 2);
            sendAll(request);
            readAtLeast(4);
            if (buffer_[start_] != 5 || buffer_[start_ + 1] != 0) {
                fail("SOCKS5 CONNECT refused, reply " + std::to_string(static_cast<unsigned char>(buffer_[start_ + 1])));
            }
            unsigned char type = buffer_[start_ + 3];
            size_t length = type == 1 ? 10 : type == 4 ? 22 : 0;
            if (type == 3) {
                readAtLeast(5);
                length = 7 + static_cast<unsigned char>(buffer_[start_ + 4]);
            }
            if (length == 0) fail("SOCKS5 reply with address type " + std::to_string(type));
            readAtLeast(length);
            start_ += length;
        }
        if (start_ != end_) fail("unexpected bytes after the proxy's handshake");
    }

    void sendAll(std::string_view data)
    {
        while (!data.empty()) {
            ssize_t n = send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EINTR) continue;
                if (errno == EPIPE || errno == ECONNRESET) throw ClosedBeforeResponse("connection closed before the request");
                failErrno("send");
            }
            data.remove_prefix(n);
        }
    }

    // Reads one response; counts its body without keeping it. Returns the
    // body's size; sets closed when the far side ends the connection after it.
    uint64_t readResponse(bool& closed)
    {
        size_t headEnd = 0;
        try {
            headEnd = readHead();
        } catch (const ClosedEarly& e) {
            if (start_ == end_) throw ClosedBeforeResponse(e.what());
            throw;
        }
        Head h = parseHead(std::string_view(buffer_.data() + start_, headEnd));
        bool keepAlive = h.keepAlive, chunked = h.chunked;
        int64_t length = h.length;
        start_ += headEnd;
        uint64_t body = 0;
        if (chunked) {
            for (;;) {
                size_t lineEnd = readLine();
                uint64_t size = std::strtoull(std::string(buffer_.data() + start_, lineEnd).c_str(), nullptr, 16);
                start_ += lineEnd;
                if (size == 0) {
                    for (size_t n; (n = readLine()) != 2;) start_ += n;  // trailers
                    start_ += 2;
                    break;
                }
                skip(size);
                body += size;
                readAtLeast(2);
                start_ += 2;
            }
        } else if (length >= 0) {
            skip(static_cast<uint64_t>(length));
            body = static_cast<uint64_t>(length);
        } else {
            body = skipToEnd();
            keepAlive = false;
        }
        if (start_ != end_) fail("bytes after the response");
        closed = !keepAlive;
        if (closed) close();
        return body;
    }

private:
    // Fills the buffer up to at least n unread bytes.
    void readAtLeast(size_t n)
    {
        if (start_ > 0 && start_ == end_) start_ = end_ = 0;
        if (start_ + n > buffer_.size()) {
            std::memmove(buffer_.data(), buffer_.data() + start_, end_ - start_);
            end_ -= start_;
            start_ = 0;
        }
        while (end_ - start_ < n) {
            ssize_t got = recv(fd_, buffer_.data() + end_, buffer_.size() - end_, 0);
            if (got < 0) {
                if (errno == EINTR) continue;
                if (errno == ECONNRESET) throw ClosedEarly("connection reset early");
                failErrno("recv");
            }
            if (got == 0) throw ClosedEarly("connection closed early");
            end_ += got;
        }
    }

    // Length of the head at start_, "\r\n\r\n" included.
    size_t readHead()
    {
        for (size_t searched = 0;;) {
            std::string_view data(buffer_.data() + start_, end_ - start_);
            size_t at = data.find("\r\n\r\n", searched > 3 ? searched - 3 : 0);
            if (at != std::string_view::npos) return at + 4;
            if (data.size() > 64 * 1024) fail("response head too long");
            searched = data.size();
            readAtLeast(data.size() + 1);
        }
    }

    size_t readLine()
    {
        for (;;) {
            std::string_view data(buffer_.data() + start_, end_ - start_);
            size_t at = data.find("\r\n");
            if (at != std::string_view::npos) return at + 2;
            readAtLeast(data.size() + 1);
        }
    }

    void skip(uint64_t n)
    {
        for (;;) {
            uint64_t have = end_ - start_;
            if (have >= n) {
                start_ += n;
                return;
            }
            n -= have;
            start_ = end_ = 0;
            ssize_t got = recv(fd_, buffer_.data(), std::min<uint64_t>(n, buffer_.size()), 0);
            if (got < 0) {
                if (errno == EINTR) continue;
                failErrno("recv");
            }
            if (got == 0) fail("connection closed " + std::to_string(n) + " bytes before the end of the body");
            end_ = got;
        }
    }

    uint64_t skipToEnd()
    {
        uint64_t total = end_ - start_;
        start_ = end_ = 0;
        for (;;) {
            ssize_t got = recv(fd_, buffer_.data(), buffer_.size(), 0);
            if (got < 0) {
                if (errno == EINTR) continue;
                failErrno("recv");
            }
            if (got == 0) return total;
            total += got;
        }
    }

    int fd_ = -1;
    std::vector<char> buffer_;
    size_t start_ = 0;
    size_t end_ = 0;
};

std::string requestFor(const Options& o, std::string_view path)
{
    std::string authority = o.target.host + ":" + std::to_string(o.target.port);
    std::string target = o.via == Via::Http ? "http://" + authority + std::string(path) : std::string(path);
    return "GET " + target + " HTTP/1.1\r\nHost: " + authority + "\r\nUser-Agent: moat-egress-bench\r\n\r\n";
}

// One request on c, connecting first when c is closed. Returns whether the
// connection had to be (re)opened.
bool oneRequest(Connection& c, const Options& o, const std::string& request, uint64_t expect)
{
    bool reopened = false;
    for (int attempt = 0;; ++attempt) {
        bool fresh = !c.open();
        if (fresh) {
            c.connect(o);
            reopened = true;
        }
        try {
            c.sendAll(request);
            bool closed = false;
            uint64_t body = c.readResponse(closed);
            if (body != expect) fail("body of " + std::to_string(body) + " bytes, expected " + std::to_string(expect));
            return reopened;
        } catch (const ClosedBeforeResponse&) {
            if (fresh || attempt > 0) throw;
            c.close();  // retried once on a new connection, timed with the request
        }
    }
}

double percentile(std::vector<double>& sorted, double p)
{
    if (sorted.empty()) return 0;
    double rank = p / 100.0 * (sorted.size() - 1);
    size_t low = static_cast<size_t>(std::floor(rank));
    size_t high = std::min(sorted.size() - 1, low + 1);
    return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}

std::string latencyJson(std::vector<double>& us)
{
    std::sort(us.begin(), us.end());
    double sum = 0;
    for (double v : us) sum += v;
    char text[512];
    std::snprintf(text, sizeof text,
                  "\"count\":%zu,\"min_us\":%.2f,\"p50_us\":%.2f,\"p90_us\":%.2f,\"p99_us\":%.2f,\"p999_us\":%.2f,"
                  "\"max_us\":%.2f,\"mean_us\":%.2f",
                  us.size(), us.empty() ? 0 : us.front(), percentile(us, 50), percentile(us, 90), percentile(us, 99),
                  percentile(us, 99.9), us.empty() ? 0 : us.back(), us.empty() ? 0 : sum / us.size());
    return text;
}

int runThroughput(const Options& o)
{
    Connection c;
    std::string request = requestFor(o, "/bytes/" + std::to_string(o.bytes));
    auto start = Clock::now();
    c.connect(o);
    double setup = secondsSince(start);
    c.sendAll(request);
    bool closed = false;
    uint64_t body = c.readResponse(closed);
    double seconds = secondsSince(start);
    if (body != o.bytes) fail("got " + std::to_string(body) + " bytes, expected " + std::to_string(o.bytes));
    std::printf("{\"mode\":\"throughput\",\"bytes\":%llu,\"seconds\":%.6f,\"setup_ms\":%.3f,\"mib_s\":%.1f}\n",
                static_cast<unsigned long long>(body), seconds, setup * 1000, body / seconds / (1 << 20));
    return 0;
}

int runLatency(const Options& o)
{
    Connection c;
    std::string request = requestFor(o, "/small");
    std::vector<double> us;
    us.reserve(o.requests);
    long reopened = 0;
    for (long i = 0; i < o.warmup + o.requests; ++i) {
        if (o.fresh) c.close();
        auto start = Clock::now();
        bool opened = oneRequest(c, o, request, 100);
        double elapsed = secondsSince(start) * 1e6;
        if (i >= o.warmup) {
            us.push_back(elapsed);
            reopened += opened;
        }
    }
    std::printf("{\"mode\":\"latency\",\"fresh\":%s,\"connections\":%ld,%s}\n", o.fresh ? "true" : "false", reopened,
                latencyJson(us).c_str());
    return 0;
}

// One of the rps clients: a non-blocking connection driven by the epoll loop
// in runRps, going through the same steps as Connection::connect and
// oneRequest (a request is timed from the start of any connection it needs,
// and retried once when a kept-alive connection ends before its response).
struct AsyncClient {
    enum class State { Connecting, AwaitConnectReply, AwaitSocksGreeting, AwaitSocksReply, AwaitResponse };
    int fd = -1;
    State state = State::Connecting;
    std::string in;
    Clock::time_point started;
    bool retried = false;
    bool reused = false;  // a response already came on this connection
    bool opened = false;  // this request opened a connection
};

void sendSmall(int fd, std::string_view data)
{
    ssize_t n = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0 && (errno == EPIPE || errno == ECONNRESET)) throw ClosedBeforeResponse("connection closed before the request");
    if (n != static_cast<ssize_t>(data.size())) failErrno("send");
}

int runRps(const Options& o)
{
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0) failErrno("epoll_create1");
    std::vector<AsyncClient> clients(o.clients);
    std::string request = requestFor(o, "/small");
    std::string authority = o.target.host + ":" + std::to_string(o.target.port);
    std::string connectRequest = "CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n";
    std::string socksRequest("\x05\x01\x00\x01", 4);
    socksRequest.append(reinterpret_cast<const char*>(&o.target.address.sin_addr), 4);
    socksRequest.append(reinterpret_cast<const char*>(&o.target.address.sin_port), 2);
    const Endpoint& to = o.via == Via::Direct ? o.target : o.proxy;

    auto watch = [&](AsyncClient& c, uint32_t events, int op) {
        epoll_event event{};
        event.events = events;
        event.data.ptr = &c;
        if (epoll_ctl(ep, op, c.fd, &event) < 0) failErrno("epoll_ctl");
    };
    auto open = [&](AsyncClient& c) {
        if (c.fd >= 0) close(c.fd);
        c.fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (c.fd < 0) failErrno("socket");
        int one = 1;
        setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (connect(c.fd, reinterpret_cast<const sockaddr*>(&to.address), sizeof to.address) < 0 && errno != EINPROGRESS) {
            failErrno("connect to " + to.host + ":" + std::to_string(to.port));
        }
        c.state = AsyncClient::State::Connecting;
        c.in.clear();
        c.reused = false;
        c.opened = true;
        watch(c, EPOLLOUT, EPOLL_CTL_ADD);
    };
    auto startRequest = [&](AsyncClient& c) {
        c.started = Clock::now();
        c.retried = false;
        c.opened = false;
        if (c.fd < 0) {
            open(c);
            return;
        }
        sendSmall(c.fd, request);
        c.state = AsyncClient::State::AwaitResponse;
    };

    long requests = 0, connections = 0;
    int phase = 0;  // 0 warm-up, 1 measuring
    std::vector<double> us;
    us.reserve(1 << 20);
    auto begin = Clock::now();
    Clock::time_point measureStart;
    Clock::time_point lastProgress = begin;
    for (auto& c : clients) startRequest(c);
    std::vector<epoll_event> events(o.clients);
    char chunk[65536];
    for (;;) {
        auto now = Clock::now();
        if (phase == 0 && now - begin >= std::chrono::duration<double>(o.warmupSeconds)) {
            phase = 1;
            measureStart = now;
        }
        if (phase == 1 && now - measureStart >= std::chrono::duration<double>(o.seconds)) break;
        if (now - lastProgress > std::chrono::seconds(30)) fail("no response for 30 s");
        int ready = epoll_wait(ep, events.data(), static_cast<int>(events.size()), 50);
        if (ready < 0) {
            if (errno == EINTR) continue;
            failErrno("epoll_wait");
        }
        for (int i = 0; i < ready; ++i) {
            AsyncClient& c = *static_cast<AsyncClient*>(events[i].data.ptr);
            try {
                if (c.state == AsyncClient::State::Connecting) {
                    int error = 0;
                    socklen_t length = sizeof error;
                    getsockopt(c.fd, SOL_SOCKET, SO_ERROR, &error, &length);
                    if (error != 0) {
                        errno = error;
                        failErrno("connect to " + to.host + ":" + std::to_string(to.port));
                    }
                    watch(c, EPOLLIN, EPOLL_CTL_MOD);
                    if (o.via == Via::Connect) {
                        sendSmall(c.fd, connectRequest);
                        c.state = AsyncClient::State::AwaitConnectReply;
                    } else if (o.via == Via::Socks5) {
                        sendSmall(c.fd, std::string_view("\x05\x01\x00", 3));
                        c.state = AsyncClient::State::AwaitSocksGreeting;
                    } else {
                        sendSmall(c.fd, request);
                        c.state = AsyncClient::State::AwaitResponse;
                    }
                    continue;
                }
                ssize_t n = recv(c.fd, chunk, sizeof chunk, 0);
                if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
                if (n <= 0) {
                    if (n < 0 && errno != ECONNRESET) failErrno("recv");
                    if (c.state == AsyncClient::State::AwaitResponse && c.in.empty() && c.reused && !c.retried) {
                        open(c);  // retried on a new connection, still timed from the first try
                        c.retried = true;
                        continue;
                    }
                    fail("connection closed early");
                }
                c.in.append(chunk, n);
                if (c.state == AsyncClient::State::AwaitConnectReply) {
                    size_t end = c.in.find("\r\n\r\n");
                    if (end == std::string::npos) continue;
                    if (c.in.size() < 12 || c.in.compare(9, 3, "200") != 0) fail("CONNECT refused: " + c.in.substr(0, c.in.find('\r')));
                    c.in.erase(0, end + 4);
                    sendSmall(c.fd, request);
                    c.state = AsyncClient::State::AwaitResponse;
                } else if (c.state == AsyncClient::State::AwaitSocksGreeting) {
                    if (c.in.size() < 2) continue;
                    if (c.in[0] != 5 || c.in[1] != 0) fail("SOCKS5 greeting refused");
                    c.in.erase(0, 2);
                    sendSmall(c.fd, socksRequest);
                    c.state = AsyncClient::State::AwaitSocksReply;
                } else if (c.state == AsyncClient::State::AwaitSocksReply) {
                    if (c.in.size() < 10) continue;
                    if (c.in[0] != 5 || c.in[1] != 0 || c.in[3] != 1) fail("SOCKS5 CONNECT refused or not IPv4");
                    c.in.erase(0, 10);
                    sendSmall(c.fd, request);
                    c.state = AsyncClient::State::AwaitResponse;
                } else {
                    Head h;
                    uint64_t body = 0;
                    size_t used = completeResponse(c.in, h, body);
                    if (used == 0) continue;
                    if (used != c.in.size()) fail("bytes after the response");
                    if (body != 100) fail("body of " + std::to_string(body) + " bytes, expected 100");
                    auto done = Clock::now();
                    lastProgress = done;
                    if (phase == 1) {
                        requests++;
                        connections += c.opened;
                        us.push_back(std::chrono::duration<double>(done - c.started).count() * 1e6);
                    }
                    c.in.clear();
                    c.reused = true;
                    if (!h.keepAlive) {
                        close(c.fd);
                        c.fd = -1;
                    }
                    startRequest(c);
                }
            } catch (const ClosedBeforeResponse&) {
                if (c.reused && !c.retried) {
                    open(c);
                    c.retried = true;
                } else {
                    throw;
                }
            }
        }
    }
    double seconds = secondsSince(measureStart);
    for (auto& c : clients) {
        if (c.fd >= 0) close(c.fd);
    }
    close(ep);
    std::printf("{\"mode\":\"rps\",\"clients\":%d,\"seconds\":%.3f,\"requests\":%ld,\"rps\":%.1f,\"connections\":%ld,%s}\n",
                o.clients, seconds, requests, requests / seconds, connections, latencyJson(us).c_str());
    return 0;
}

int runIdle(const Options& o)
{
    if (o.via != Via::Connect && o.via != Via::Socks5) fail("idle needs --via connect or --via socks5");
    std::printf("BASE\n");
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::duration<double>(o.pause));
    // Small buffers: the client's own memory stays out of the machine's figure.
    std::vector<std::unique_ptr<Connection>> tunnels;
    for (long i = 0; i < o.tunnels; ++i) tunnels.push_back(std::make_unique<Connection>(4096));
    auto start = Clock::now();
    for (auto& tunnel : tunnels) tunnel->connect(o);
    double openSeconds = secondsSince(start);
    std::printf("OPENED %ld\n", o.tunnels);
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::duration<double>(o.pause));
    std::string request = requestFor(o, "/small");
    for (auto& tunnel : tunnels) {
        tunnel->sendAll(request);
        bool closed = false;
        if (tunnel->readResponse(closed) != 100 || closed) fail("a tunnel did not answer, or closed");
    }
    std::printf("USED %ld\n", o.tunnels);
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::duration<double>(o.hold));
    auto closeStart = Clock::now();
    tunnels.clear();
    std::printf("{\"mode\":\"idle\",\"tunnels\":%ld,\"open_seconds\":%.3f,\"close_seconds\":%.3f}\n", o.tunnels,
                openSeconds, secondsSince(closeStart));
    return 0;
}

Via parseVia(std::string_view text)
{
    if (text == "direct") return Via::Direct;
    if (text == "http") return Via::Http;
    if (text == "connect") return Via::Connect;
    if (text == "socks5") return Via::Socks5;
    fail("--via is direct, http, connect or socks5, not " + std::string(text));
}

}  // namespace

int main(int argc, char** argv)
{
    try {
        if (argc < 2) fail("usage: loadclient throughput|latency|rps|idle --target HOST:PORT [--via ...] [--proxy HOST:PORT]");
        Options o;
        o.mode = argv[1];
        double timeout = 600;
        bool haveTarget = false, haveProxy = false;
        for (int i = 2; i < argc; ++i) {
            std::string_view arg = argv[i];
            auto value = [&]() -> std::string {
                if (i + 1 >= argc) fail(std::string(arg) + " needs a value");
                return argv[++i];
            };
            if (arg == "--target") {
                o.target = parseEndpoint(value());
                haveTarget = true;
            } else if (arg == "--proxy") {
                o.proxy = parseEndpoint(value());
                haveProxy = true;
            } else if (arg == "--via") {
                o.via = parseVia(value());
            } else if (arg == "--bytes") {
                o.bytes = std::strtoull(value().c_str(), nullptr, 10);
            } else if (arg == "--requests") {
                o.requests = std::strtol(value().c_str(), nullptr, 10);
            } else if (arg == "--warmup") {
                o.warmup = std::strtol(value().c_str(), nullptr, 10);
            } else if (arg == "--fresh") {
                o.fresh = true;
            } else if (arg == "--clients") {
                o.clients = std::max(1l, std::strtol(value().c_str(), nullptr, 10));
            } else if (arg == "--seconds") {
                o.seconds = std::strtod(value().c_str(), nullptr);
            } else if (arg == "--warmup-seconds") {
                o.warmupSeconds = std::strtod(value().c_str(), nullptr);
            } else if (arg == "--tunnels") {
                o.tunnels = std::strtol(value().c_str(), nullptr, 10);
            } else if (arg == "--hold") {
                o.hold = std::strtod(value().c_str(), nullptr);
            } else if (arg == "--pause") {
                o.pause = std::strtod(value().c_str(), nullptr);
            } else if (arg == "--timeout") {
                timeout = std::strtod(value().c_str(), nullptr);
            } else {
                fail("unknown option " + std::string(arg));
            }
        }
        if (!haveTarget) fail("--target HOST:PORT is required");
        if (o.via != Via::Direct && !haveProxy) fail("--proxy HOST:PORT is required with --via");
        signal(SIGPIPE, SIG_IGN);
        signal(SIGALRM, [](int) {
            static const char message[] = "loadclient: timed out\n";
            ssize_t ignored = write(2, message, sizeof message - 1);
            (void)ignored;
            _exit(3);
        });
        alarm(static_cast<unsigned>(std::ceil(timeout)));
        rlimit limit{};
        if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
            limit.rlim_cur = limit.rlim_max;
            setrlimit(RLIMIT_NOFILE, &limit);
        }
        if (o.mode == "idle" && getrlimit(RLIMIT_NOFILE, &limit) == 0 &&
            limit.rlim_cur < static_cast<rlim_t>(o.tunnels) + 64) {
            fail("idle needs " + std::to_string(o.tunnels + 64) + " file descriptors, the limit is " +
                 std::to_string(limit.rlim_cur) + " (raise ulimit -n)");
        }
        if (o.mode == "throughput") return runThroughput(o);
        if (o.mode == "latency") return runLatency(o);
        if (o.mode == "rps") return runRps(o);
        if (o.mode == "idle") return runIdle(o);
        fail("unknown mode " + o.mode);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "loadclient: %s\n", e.what());
        return 1;
    }
}
