// SPDX-License-Identifier: Apache-2.0
#include "session/supervisor.h"

#include "egress/dns_stub.h"
#include "egress/egress_proxy.h"
#include "runtime/syscalls.h"
#include "runtime/init_channel.h"
#include "session/exec_notifier.h"
#include "session/iso_time.h"
#include "session/session_control.h"
#include "session/stdio_relay.h"
#include "session/terminal_guard.h"
#include "session/terminal_question.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <cstring>
#include <iostream>

namespace moat {

namespace asio = boost::asio;

Supervisor::Supervisor(SandboxSpec spec, MoatPaths paths, SupervisorOptions options)
    : spec_(std::move(spec)),
      paths_(std::move(paths)),
      options_(std::move(options)),
      signals_(io_),
      ttlTimer_(io_),
      graceTimer_(io_)
{
    SessionControl::Actions actions;
    actions.record = [this](const std::string& type, nlohmann::json data) { record(type, std::move(data)); };
    actions.stop = [this](const nlohmann::json& by) { stopFor(by); };
    actions.renew = [this](const std::string& ttl, const nlohmann::json& by) { return renewFor(ttl, by); };
    actions.signal = [this](int sig) { forwardSignal(sig); };
    // Embedded mode: an `ask` rule's question goes to the user's terminal
    // (set up in run(); until then, and without a terminal, nobody to ask).
    actions.askTerminal = [this](const std::string& text, std::chrono::steady_clock::time_point deadline,
                                 std::function<void(bool)> reply) {
        return question_ && question_->ask(text, deadline, std::move(reply));
    };
    control_ = std::make_unique<SessionControl>(io_, spec_.sessionId, UniqueFd(options_.parentFd), std::move(actions),
                                                HttpAskDesk::Options{.timeout = spec_.askTimeout.seconds()});
}

Supervisor::~Supervisor() = default;

void Supervisor::say(const std::string& text) const
{
    // The user's terminal may be raw: end lines with CR LF.
    const std::string line = "moat: " + text + (terminal_ ? "\r\n" : "\n");
    (void)::write(STDERR_FILENO, line.data(), line.size());
}

void Supervisor::record(const std::string& type, nlohmann::json data)
{
    if (!log_) {
        return;
    }
    if (auto written = log_->append(type, std::move(data)); !written) {
        spdlog::warn("{}", written.error().message());
        return;
    }
    control_->eventsAppended(log_->lines());
}

void Supervisor::sealRecords()
{
    if (!log_) {
        return;
    }
    if (auto sealed = log_->seal(); !sealed) {
        say("warning: the session's records could not be sealed: " + sealed.error().message());
    }
}

int Supervisor::failSetup(const Error& error)
{
    record("session.end", {{"reason", "setup_failed"}, {"error", error.message()}, {"exit_code", 125}});
    sealRecords();
    if (store_) {
        (void)store_->writeStatus({{"state", "failed"}, {"exit_code", 125}, {"error", error.message()},
                                   {"ended", isoTime(std::chrono::system_clock::now())}});
    }
    say(error.message());
    control_->end("failed", 125);
    return 125;
}

Status Supervisor::openRecords()
{
    auto store = SessionStore::create(paths_, spec_);
    if (!store) {
        return store.error();
    }
    store_ = std::move(store.value());
    auto log = EventLog::open(store_->eventsPath(), spec_.sessionId, options_.recordKeys);
    if (!log) {
        return log.error();
    }
    log_ = std::move(log.value());
    if (!options_.jsonEventsPath.empty()) {
        if (auto mirrored = log_->mirrorTo(options_.jsonEventsPath); !mirrored) {
            return mirrored;
        }
    }
    return {};
}

int Supervisor::run()
{
    stdio_.stdinTty = ::isatty(STDIN_FILENO);
    stdio_.stdoutTty = ::isatty(STDOUT_FILENO);
    stdio_.stderrTty = ::isatty(STDERR_FILENO);
    stdio_.userTerminalFd = stdio_.stdinTty ? STDIN_FILENO : stdio_.stdoutTty ? STDOUT_FILENO
                                                          : stdio_.stderrTty ? STDERR_FILENO : -1;

    control_->attach();
    // Launched while this process is still single-threaded (clone3 + work
    // in the child); the records are opened while init builds the sandbox.
    Status records;
    auto launched = SandboxLauncher::launch(spec_, paths_, stdio_, [this, &records] {
        records = openRecords();
        return records;
    }, LaunchOptions{.execNotify = true, .sessionCaPem = options_.sessionCaPem,
                     .extraEnvironment = options_.extraEnvironment});
    if (!launched) {
        if (!store_ && records.ok()) {
            // Failed before the records existed (e.g. the kernel check):
            // record the failure anyway, if we can.
            (void)openRecords();
        }
        return failSetup(launched.error());
    }
    sandbox_ = std::move(launched.value());
    // From here on this process handles what must stay out of reach: the
    // session CA's key, secrets' values and the requests they are swapped
    // into. Not dumpable: no core file of it, and no ptrace or
    // /proc/PID/mem by other processes of the same user. Not before the
    // launch: init is a clone of this process, and the kernel hands the
    // /proc files of a non-dumpable process (uid_map among them) to root.
    (void)::prctl(PR_SET_DUMPABLE, 0);
    startedAt_ = std::chrono::system_clock::now();
    expiresAt_ = startedAt_ + spec_.ttl.seconds();

    const auto& confinement = sandbox_.confinement;
    nlohmann::json degraded = confinement.value("degraded", nlohmann::json::array());
    nlohmann::json start = {
        {"name", spec_.name},
        {"image", spec_.image.toString()},
        {"workspace", spec_.workspace},
        {"flags", spec_.flagBadges()},
        {"yolo", spec_.yolo},
        {"net", toString(spec_.network)},
        {"command", spec_.command},
        {"agent",
         {{"host_uid", sandbox_.identity.hostUid},
          {"uid", sandbox_.identity.insideUid},
          {"user", sandbox_.identity.name}}},
        {"hostname", sandbox_.hostname},
        {"landlock",
         {{"abi", confinement.value("landlock_abi", -1)},
          {"fs", confinement.value("landlock_fs", 0ULL)},
          {"net", confinement.value("landlock_net", 0ULL)},
          {"scoped", confinement.value("landlock_scoped", 0ULL)}}},
        {"seccomp", confinement.value("seccomp", false)},
        {"degraded", degraded},
        {"ttl", spec_.ttl.toString()},
        {"expires", isoTime(expiresAt_)},
        {"records", {{"key", options_.recordKeys->id()}, {"keys_in", options_.recordKeys->location()}}}};
    if (!options_.interceptionSummary.is_null()) {
        start["interception"] = options_.interceptionSummary;
    }
    if (!spec_.parentSessionId.empty()) {
        // A successor: the session it follows and the approved request that
        // widened it, so that the records link what ran with more to who allowed it.
        start["parent"] = spec_.parentSessionId;
        start["request"] = spec_.escalationRequestId;
    }
    record("session.start", std::move(start));
    for (const auto& layer : degraded) {
        say("warning: running without " + layer.get<std::string>() + " (--allow-degraded); the sandbox is weaker");
    }
    writeRunningStatus();
    // Where moatd re-attaches, and `moat stop` / `moat renew` reach an
    // embedded session. Without it the session still runs: only those fail.
    if (auto listening = control_->listen(paths_.supervisorSocket(spec_.sessionId)); !listening) {
        say("warning: " + listening.error().message() + "; moat stop and moat renew cannot reach this session");
    }
    control_->sandboxStarted(isoTime(expiresAt_));

    const int ttyFd = stdio_.userTerminalFd;
    if (sandbox_.ptyMaster) {
        terminal_ = std::make_unique<TerminalGuard>(ttyFd);
        terminal_->copyWindowSize(sandbox_.ptyMaster.get());  // a resize since the launch
        if (stdio_.stdinTty) {
            terminal_->makeRaw();
        }
    }

    relay_ = std::make_unique<StdioRelay>();
    auto dupMaster = [this] { return UniqueFd(::fcntl(sandbox_.ptyMaster.get(), F_DUPFD_CLOEXEC, 3)); };
    relay_->add({STDIN_FILENO, stdio_.stdinTty ? dupMaster() : std::move(sandbox_.stdinWrite), true, true});
    relay_->add({STDOUT_FILENO, stdio_.stdoutTty ? dupMaster() : std::move(sandbox_.stdoutRead), false, true});
    if (stdio_.stderrTty && stdio_.stdoutTty) {
        // One pty carries both: relaying it twice would duplicate the output.
    } else {
        relay_->add({STDERR_FILENO, stdio_.stderrTty ? dupMaster() : std::move(sandbox_.stderrRead), false, true});
    }
    if (control_->embedded() && stdio_.stdinTty && stdio_.stderrTty) {
        // The user's keystrokes pass through the relay: a question to the
        // user takes them over while it waits for the answer.
        question_ = std::make_unique<TerminalQuestion>(STDIN_FILENO, STDERR_FILENO);
        question_->attach(relay_.get());
        relay_->intercept(question_.get());
    }
    relay_->start();

    watchInit();
    watchChannel();
    watchSignals();
    startExecNotifier();
    startDnsStub();
    startEgressProxy();
    armTtl();
    io_.run();

    relay_->finish(2000);
    if (terminal_) {
        terminal_->restore();
    }
    control_->closeRequests();
    record("session.end", {{"reason", endReason_}, {"exit_code", exitCode_}});
    sealRecords();
    (void)store_->writeStatus({{"state", endState()},
                               {"exit_code", exitCode_},
                               {"started", isoTime(startedAt_)},
                               {"expires", isoTime(expiresAt_)},
                               {"ended", isoTime(std::chrono::system_clock::now())}});
    control_->end(endState(), exitCode_);
    return exitCode_;
}

void Supervisor::watchInit()
{
    initWatch_.emplace(io_, ::fcntl(sandbox_.pidfd.get(), F_DUPFD_CLOEXEC, 3));
    initWatch_->async_wait(asio::posix::descriptor_base::wait_read, [this](const boost::system::error_code& ec) {
        if (!ec) {
            onInitExited();
        }
    });
}

void Supervisor::onInitExited()
{
    // The pidfd shares its file description with the event loop's copy,
    // which is non-blocking; a readable pidfd can precede the moment the
    // child is reapable (e.g. under ptrace), so wait for it for real.
    const int pidfd = sandbox_.pidfd.get();
    ::fcntl(pidfd, F_SETFL, ::fcntl(pidfd, F_GETFL) & ~O_NONBLOCK);
    siginfo_t info{};
    int waited;
    do {
        waited = ::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(pidfd), &info, WEXITED);
    } while (waited != 0 && errno == EINTR);
    if (waited == 0) {
        exitCode_ = info.si_code == CLD_EXITED ? info.si_status : 128 + info.si_status;
    } else {
        spdlog::error("cannot collect the sandbox's exit status: {}", std::strerror(errno));
    }
    if (expired_) {
        endReason_ = "expired";
    } else if (stopped_) {
        endReason_ = "stopped";
    }
    (void)drainChannel();  // e.g. why the command could not be executed
    ttlTimer_.cancel();
    graceTimer_.cancel();
    if (execNotifier_) {
        execNotifier_->stop();
    }
    if (dnsStub_) {
        dnsStub_->stop();
    }
    if (egressProxy_) {
        egressProxy_->stop();
    }
    signals_.cancel();
    if (channelWatch_) {
        channelWatch_->cancel();
    }
    io_.stop();
}

void Supervisor::watchChannel()
{
    if (!channelWatch_) {
        ::fcntl(sandbox_.channel.fd(), F_SETFL, ::fcntl(sandbox_.channel.fd(), F_GETFL) | O_NONBLOCK);
        channelWatch_.emplace(io_, ::fcntl(sandbox_.channel.fd(), F_DUPFD_CLOEXEC, 3));
    }
    channelWatch_->async_wait(asio::posix::descriptor_base::wait_read, [this](const boost::system::error_code& ec) {
        if (!ec && drainChannel()) {
            watchChannel();
        }
    });
}

bool Supervisor::drainChannel()
{
    for (;;) {
        auto message = sandbox_.channel.receive();
        if (!message) {
            // EAGAIN: nothing more for now. Anything else: init is gone, and
            // the pidfd tells how it ended.
            return message.error().errnum == EAGAIN;
        }
        handleInitMessage(message->body);
    }
}

void Supervisor::handleInitMessage(const nlohmann::json& body)
{
    // From here on init speaks from inside the sandbox: only act on messages
    // whose worst case is a wrong line on the user's terminal.
    const std::string type = body["t"].get<std::string>();
    if (type == "started") {
        record("exec", {{"argv", spec_.command}, {"pid", body.value("pid", 0)}});
        releaseExecReports();
    } else if (type == "exec_failed") {
        const int err = body.value("errno", 0);
        say("cannot execute '" + spec_.command.front() + "' in the sandbox: " + std::strerror(err) +
            (err == ENOENT ? ". Is it installed in the image and on the sandbox's PATH?" : ""));
        record("exec", {{"argv", spec_.command}, {"error", std::strerror(err)}});
        releaseExecReports();
    } else if (type == "stopped") {
        onJobStopped();
    }
}

void Supervisor::onJobStopped()
{
    // Ctrl-Z in the agent's terminal: hand the user's terminal back to their
    // shell by stopping ourselves (and the moat CLI in our process group).
    if (!terminal_ || !stdio_.stdinTty || ::tcgetpgrp(STDIN_FILENO) != ::getpgrp()) {
        (void)sandbox_.channel.send({{"t", "resume"}});
        return;
    }
    terminal_->restore();
    ::kill(0, SIGTSTP);
}

void Supervisor::watchSignals()
{
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGCONT, SIGUSR1, SIGUSR2}) {
        signals_.add(sig);
    }
    signals_.async_wait([this](const boost::system::error_code& ec, int sig) {
        if (ec) {
            return;
        }
        if (sig == SIGWINCH) {
            if (terminal_ && sandbox_.ptyMaster) {
                terminal_->copyWindowSize(sandbox_.ptyMaster.get());
            }
        } else if (sig == SIGCONT) {
            if (terminal_ && stdio_.stdinTty) {
                terminal_->makeRaw();
                terminal_->copyWindowSize(sandbox_.ptyMaster.get());
            }
            (void)sandbox_.channel.send({{"t", "resume"}});
        } else {
            forwardSignal(sig);
        }
        watchSignals();
    });
}

void Supervisor::forwardSignal(int sig)
{
    // Init forwards it to the command's process group.
    sys::pidfdSendSignal(sandbox_.pidfd.get(), sig);
}

void Supervisor::armTtl()
{
    ttlTimer_.expires_after(spec_.ttl.seconds());  // from now: expiresAt_ was set with it
    ttlTimer_.async_wait([this](const boost::system::error_code& ec) {
        if (ec || stopped_) {
            return;
        }
        expired_ = true;
        record("ttl.expire", {{"ttl", spec_.ttl.toString()}, {"grace_seconds", options_.termGrace.count()}});
        say("session " + spec_.name + " reached its time limit (--ttl " + spec_.ttl.toString() +
            "); stopping it. Start it again with a longer --ttl if the task needs more time");
        terminateSandbox();
    });
}

void Supervisor::terminateSandbox()
{
    forwardSignal(SIGTERM);
    graceTimer_.expires_after(options_.termGrace);
    graceTimer_.async_wait([this](const boost::system::error_code& graceEc) {
        if (!graceEc) {
            // Killing pid 1 of the sandbox kills everything in it.
            sys::pidfdSendSignal(sandbox_.pidfd.get(), SIGKILL);
        }
    });
}

void Supervisor::stopFor(const nlohmann::json& by)
{
    if (stopped_ || expired_) {
        return;  // already on its way out
    }
    stopped_ = true;
    ttlTimer_.cancel();
    record("session.stop", {{"by", by}, {"grace_seconds", options_.termGrace.count()}});
    say("session " + spec_.name + " is being stopped (moat stop)");
    terminateSandbox();
}

Result<std::string> Supervisor::renewFor(const std::string& ttl, const nlohmann::json& by)
{
    if (stopped_ || expired_) {
        return Error{"session " + spec_.name + " is already stopping; it cannot be renewed", 0,
                     "Start a new session instead"};
    }
    if (!ttl.empty()) {
        auto duration = Duration::parse(ttl);
        if (!duration) {
            return duration.error();
        }
        spec_.ttl = duration.value();
    }
    expiresAt_ = std::chrono::system_clock::now() + spec_.ttl.seconds();
    armTtl();
    const std::string expires = isoTime(expiresAt_);
    record("ttl.renew", {{"ttl", spec_.ttl.toString()}, {"expires", expires}, {"by", by}});
    writeRunningStatus();
    control_->expiryChanged(expires);
    return expires;
}

void Supervisor::writeRunningStatus() const
{
    (void)store_->writeStatus({{"state", "running"},
                               {"started", isoTime(startedAt_)},
                               {"expires", isoTime(expiresAt_)},
                               {"supervisor_pid", ::getpid()},
                               {"embedded", control_->embedded()}});
}

std::string Supervisor::endState() const
{
    return stopped_ ? "stopped" : expired_ ? "expired" : "exited";
}

}  // namespace moat
