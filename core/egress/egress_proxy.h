// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/unique_fd.h"
#include "egress/proxy_context.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <memory>

namespace moat {

struct EgressProxyOptions {
    EgressPolicy policy;
    ProxyLimits limits;
    EgressEventSink onEvent;
    std::function<nlohmann::json()> sessionInfo;
    EscalationHandler escalate;
    // Which allowed CONNECT destinations are intercepted (tls/tls_interception.h).
    TlsInterception interception;
};

// The sandbox's only way out: the HTTP proxy (with the control endpoint) and
// the SOCKS5 proxy, served from the supervisor on listening sockets that
// sandbox init created inside the sandbox's network namespace. Connections
// to the upstreams are made here, in the host's namespace, after the rules
// allowed them. One thread: every connection is a coroutine or a tunnel on
// the io_context it is given.
class EgressProxy {
public:
    // Either listener may be invalid (not served). The sockets are adopted.
    EgressProxy(boost::asio::io_context& io, UniqueFd httpListener, UniqueFd socksListener,
                EgressProxyOptions options);
    ~EgressProxy();
    EgressProxy(const EgressProxy&) = delete;
    EgressProxy& operator=(const EgressProxy&) = delete;

    void start();
    // Stops accepting; connections already served end with the io_context.
    void stop();

    std::size_t openConnections() const { return context_->openConnections; }

private:
    using Acceptor = boost::asio::ip::tcp::acceptor;
    enum class Protocol { Http, Socks5 };

    void accept(Acceptor& acceptor, Protocol protocol);

    boost::asio::io_context& io_;
    std::shared_ptr<ProxyContext> context_;
    std::unique_ptr<Acceptor> http_;
    std::unique_ptr<Acceptor> socks_;
    std::shared_ptr<bool> stopped_ = std::make_shared<bool>(false);
};

// Raises this process's soft descriptor limit to its hard limit (at most
// `wanted`): each tunnel holds two descriptors, and the default soft limit of
// 1024 would cap the agent at a few hundred connections.
void raiseDescriptorLimit(std::size_t wanted);

}  // namespace moat
