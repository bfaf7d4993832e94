// SPDX-License-Identifier: Apache-2.0
#include "policy/successor_spec.h"

#include <algorithm>

namespace moat {

namespace {

constexpr size_t kMaxNameLength = 63;  // as --name (spec_builder.cpp)
constexpr size_t kIdInName = 6;

std::string successorName(const SandboxSpec& parent, const std::string& newSessionId)
{
    std::string base = parent.name;
    const std::string parentSuffix = "-" + parent.sessionId.substr(0, kIdInName);
    if (base.size() > parentSuffix.size() &&
        base.compare(base.size() - parentSuffix.size(), parentSuffix.size(), parentSuffix) == 0) {
        base.resize(base.size() - parentSuffix.size());
    }
    if (base.empty()) {
        base = "session";
    }
    const std::string suffix = "-" + newSessionId.substr(0, kIdInName);
    base.resize(std::min(base.size(), kMaxNameLength - suffix.size()));
    return base + suffix;
}

}  // namespace

Result<SandboxSpec> successorSpec(const SandboxSpec& parent, const EscalationRequest& request,
                                  const std::string& requestId, const std::string& newSessionId)
{
    if (newSessionId.empty() || newSessionId == parent.sessionId) {
        return Error{"a successor needs a session id of its own"};
    }
    if (request.docker) {
        return Error{"the request asks for a container engine, which this build cannot provide", 0,
                     "Deny the request; build the image beforehand with the tools the task needs"};
    }
    SandboxSpec next = parent;
    next.sessionId = newSessionId;
    next.name = successorName(parent, newSessionId);
    next.parentSessionId = parent.sessionId;
    next.escalationRequestId = requestId;
    next.sudo = parent.sudo || request.sudo;
    next.docker = parent.docker || request.docker;
    if (request.netOpen) {
        next.network = NetworkMode::Open;
    } else if (!request.allowHosts.empty() && next.network == NetworkMode::None) {
        // Hosts are enforced by the proxy: asking for them from a sandbox
        // without network means the proxy with those hosts, nothing wider.
        next.network = NetworkMode::Proxy;
    }
    if (next.network == NetworkMode::Open) {
        next.allowHosts.clear();  // nothing filters under --net open
    } else {
        for (const auto& host : request.allowHosts) {
            if (std::find(next.allowHosts.begin(), next.allowHosts.end(), host) == next.allowHosts.end()) {
                next.allowHosts.push_back(host);
            }
        }
    }
    if (!request.command.empty()) {
        next.command = request.command;
    }
    return next;
}

}  // namespace moat
