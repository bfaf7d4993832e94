// SPDX-License-Identifier: Apache-2.0
#include "egress/egress_proxy.h"

#include "egress/http_proxy_client.h"
#include "egress/socks5_client.h"

#include <boost/asio/steady_timer.hpp>

#include <sys/resource.h>
#include <sys/socket.h>

#include <spdlog/spdlog.h>

namespace moat {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

constexpr std::size_t kIdlePipes = 64;
constexpr std::size_t kBodyChunk = 64 * 1024;
constexpr std::size_t kIdleChunks = 64;
// After accept() fails for want of descriptors, wait before trying again
// rather than spinning on a listener that stays readable.
constexpr std::chrono::milliseconds kAcceptBackoff{100};

std::unique_ptr<tcp::acceptor> adopt(asio::io_context& io, UniqueFd fd)
{
    if (!fd) {
        return nullptr;
    }
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&address), &length);
    const tcp protocol = address.ss_family == AF_INET6 ? tcp::v6() : tcp::v4();
    boost::system::error_code ec;
    auto acceptor = std::make_unique<tcp::acceptor>(io);
    acceptor->assign(protocol, fd.get(), ec);
    if (ec) {
        spdlog::error("cannot serve a proxy listener: {}", ec.message());
        return nullptr;
    }
    fd.release();
    return acceptor;
}

}  // namespace

void raiseDescriptorLimit(std::size_t wanted)
{
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
        return;
    }
    const rlim_t target = std::min<rlim_t>(limit.rlim_max, wanted);
    if (limit.rlim_cur < target) {
        limit.rlim_cur = target;
        (void)::setrlimit(RLIMIT_NOFILE, &limit);
    }
}

EgressProxy::EgressProxy(asio::io_context& io, UniqueFd httpListener, UniqueFd socksListener,
                         EgressProxyOptions options)
    : io_(io), context_(std::make_shared<ProxyContext>())
{
    context_->policy = std::move(options.policy);
    context_->limits = options.limits;
    context_->onEvent = std::move(options.onEvent);
    context_->sessionInfo = std::move(options.sessionInfo);
    context_->escalate = std::move(options.escalate);
    context_->interception = std::move(options.interception);
    context_->pipes = std::make_shared<PipePool>(context_->limits.spliceChunk, kIdlePipes);
    context_->chunks = std::make_shared<ChunkPool>(kBodyChunk, kIdleChunks);
    http_ = adopt(io, std::move(httpListener));
    socks_ = adopt(io, std::move(socksListener));
    if (http_) {
        boost::system::error_code ec;
        context_->controlPort = http_->local_endpoint(ec).port();
    }
}

EgressProxy::~EgressProxy()
{
    stop();
    // Connections still alive hold the context; they must not call back
    // into a supervisor that is going away.
    context_->onEvent = nullptr;
    context_->sessionInfo = nullptr;
}

void EgressProxy::start()
{
    if (http_) {
        accept(*http_, Protocol::Http);
    }
    if (socks_) {
        accept(*socks_, Protocol::Socks5);
    }
}

void EgressProxy::stop()
{
    *stopped_ = true;
    boost::system::error_code ignored;
    if (http_) {
        http_->close(ignored);
    }
    if (socks_) {
        socks_->close(ignored);
    }
}

void EgressProxy::accept(Acceptor& acceptor, Protocol protocol)
{
    acceptor.async_accept([this, &acceptor, protocol, stopped = stopped_](const boost::system::error_code& ec,
                                                                          tcp::socket socket) {
        if (*stopped || ec == asio::error::operation_aborted) {
            return;
        }
        if (ec) {
            // EMFILE/ENFILE: the connection stays queued; try again shortly.
            spdlog::warn("egress proxy: accept failed: {}", ec.message());
            auto timer = std::make_shared<asio::steady_timer>(io_, kAcceptBackoff);
            timer->async_wait([this, &acceptor, protocol, timer, stopped](const boost::system::error_code& waited) {
                if (!waited && !*stopped) {
                    accept(acceptor, protocol);
                }
            });
            return;
        }
        if (context_->openConnections >= context_->limits.maxConnections) {
            // Over the limit: closed at once, so the agent sees a refusal
            // rather than a connection that never answers.
            boost::system::error_code ignored;
            socket.close(ignored);
        } else {
            boost::system::error_code ignored;
            socket.set_option(tcp::no_delay(true), ignored);
            if (protocol == Protocol::Http) {
                asio::co_spawn(io_, serveHttpProxyClient(context_, std::move(socket)), asio::detached);
            } else {
                asio::co_spawn(io_, serveSocks5Client(context_, std::move(socket)), asio::detached);
            }
        }
        accept(acceptor, protocol);
    });
}

}  // namespace moat
