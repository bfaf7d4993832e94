// SPDX-License-Identifier: Apache-2.0
// moat-supervisor: one per session, outside the sandbox. Started by `moat`
// (embedded mode) or by moatd, never by hand. Reads the session's
// SandboxSpec as JSON from --spec-fd, runs the session, and exits with the
// status `moat run` reports. moatd passes --parent-fd, its end of the parent
// link (session/parent_link.h).

#include "audit/record_keys.h"
#include "base/moat_paths.h"
#include "policy/spec_json.h"
#include "session/secret_handoff.h"
#include "session/session_interception.h"
#include "session/supervisor.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <iostream>

namespace {

moat::Result<std::string> readAll(int fd)
{
    std::string text;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return moat::Error::fromErrno("cannot read the session spec", errno);
        }
        if (n == 0) {
            return text;
        }
        text.append(buffer, static_cast<size_t>(n));
        if (text.size() > (1 << 20)) {
            return moat::Error{"the session spec is larger than 1 MiB", EFBIG};
        }
    }
}

// The parent link must be what moatd hands over: a SOCK_SEQPACKET socket.
// Anything else is refused rather than spoken to in the wrong framing.
bool isParentLink(int fd)
{
    int type = 0;
    socklen_t length = sizeof type;
    return ::fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 && ::getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0 &&
           type == SOCK_SEQPACKET;
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App app{"moat-supervisor: runs one moat session outside its sandbox (started by moat, not by hand)",
                 "moat-supervisor"};
    int specFd = -1;
    int keysFd = -1;
    int parentFd = -1;
    int secretsFd = -1;
    std::string jsonEvents;
    int verbosity = 0;
    app.add_option("--spec-fd", specFd, "Read the SandboxSpec JSON from this fd")->required();
    app.add_option("--keys-fd", keysFd, "Read the record keys from this fd (a sealed memfd from moat)")->required();
    app.add_option("--secrets-fd", secretsFd, "Read the session's secrets from this fd (a sealed memfd)");
    app.add_option("--parent-fd", parentFd, "Talk to the parent (moatd) on this fd, a SOCK_SEQPACKET socket");
    app.add_option("--json-events", jsonEvents, "Also write the session's events to FILE");
    app.add_flag("-v,--verbose", verbosity, "More diagnostics (repeatable)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 125;
    }

    auto logger = spdlog::stderr_logger_st("moat-supervisor");
    spdlog::set_default_logger(logger);
    spdlog::set_level(verbosity >= 2 ? spdlog::level::trace
                      : verbosity == 1 ? spdlog::level::debug
                                       : spdlog::level::warn);

    ::signal(SIGPIPE, SIG_IGN);

    // The keys are read (into memory child processes do not inherit) and
    // their fd closed before anything else: sandbox init is a clone of this
    // process and must hold neither.
    auto keys = moat::RecordKeys::readFrom(keysFd);
    ::close(keysFd);
    // The secrets' values go straight to locked memory that a fork (sandbox
    // init) sees wiped (LockedSecret).
    std::vector<moat::HandedOverSecret> secrets;
    if (secretsFd >= 0) {
        auto handed = moat::readSecretHandoff(secretsFd);
        ::close(secretsFd);
        if (!handed) {
            std::cerr << "moat: " << handed.error().message() << "\n";
            return 125;
        }
        secrets = std::move(handed.value());
    }
    auto text = readAll(specFd);
    ::close(specFd);
    if (parentFd >= 0 && !isParentLink(parentFd)) {
        std::cerr << "moat: --parent-fd " << parentFd << " is not a SOCK_SEQPACKET socket\n";
        return 125;
    }
    if (!keys) {
        std::cerr << "moat: " << keys.error().message() << "\n";
        return 125;
    }
    if (!text) {
        std::cerr << "moat: " << text.error().message() << "\n";
        return 125;
    }
    auto json = nlohmann::json::parse(text.value(), nullptr, false);
    auto spec = moat::specFromJson(json);
    if (!spec) {
        std::cerr << "moat: " << spec.error().message() << "\n";
        return 125;
    }
    spdlog::debug("session {} ({}) starting", spec->sessionId, spec->name);
    moat::SupervisorOptions options;
    options.jsonEventsPath = jsonEvents;
    options.parentFd = parentFd;
    options.recordKeys = std::make_shared<const moat::RecordKeys>(std::move(keys.value()));
    auto interception = moat::SessionInterception::prepare(spec.value(), std::move(secrets));
    if (!interception) {
        std::cerr << "moat: " << interception.error().message() << "\n";
        return 125;
    }
    if (auto prepared = interception.value()) {
        options.sessionCaPem = prepared->caPem();
        options.extraEnvironment = prepared->placeholderEnvironment();
        options.interceptionSummary = prepared->summary();
        options.interception = [prepared](moat::HttpAskDesk* desk,
                                          std::function<void(const std::string&, nlohmann::json)> record) {
            return prepared->proxyInterception(desk, std::move(record));
        };
    }
    moat::Supervisor supervisor(std::move(spec.value()), moat::MoatPaths::fromEnvironment(), options);
    return supervisor.run();
}
