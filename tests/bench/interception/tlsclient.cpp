// SPDX-License-Identifier: Apache-2.0
// tlsclient: the client side of the TLS interception benchmark. HTTPS over
// HTTP/1.1 keep-alive with OpenSSL, straight to the upstream or through an
// HTTP proxy's CONNECT tunnel; steady_clock timing; one JSON object on
// standard output at the end.
//
//   tlsclient MODE --target HOST:PORT [--proxy HOST:PORT] [--cafile FILE] [options]
//
// --target is an IPv4 address and port; the server's certificate must name
// that address (no SNI is sent for an address, RFC 6066). --cafile: the only
// authority trusted; without it OpenSSL's default paths (SSL_CERT_FILE, the
// system bundle), which is how a client inside `moat run` trusts the session
// CA. ALPN offers http/1.1 only.
//
// Modes:
//   throughput --path P          one connection, GET P, every body byte read
//                                and counted; seconds from connect to last byte
//   latency --requests N [--warmup N] [--path P]
//                                N sequential GETs on one kept-alive
//                                connection, each timed
//   handshake --requests N [--warmup N] [--path P]
//                                N sequential GETs, each on a new connection:
//                                TCP, CONNECT, TLS handshake, GET, close
//   rps --clients N --seconds S [--warmup-seconds S] [--path P]
//                                N kept-alive connections driven by one epoll
//                                thread, GETs back to back; completed requests
//                                per second over S seconds after the warm-up
// A kept-alive connection that the far side closes before a response is
// reopened, the request retried and timed whole; "reconnects" counts these.
// --timeout S (default 600) ends the run with status 3.
//
// Build: g++ -O2 -std=c++20 -pthread -o tlsclient tlsclient.cpp -lssl -lcrypto

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double microsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The far side ended a kept-alive connection before any byte of a response.
struct ClosedBeforeResponse : Failure {
    using Failure::Failure;
};

[[noreturn]] void fail(const std::string& what)
{
    throw Failure(what);
}

std::string sslErrors()
{
    std::string text;
    char line[256];
    while (unsigned long code = ERR_get_error()) {
        ERR_error_string_n(code, line, sizeof line);
        text += text.empty() ? "" : "; ";
        text += line;
    }
    return text.empty() ? std::string(std::strerror(errno)) : text;
}

struct Endpoint {
    std::string text;
    sockaddr_in address{};
};

Endpoint parseEndpoint(const std::string& text)
{
    const size_t colon = text.rfind(':');
    if (colon == std::string::npos) fail("expected HOST:PORT, got " + text);
    Endpoint e;
    e.text = text;
    e.address.sin_family = AF_INET;
    e.address.sin_port = htons(static_cast<uint16_t>(std::strtoul(text.c_str() + colon + 1, nullptr, 10)));
    if (inet_pton(AF_INET, text.substr(0, colon).c_str(), &e.address.sin_addr) != 1)
        fail("not an IPv4 address: " + text.substr(0, colon));
    return e;
}

struct Options {
    std::string mode;
    Endpoint target;
    std::optional<Endpoint> proxy;
    std::string cafile;
    std::string path = "/small";
    int requests = 10000, warmup = 200, clients = 16;
    double seconds = 10, warmupSeconds = 1, timeout = 600;
};

// --- one response, parsed as its bytes arrive ------------------------------
// Content-Length and chunked bodies; body bytes are counted, never kept.
class ResponseReader {
public:
    // Consumes up to n bytes; returns how many belong to this response. done()
    // tells whether the response is complete; the rest belongs to the next.
    size_t feed(const char* data, size_t n)
    {
        size_t used = 0;
        while (used < n && state_ != State::Done) {
            const char* p = data + used;
            const size_t left = n - used;
            switch (state_) {
            case State::Head:
            case State::ChunkSize:
            case State::Trailer: {
                const char* nl = static_cast<const char*>(std::memchr(p, '\n', left));
                const size_t take = nl ? static_cast<size_t>(nl - p) + 1 : left;
                line_.append(p, take);
                used += take;
                if (line_.size() > 64 * 1024) fail("a response line or head longer than 64 KiB");
                if (nl) endOfLine();
                break;
            }
            case State::Body:
            case State::ChunkData: {
                const size_t take = static_cast<size_t>(std::min<uint64_t>(remaining_, left));
                remaining_ -= take;
                bodyBytes_ += take;
                used += take;
                if (remaining_ == 0) state_ = state_ == State::Body ? State::Done : State::ChunkEnd;
                break;
            }
            case State::ChunkEnd:
                ++used;  // the CRLF after chunk data
                if (p[0] == '\n') state_ = State::ChunkSize;
                break;
            case State::Done:
                break;
            }
        }
        return used;
    }
    bool done() const { return state_ == State::Done; }
    bool started() const { return started_; }
    uint64_t bodyBytes() const { return bodyBytes_; }
    void reset() { *this = ResponseReader(); }

private:
    enum class State { Head, Body, ChunkSize, ChunkData, ChunkEnd, Trailer, Done };

    void endOfLine()
    {
        started_ = true;
        if (state_ == State::Head) {
            head_ += line_;
            if (line_ == "\r\n" || line_ == "\n") headDone();
        } else if (state_ == State::ChunkSize) {
            const uint64_t size = std::strtoull(line_.c_str(), nullptr, 16);
            if (size == 0) state_ = State::Trailer;
            else remaining_ = size, state_ = State::ChunkData;
        } else if (line_ == "\r\n" || line_ == "\n") {
            state_ = State::Done;  // end of the trailer
        }
        line_.clear();
    }

    void headDone()
    {
        if (head_.compare(0, 9, "HTTP/1.1 ") != 0 || head_.compare(9, 3, "200") != 0)
            fail("the response was not 200: " + head_.substr(0, head_.find('\n')) + " (head: " + head_.substr(0, 600) +
                 ")");
        std::string lower = head_;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        if (lower.find("\ntransfer-encoding: chunked") != std::string::npos) {
            state_ = State::ChunkSize;
        } else if (size_t at = lower.find("\ncontent-length:"); at != std::string::npos) {
            remaining_ = std::strtoull(lower.c_str() + at + 16, nullptr, 10);
            state_ = remaining_ ? State::Body : State::Done;
        } else {
            fail("a response with neither Content-Length nor chunked encoding: " + head_.substr(0, 600));
        }
    }

    State state_ = State::Head;
    std::string line_, head_;
    uint64_t remaining_ = 0, bodyBytes_ = 0;
    bool started_ = false;
};

// --- a TLS connection, directly or through a CONNECT tunnel ----------------
class Tls {
public:
    explicit Tls(const Options& o) : options_(o)
    {
        context_ = SSL_CTX_new(TLS_client_method());
        if (!context_) fail("SSL_CTX_new: " + sslErrors());
        SSL_CTX_set_verify(context_, SSL_VERIFY_PEER, nullptr);
        const bool loaded = o.cafile.empty() ? SSL_CTX_set_default_verify_paths(context_)
                                             : SSL_CTX_load_verify_locations(context_, o.cafile.c_str(), nullptr);
        if (!loaded) fail("loading the trusted authorities: " + sslErrors());
        static const unsigned char alpn[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
        SSL_CTX_set_alpn_protos(context_, alpn, sizeof alpn);
        SSL_CTX_set_session_cache_mode(context_, SSL_SESS_CACHE_OFF);  // every handshake a full one
    }
    ~Tls() { SSL_CTX_free(context_); }

    struct Connection {
        int fd = -1;
        SSL* ssl = nullptr;
        Connection() = default;
        Connection(Connection&& other) noexcept : fd(std::exchange(other.fd, -1)), ssl(std::exchange(other.ssl, nullptr)) {}
        Connection& operator=(Connection&& other) noexcept
        {
            close();
            fd = std::exchange(other.fd, -1);
            ssl = std::exchange(other.ssl, nullptr);
            return *this;
        }
        ~Connection() { close(); }
        void close()
        {
            if (ssl) SSL_free(ssl);
            if (fd >= 0) ::close(fd);
            ssl = nullptr, fd = -1;
        }
    };

    Connection open() const
    {
        Connection c;
        c.fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (c.fd < 0) fail(std::string("socket: ") + std::strerror(errno));
        const int one = 1;
        setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        const timeval limit{30, 0};
        setsockopt(c.fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
        setsockopt(c.fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
        const sockaddr_in& to = options_.proxy ? options_.proxy->address : options_.target.address;
        if (connect(c.fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0)
            fail("connecting to " + (options_.proxy ? options_.proxy->text : options_.target.text) + ": " +
                 std::strerror(errno));
        if (options_.proxy) tunnel(c.fd);
        c.ssl = SSL_new(context_);
        if (!c.ssl) fail("SSL_new: " + sslErrors());
        // The certificate must name the target's address.
        const std::string host = options_.target.text.substr(0, options_.target.text.rfind(':'));
        X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(c.ssl), host.c_str());
        SSL_set_fd(c.ssl, c.fd);
        if (SSL_connect(c.ssl) != 1) {
            const long verify = SSL_get_verify_result(c.ssl);
            fail("TLS handshake with " + options_.target.text + " failed: " + sslErrors() +
                 (verify != X509_V_OK ? std::string(" (certificate: ") + X509_verify_cert_error_string(verify) + ")"
                                      : std::string()));
        }
        return c;
    }

private:
    void tunnel(int fd) const
    {
        const std::string request = "CONNECT " + options_.target.text + " HTTP/1.1\r\nHost: " + options_.target.text +
                                    "\r\nUser-Agent: tlsclient\r\n\r\n";
        if (send(fd, request.data(), request.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(request.size()))
            fail(std::string("sending CONNECT: ") + std::strerror(errno));
        // Byte by byte: the server speaks first after the head, nothing of it
        // may be consumed here.
        std::string head;
        char c;
        while (head.size() < 4 || head.compare(head.size() - 4, 4, "\r\n\r\n") != 0) {
            const ssize_t n = recv(fd, &c, 1, 0);
            if (n <= 0) fail("the proxy closed the connection during CONNECT" + (head.empty() ? "" : ": " + head));
            head += c;
            if (head.size() > 16384) fail("CONNECT answer head longer than 16 KiB");
        }
        if (head.compare(0, 12, "HTTP/1.1 200") != 0 && head.compare(0, 12, "HTTP/1.0 200") != 0)
            fail("CONNECT refused: " + head.substr(0, head.find('\r')));
    }

    const Options& options_;
    SSL_CTX* context_ = nullptr;
};

std::string requestFor(const Options& o)
{
    return "GET " + o.path + " HTTP/1.1\r\nHost: " + o.target.text + "\r\nUser-Agent: tlsclient\r\nAccept: */*\r\n\r\n";
}

void writeAll(SSL* ssl, const std::string& data)
{
    if (SSL_write(ssl, data.data(), static_cast<int>(data.size())) != static_cast<int>(data.size()))
        fail("TLS write failed: " + sslErrors());
}

// Blocking: reads one whole response (bytes past it are not expected: one
// request is outstanding at a time).
uint64_t readResponse(SSL* ssl, std::vector<char>& buffer)
{
    ResponseReader reader;
    while (!reader.done()) {
        const int n = SSL_read(ssl, buffer.data(), static_cast<int>(buffer.size()));
        if (n <= 0) {
            if (!reader.started()) throw ClosedBeforeResponse("closed before the response");
            fail("the connection ended within a response: " + sslErrors());
        }
        const size_t used = reader.feed(buffer.data(), static_cast<size_t>(n));
        if (used != static_cast<size_t>(n)) fail("bytes after the response, none was asked for");
    }
    return reader.bodyBytes();
}

// --- statistics and output -------------------------------------------------
double percentile(std::vector<double> sorted, double p)
{
    if (sorted.empty()) return 0;
    std::sort(sorted.begin(), sorted.end());
    const size_t at = std::min(sorted.size() - 1, static_cast<size_t>(p / 100.0 * static_cast<double>(sorted.size())));
    return sorted[at];
}

std::string latencyJson(const std::vector<double>& micros)
{
    double sum = 0;
    for (double m : micros) sum += m;
    char out[256];
    std::snprintf(out, sizeof out, "\"p50_us\":%.2f,\"p90_us\":%.2f,\"p99_us\":%.2f,\"mean_us\":%.2f",
                  percentile(micros, 50), percentile(micros, 90), percentile(micros, 99),
                  micros.empty() ? 0.0 : sum / static_cast<double>(micros.size()));
    return out;
}

// --- the modes -------------------------------------------------------------
void throughput(const Options& o, const Tls& tls)
{
    std::vector<char> buffer(256 * 1024);
    const auto start = Clock::now();
    Tls::Connection c = tls.open();
    writeAll(c.ssl, requestFor(o));
    const uint64_t bytes = readResponse(c.ssl, buffer);
    const double seconds = secondsSince(start);
    std::printf("{\"mode\":\"throughput\",\"bytes\":%llu,\"seconds\":%.4f,\"mib_s\":%.1f}\n",
                static_cast<unsigned long long>(bytes), seconds, static_cast<double>(bytes) / seconds / 1048576.0);
}

void sequential(const Options& o, const Tls& tls, bool fresh)
{
    std::vector<char> buffer(64 * 1024);
    std::vector<double> micros;
    micros.reserve(static_cast<size_t>(o.requests));
    const std::string request = requestFor(o);
    Tls::Connection c;
    int reconnects = 0;
    for (int i = 0; i < o.warmup + o.requests; ++i) {
        const auto start = Clock::now();
        for (int attempt = 0;; ++attempt) {
            if (fresh || c.fd < 0) c = tls.open();
            try {
                writeAll(c.ssl, request);
                readResponse(c.ssl, buffer);
                break;
            } catch (const ClosedBeforeResponse&) {
                if (fresh || attempt > 0) throw;
                c.close();
                ++reconnects;
            }
        }
        if (fresh) c.close();
        if (i >= o.warmup) micros.push_back(microsSince(start));
    }
    std::printf("{\"mode\":\"%s\",\"requests\":%d,\"reconnects\":%d,%s}\n", o.mode.c_str(), o.requests, reconnects,
                latencyJson(micros).c_str());
}

// One epoll thread, o.clients connections, each with one request in flight.
void rps(const Options& o, const Tls& tls)
{
    struct Client {
        Tls::Connection c;
        ResponseReader reader;
        Clock::time_point sent;
    };
    std::vector<Client> clients(static_cast<size_t>(o.clients));
    const std::string request = requestFor(o);
    const int epoll = epoll_create1(EPOLL_CLOEXEC);
    if (epoll < 0) fail(std::string("epoll_create1: ") + std::strerror(errno));
    int reconnects = 0;

    auto arm = [&](size_t i) {
        Client& k = clients[i];
        fcntl(k.c.fd, F_SETFL, fcntl(k.c.fd, F_GETFL) | O_NONBLOCK);
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.u64 = i;
        if (epoll_ctl(epoll, EPOLL_CTL_ADD, k.c.fd, &event) != 0) fail(std::string("epoll_ctl: ") + std::strerror(errno));
    };
    // A small request fits one record: on a fresh send buffer SSL_write
    // completes; a rare WANT_WRITE is waited out.
    auto send = [&](Client& k) {
        for (;;) {
            const int n = SSL_write(k.c.ssl, request.data(), static_cast<int>(request.size()));
            if (n == static_cast<int>(request.size())) break;
            if (SSL_get_error(k.c.ssl, n) != SSL_ERROR_WANT_WRITE) fail("TLS write failed: " + sslErrors());
            std::this_thread::yield();
        }
        k.reader.reset();
        k.sent = Clock::now();
    };
    for (size_t i = 0; i < clients.size(); ++i) {
        clients[i].c = tls.open();
        arm(i);
    }

    const auto begin = Clock::now();
    const auto measureFrom = begin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.warmupSeconds));
    const auto end = measureFrom + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
    for (Client& k : clients) send(k);

    std::vector<double> micros;
    micros.reserve(1 << 20);
    uint64_t completed = 0;
    std::vector<char> buffer(64 * 1024);
    std::vector<epoll_event> events(clients.size());
    while (Clock::now() < end) {
        const int n = epoll_wait(epoll, events.data(), static_cast<int>(events.size()), 100);
        if (n < 0 && errno != EINTR) fail(std::string("epoll_wait: ") + std::strerror(errno));
        for (int e = 0; e < n; ++e) {
            const size_t i = events[static_cast<size_t>(e)].data.u64;
            Client& k = clients[i];
            // Drain what OpenSSL can give without blocking.
            for (;;) {
                const int got = SSL_read(k.c.ssl, buffer.data(), static_cast<int>(buffer.size()));
                if (got <= 0) {
                    const int error = SSL_get_error(k.c.ssl, got);
                    if (error == SSL_ERROR_WANT_READ) break;
                    if (k.reader.started()) fail("a connection ended within a response: " + sslErrors());
                    // Closed before the response: reopen, resend.
                    epoll_ctl(epoll, EPOLL_CTL_DEL, k.c.fd, nullptr);
                    k.c = tls.open();
                    ++reconnects;
                    arm(i);
                    const auto sent = k.sent;
                    send(k);
                    k.sent = sent;
                    break;
                }
                const size_t used = k.reader.feed(buffer.data(), static_cast<size_t>(got));
                if (used != static_cast<size_t>(got)) fail("bytes after a response, none was asked for");
                if (k.reader.done()) {
                    const auto now = Clock::now();
                    if (now >= measureFrom && now < end) {
                        ++completed;
                        micros.push_back(std::chrono::duration<double, std::micro>(now - k.sent).count());
                    }
                    send(k);
                }
            }
        }
    }
    close(epoll);
    std::printf("{\"mode\":\"rps\",\"clients\":%d,\"seconds\":%.1f,\"requests\":%llu,\"rps\":%.1f,\"reconnects\":%d,%s}\n",
                o.clients, o.seconds, static_cast<unsigned long long>(completed),
                static_cast<double>(completed) / o.seconds, reconnects, latencyJson(micros).c_str());
}

Options parse(int argc, char** argv)
{
    if (argc < 2) fail("usage: tlsclient throughput|latency|handshake|rps --target HOST:PORT [options]");
    Options o;
    o.mode = argv[1];
    bool haveTarget = false;
    for (int i = 2; i < argc; ++i) {
        const std::string key = argv[i];
        if (i + 1 >= argc) fail(key + " needs a value");
        const std::string value = argv[++i];
        if (key == "--target") o.target = parseEndpoint(value), haveTarget = true;
        else if (key == "--proxy") o.proxy = parseEndpoint(value);
        else if (key == "--cafile") o.cafile = value;
        else if (key == "--path") o.path = value;
        else if (key == "--requests") o.requests = std::stoi(value);
        else if (key == "--warmup") o.warmup = std::stoi(value);
        else if (key == "--clients") o.clients = std::stoi(value);
        else if (key == "--seconds") o.seconds = std::stod(value);
        else if (key == "--warmup-seconds") o.warmupSeconds = std::stod(value);
        else if (key == "--timeout") o.timeout = std::stod(value);
        else fail("unknown option " + key);
    }
    if (!haveTarget) fail("--target HOST:PORT is required");
    return o;
}

}  // namespace

int main(int argc, char** argv)
{
    signal(SIGPIPE, SIG_IGN);
    try {
        const Options o = parse(argc, argv);
        std::thread([timeout = o.timeout] {
            std::this_thread::sleep_for(std::chrono::duration<double>(timeout));
            std::fprintf(stderr, "tlsclient: gave up after %.0f s\n", timeout);
            std::_Exit(3);
        }).detach();
        const Tls tls(o);
        if (o.mode == "throughput") throughput(o, tls);
        else if (o.mode == "latency") sequential(o, tls, false);
        else if (o.mode == "handshake") sequential(o, tls, true);
        else if (o.mode == "rps") rps(o, tls);
        else fail("unknown mode " + o.mode);
        std::fflush(stdout);
        std::_Exit(0);  // the timeout thread is still sleeping
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tlsclient: %s\n", e.what());
        return 1;
    }
}
