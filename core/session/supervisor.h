// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/event_budget.h"
#include "audit/event_log.h"
#include "base/moat_paths.h"
#include "policy/sandbox_spec.h"
#include "runtime/sandbox_launcher.h"
#include "egress/tls/tls_interception.h"
#include "session/http_ask_desk.h"
#include "session/session_store.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <sys/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace moat {

class DnsStub;
class EgressProxy;
struct EgressEvent;
class ExecNotifier;
struct ExecEvent;
class DnsStubAnswer;
class SessionControl;
class StdioRelay;
class TerminalGuard;
class TerminalQuestion;

struct SupervisorOptions {
    std::string jsonEventsPath;  // --json-events
    std::chrono::seconds termGrace{5};
    // MAC and sign the session's records (from --keys-fd; never null in moat-supervisor).
    std::shared_ptr<const RecordKeys> recordKeys;
    // --parent-fd: moatd's end of the parent link (SOCK_SEQPACKET), owned by
    // the Supervisor from construction; -1 in embedded mode.
    int parentFd = -1;

    // TLS interception, when the spec has rules or secrets (made by
    // moat-supervisor's main with session_interception.h): the CA the
    // sandbox trusts, the secrets' placeholders for its environment, the
    // proxy's configuration given the desk that asks a person and how to
    // record, and what session.start says of it. Empty: none.
    std::string sessionCaPem;
    std::vector<std::string> extraEnvironment;
    std::function<TlsInterception(HttpAskDesk* desk, std::function<void(const std::string&, nlohmann::json)> record)>
        interception;
    nlohmann::json interceptionSummary;
};

// moat-supervisor's main loop for one session (outside the sandbox): starts
// the sandbox, relays the user's terminal, forwards signals, records the
// timeline, enforces the TTL, and returns the exit status `moat run` reports.
class Supervisor {
public:
    Supervisor(SandboxSpec spec, MoatPaths paths, SupervisorOptions options);
    ~Supervisor();

    int run();

private:
    Status openRecords();
    void watchInit();
    void watchChannel();
    bool drainChannel();
    void handleInitMessage(const nlohmann::json& body);
    void watchSignals();
    void startExecNotifier();
    void recordExec(const ExecEvent& event);
    void releaseExecReports();
    void startDnsStub();
    void recordDnsQuery(const DnsStubAnswer& answer, const char* transport);
    void startEgressProxy();
    void recordEgress(const EgressEvent& event);
    nlohmann::json sessionInfo() const;
    void armTtl();
    void terminateSandbox();
    void stopFor(const nlohmann::json& by);
    Result<std::string> renewFor(const std::string& ttl, const nlohmann::json& by);
    void writeRunningStatus() const;
    std::string endState() const;
    void onInitExited();
    void onJobStopped();
    void forwardSignal(int sig);
    void record(const std::string& type, nlohmann::json data);
    void sealRecords();
    void say(const std::string& text) const;
    int failSetup(const Error& error);

    SandboxSpec spec_;
    MoatPaths paths_;
    SupervisorOptions options_;
    std::optional<SessionStore> store_;
    std::optional<EventLog> log_;
    Sandbox sandbox_;
    StdioMode stdio_;

    boost::asio::io_context io_;
    std::optional<boost::asio::posix::stream_descriptor> initWatch_;
    std::optional<boost::asio::posix::stream_descriptor> channelWatch_;
    boost::asio::signal_set signals_;
    boost::asio::steady_timer ttlTimer_;
    boost::asio::steady_timer graceTimer_;
    // Before relay_: the relay's thread may use it until the relay ends.
    std::unique_ptr<TerminalQuestion> question_;
    std::unique_ptr<StdioRelay> relay_;
    std::unique_ptr<TerminalGuard> terminal_;
    std::unique_ptr<ExecNotifier> execNotifier_;
    EventBudget execEvents_{100};
    std::unique_ptr<DnsStub> dnsStub_;
    EventBudget dnsEvents_{50};
    std::unique_ptr<EgressProxy> egressProxy_;
    std::unique_ptr<SessionControl> control_;
    // Per second. A denial is recorded before an allowance when both compete:
    // the budgets are separate so that a flood of one hides none of the other.
    EventBudget allowEvents_{100};
    EventBudget denyEvents_{100};

    int exitCode_ = 125;
    bool expired_ = false;
    bool stopped_ = false;
    std::string endReason_ = "exited";
    std::chrono::system_clock::time_point startedAt_;
    std::chrono::system_clock::time_point expiresAt_;
};

}  // namespace moat
