// SPDX-License-Identifier: Apache-2.0
#pragma once

// An EgressProxy served in-process on loopback listeners, with the small
// blocking clients and upstreams the proxy tests drive it with. Real sockets
// and the real proxy; only the sandbox around it is left out.

#include "egress/egress_proxy.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QByteArray>
#include <QElapsedTimer>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace proxy_rig {

inline moat::UniqueFd listenOnLoopback(std::uint16_t& port)
{
    moat::UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(fd.get(), 4096) != 0) {
        return {};
    }
    socklen_t length = sizeof address;
    ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&address), &length);
    port = ntohs(address.sin_port);
    return fd;
}

inline moat::UniqueFd connectTo(std::uint16_t port)
{
    moat::UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(port);
    if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        return {};
    }
    return fd;
}

inline bool sendAll(int fd, const QByteArray& bytes)
{
    qsizetype sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = ::send(fd, bytes.constData() + sent, static_cast<size_t>(bytes.size() - sent), MSG_NOSIGNAL);
        if (n <= 0) {
            return false;
        }
        sent += n;
    }
    return true;
}

// Reads until the peer closes, `until` appears, `limit` bytes arrived or
// `timeout` passes; `closed` tells whether the peer closed.
inline QByteArray receive(int fd, std::chrono::milliseconds timeout, const QByteArray& until = {},
                          bool* closed = nullptr, qsizetype limit = -1)
{
    QByteArray bytes;
    QElapsedTimer clock;
    clock.start();
    if (closed) {
        *closed = false;
    }
    char chunk[65536];
    while (clock.elapsed() < timeout.count()) {
        pollfd ready{fd, POLLIN, 0};
        if (::poll(&ready, 1, static_cast<int>(timeout.count() - clock.elapsed())) <= 0) {
            break;
        }
        const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n <= 0) {
            if (closed) {
                *closed = true;
            }
            break;
        }
        bytes.append(chunk, n);
        if ((!until.isEmpty() && bytes.contains(until)) || (limit >= 0 && bytes.size() >= limit)) {
            break;
        }
    }
    return bytes;
}

// An upstream that accepts connections and either echoes what it receives
// or only records it, on its own thread.
class Upstream {
public:
    enum class Mode { Echo, Record, Silent };

    explicit Upstream(Mode mode) : mode_(mode), listener_(listenOnLoopback(port_))
    {
        if (mode_ != Mode::Silent) {
            thread_ = std::thread([this] { serve(); });
        }
    }
    ~Upstream()
    {
        stopping_ = true;
        ::shutdown(listener_.get(), SHUT_RDWR);
        if (thread_.joinable()) {
            thread_.join();
        }
    }

    std::uint16_t port() const { return port_; }
    QByteArray received() const
    {
        std::lock_guard lock(mutex_);
        return received_;
    }
    int accepted() const { return accepted_; }

private:
    void serve()
    {
        while (!stopping_) {
            const int client = ::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC);
            if (client < 0) {
                return;
            }
            ++accepted_;
            char chunk[65536];
            for (;;) {
                pollfd ready{client, POLLIN, 0};
                if (::poll(&ready, 1, 100) == 0) {
                    if (stopping_) {
                        break;
                    }
                    continue;
                }
                const ssize_t n = ::recv(client, chunk, sizeof chunk, 0);
                if (n <= 0) {
                    break;
                }
                {
                    std::lock_guard lock(mutex_);
                    received_.append(chunk, n);
                }
                if (mode_ == Mode::Echo && !sendAll(client, QByteArray(chunk, n))) {
                    break;
                }
            }
            ::close(client);
        }
    }

    Mode mode_;
    std::uint16_t port_ = 0;
    moat::UniqueFd listener_;
    std::thread thread_;
    std::atomic<bool> stopping_{false};
    std::atomic<int> accepted_{0};
    mutable std::mutex mutex_;
    QByteArray received_;
};

// The proxy under test, on its own thread as in the supervisor.
class ProxyRig {
public:
    ProxyRig(const std::vector<std::string>& allowHosts, moat::ProxyLimits limits)
        : ProxyRig([allowHosts](std::uint16_t) { return allowHosts; }, limits)
    {
    }
    // allowHosts(httpPort): rules that may name the proxy's own listener.
    // interception: which CONNECT destinations the proxy intercepts (none by default).
    ProxyRig(const std::function<std::vector<std::string>(std::uint16_t)>& allowHosts, moat::ProxyLimits limits,
             moat::TlsInterception interception = {})
    {
        moat::raiseDescriptorLimit(65536);
        auto http = listenOnLoopback(httpPort_);
        auto socks = listenOnLoopback(socksPort_);
        auto policy = moat::EgressPolicy::fromArguments(allowHosts(httpPort_));
        moat::EgressProxyOptions options;
        options.policy = policy ? std::move(policy.value()) : moat::EgressPolicy();
        options.limits = limits;
        options.onEvent = [this](const moat::EgressEvent& event) {
            std::lock_guard lock(mutex_);
            events_.push_back(event);
        };
        options.sessionInfo = [] { return nlohmann::json{{"id", "rig-session"}}; };
        options.interception = std::move(interception);
        proxy_ = std::make_unique<moat::EgressProxy>(io_, std::move(http), std::move(socks), std::move(options));
        proxy_->start();
        thread_ = std::thread([this] { io_.run(); });
    }
    ~ProxyRig()
    {
        boost::asio::post(io_, [this] { proxy_->stop(); });
        io_.stop();
        thread_.join();
        proxy_.reset();
    }

    std::uint16_t httpPort() const { return httpPort_; }
    std::uint16_t socksPort() const { return socksPort_; }
    // The proxy's thread: what the supervisor's desks run on beside it.
    boost::asio::io_context& io() { return io_; }

    std::vector<moat::EgressEvent> events() const
    {
        std::lock_guard lock(mutex_);
        return events_;
    }
    std::size_t openConnections()
    {
        std::promise<std::size_t> count;
        boost::asio::post(io_, [this, &count] { count.set_value(proxy_->openConnections()); });
        return count.get_future().get();
    }

private:
    boost::asio::io_context io_;
    std::unique_ptr<moat::EgressProxy> proxy_;
    std::thread thread_;
    std::uint16_t httpPort_ = 0;
    std::uint16_t socksPort_ = 0;
    mutable std::mutex mutex_;
    std::vector<moat::EgressEvent> events_;
};

}  // namespace proxy_rig
