// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "egress/chunk_pool.h"
#include "egress/control_api.h"
#include "egress/egress_event.h"
#include "egress/egress_policy.h"
#include "egress/pipe_pool.h"
#include "egress/proxy_limits.h"
#include "egress/tls/tls_interception.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

namespace moat {

// What every connection of one egress proxy shares. Held by shared_ptr from
// each connection, so that a connection still unwinding when the supervisor
// tears the proxy down never reaches freed state.
struct ProxyContext {
    EgressPolicy policy;
    ProxyLimits limits;
    EgressEventSink onEvent;
    // The session as the control endpoint shows it (GET $MOAT_API/v1/session).
    std::function<nlohmann::json()> sessionInfo;
    // Escalation requests (POST $MOAT_API/v1/requests); none: answered 503.
    EscalationHandler escalate;
    // Which allowed CONNECT destinations are intercepted, and with what
    // (egress/tls/tls_interception.h); by default none.
    TlsInterception interception;
    // The HTTP listener's port inside the sandbox: a request for
    // http://127.0.0.1:<port>/ is for the control endpoint, never forwarded.
    std::uint16_t controlPort = 0;
    std::shared_ptr<PipePool> pipes;
    std::shared_ptr<ChunkPool> chunks;
    std::size_t openConnections = 0;

    void report(const EgressEvent& event) const
    {
        if (onEvent) {
            onEvent(event);
        }
    }
};

// One connection counted against ProxyLimits::maxConnections for as long as
// it lives (moved into a tunnel when the connection becomes one).
class ConnectionSlot {
public:
    explicit ConnectionSlot(std::shared_ptr<ProxyContext> context) : context_(std::move(context))
    {
        ++context_->openConnections;
    }
    ~ConnectionSlot() { --context_->openConnections; }
    ConnectionSlot(const ConnectionSlot&) = delete;
    ConnectionSlot& operator=(const ConnectionSlot&) = delete;

private:
    std::shared_ptr<ProxyContext> context_;
};

}  // namespace moat
