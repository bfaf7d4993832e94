// SPDX-License-Identifier: Apache-2.0
// The services a supervisor runs for its sandbox from outside it (the exec
// notifier, the DNS stub, the egress proxy) and the records each makes.
// The session's life (start, signals, expiry, the end) is supervisor.cpp.
#include "session/supervisor.h"

#include "egress/dns_stub.h"
#include "egress/egress_proxy.h"
#include "policy/egress_endpoints.h"
#include "runtime/init_channel.h"
#include "session/exec_notifier.h"
#include "session/iso_time.h"
#include "session/session_control.h"

#include <cstring>

namespace moat {

void Supervisor::startExecNotifier()
{
    auto listener = sandbox_.listeners.find(kExecNotifyListener);
    if (listener == sandbox_.listeners.end()) {
        return;  // the kernel has no seccomp user notification: init's record of the command only
    }
    execNotifier_ = std::make_unique<ExecNotifier>(
        io_, std::move(listener->second), [this](const ExecEvent& event) { recordExec(event); },
        [this] { return execEvents_.admit(); });
    // The command's own exec comes from init on the channel; what it runs
    // next must not be recorded before it.
    execNotifier_->hold();
    execNotifier_->start();
}

void Supervisor::releaseExecReports()
{
    if (execNotifier_) {
        execNotifier_->release();
    }
}

void Supervisor::recordExec(const ExecEvent& event)
{
    // Written from the caller's memory while it waited: a record of what
    // was asked, not proof of what ran (docs/sandbox.md, exec records).
    const ExecArguments& arguments = event.arguments;
    nlohmann::json data = {{"pid", event.pid}};
    if (event.pid == 0) {
        data["host_pid"] = event.hostPid;
    }
    if (arguments.error != 0) {
        data["unreadable"] = std::strerror(arguments.error);
    }
    data["path"] = arguments.path;
    data["argv"] = arguments.argv;
    if (event.execveat) {
        data["syscall"] = "execveat";
        data["dirfd"] = event.dirfd;
        data["flags"] = event.flags;
    }
    if (arguments.pathTruncated) {
        data["path_truncated"] = true;
    }
    if (arguments.argvTruncated) {
        data["argv_truncated"] = true;
    }
    if (const uint64_t suppressed = execEvents_.takeSuppressed(); suppressed > 0) {
        data["not_recorded_before"] = suppressed;  // over the per-second budget
    }
    record("exec", std::move(data));
}

void Supervisor::startDnsStub()
{
    auto udp = sandbox_.listeners.find(kDnsUdpListener);
    auto tcp = sandbox_.listeners.find(kDnsTcpListener);
    if (udp == sandbox_.listeners.end() || tcp == sandbox_.listeners.end()) {
        return;  // --net none or open: no stub
    }
    dnsStub_ = std::make_unique<DnsStub>(io_, std::move(udp->second), std::move(tcp->second),
                                         [this](const DnsStubAnswer& answer, const char* transport) {
                                             recordDnsQuery(answer, transport);
                                         });
    dnsStub_->start();
}

void Supervisor::recordDnsQuery(const DnsStubAnswer& answer, const char* transport)
{
    if (!dnsEvents_.admit()) {
        return;
    }
    nlohmann::json data = {{"transport", transport}};
    if (answer.outcome() == DnsStubAnswer::Outcome::NxDomain) {
        data["name"] = answer.name();
        data["qtype"] = answer.type();
        data["answer"] = "NXDOMAIN";
    } else {
        data["answer"] = answer.outcome() == DnsStubAnswer::Outcome::Dropped ? "none" : "error";
        data["problem"] = answer.problem();
    }
    if (const uint64_t suppressed = dnsEvents_.takeSuppressed(); suppressed > 0) {
        data["not_recorded_before"] = suppressed;  // over the per-second budget
    }
    record("dns.query", std::move(data));
}

void Supervisor::startEgressProxy()
{
    auto http = sandbox_.listeners.find(kProxyHttpListener);
    auto socks = sandbox_.listeners.find(kProxySocksListener);
    if (http == sandbox_.listeners.end() || socks == sandbox_.listeners.end()) {
        return;  // --net none or open: nothing to serve
    }
    auto policy = EgressPolicy::fromArguments(spec_.allowHosts);
    if (!policy) {
        // The CLI validated these; a spec that fails here was not written by
        // it. Serve nothing rather than guess.
        say("the egress rules cannot be read (" + policy.error().message() + "); the network stays closed");
        return;
    }
    EgressProxyOptions options;
    options.policy = std::move(policy.value());
    options.onEvent = [this](const EgressEvent& event) { recordEgress(event); };
    options.sessionInfo = [this] { return sessionInfo(); };
    options.escalate = control_->escalationHandler();
    if (options_.interception) {
        // A request an ask rule holds waits for a person: moatd, or in
        // embedded mode the user's terminal (SessionControl's desk).
        options.interception =
            options_.interception(&control_->httpAsks(), [this](const std::string& type, nlohmann::json data) {
                record(type, std::move(data));
            });
    }
    raiseDescriptorLimit(4 * options.limits.maxConnections);
    egressProxy_ = std::make_unique<EgressProxy>(io_, std::move(http->second), std::move(socks->second),
                                                 std::move(options));
    egressProxy_->start();
}

nlohmann::json Supervisor::sessionInfo() const
{
    return {{"id", spec_.sessionId},
            {"name", spec_.name},
            {"profile", spec_.profile},
            {"flags", spec_.flagBadges()},
            {"net", toString(spec_.network)},
            {"allow_hosts", spec_.allowHosts},
            {"expires", isoTime(expiresAt_)},
            {"ttl", spec_.ttl.toString()}};
}

void Supervisor::recordEgress(const EgressEvent& event)
{
    EventBudget& budget = event.kind == EgressEvent::Kind::Allow ? allowEvents_ : denyEvents_;
    if (!budget.admit()) {
        return;
    }
    nlohmann::json data = {{"protocol", event.protocol}};
    if (!event.host.empty()) {
        data["host"] = event.host;
        data["port"] = event.port;
    }
    if (!event.target.empty()) {
        data["target"] = event.target;
    }
    if (!event.method.empty()) {
        data["method"] = event.method;
    }
    if (!event.path.empty()) {
        data["path"] = event.path;
    }
    if (!event.address.empty()) {
        data["address"] = event.address;
    }
    data[event.kind == EgressEvent::Kind::Allow ? "rule" : "reason"] = event.reason;
    if (!event.suggestion.empty()) {
        data["suggestion"] = event.suggestion;
    }
    if (const uint64_t suppressed = budget.takeSuppressed(); suppressed > 0) {
        data["not_recorded_before"] = suppressed;  // over the per-second budget
    }
    const char* type = event.kind == EgressEvent::Kind::Allow ? "net.allow"
                       : event.kind == EgressEvent::Kind::Deny ? "net.deny"
                                                               : "net.error";
    record(type, std::move(data));
}

}  // namespace moat
