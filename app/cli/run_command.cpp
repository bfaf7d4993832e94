// SPDX-License-Identifier: Apache-2.0
#include "run_command.h"

#include "attached_session.h"
#include "base/moat_paths.h"
#include "moatd_client.h"
#include "policy/profile.h"
#include "policy/spec_builder.h"
#include "policy/spec_json.h"
#include "record_key_store.h"
#include "session_secrets.h"
#include "supervisor_process.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <iostream>

extern char** environ;

namespace moat::cli {

namespace {

std::map<std::string, std::string> callerEnvironment()
{
    std::map<std::string, std::string> env;
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string item = *entry;
        const auto eq = item.find('=');
        if (eq != std::string::npos) {
            env.emplace(item.substr(0, eq), item.substr(eq + 1));
        }
    }
    return env;
}

std::string currentDirectory()
{
    char buffer[PATH_MAX];
    return ::getcwd(buffer, sizeof buffer) ? std::string(buffer) : std::string("/");
}

}  // namespace

RunCommand::RunCommand(CLI::App& parent)
{
    command_ = parent.add_subcommand("run", "Run a command in a new sandbox");
    command_->footer(
        "A fresh sandbox gets no network, no sudo, no host secrets and no host home: each is one flag.\n"
        "Exit status: COMMAND's; 128+N when signal N ended it; 125 when moat failed (the message says why);\n"
        "126 when COMMAND is not executable; 127 when it is not found.");
    auto* image = command_->add_option("--image", request_.image,
                                       "'host' (the host's /usr, read-only) or a root file system directory");
    image->default_str("host")->type_name("REF");
    command_->add_option("--workspace", request_.workspace,
                         "Mounted read-write at its own path; the working directory inside (default: .)")
        ->type_name("DIR");
    command_->add_option("--ro", request_.readOnlyPaths, "One more host path, read-only, at the same path (repeatable)")
        ->type_name("PATH")
        ->allow_extra_args(false);
    command_->add_option("--rw", request_.readWritePaths,
                         "One more host path, read-write, at the same path (repeatable)")
        ->type_name("PATH")
        ->allow_extra_args(false);
    command_->add_option("--env", request_.env, "Pass one variable, from your environment when no VALUE (repeatable)")
        ->type_name("NAME[=VALUE]")
        ->allow_extra_args(false);
    command_->add_flag("--sudo", request_.sudo, "The agent is root inside its own user namespace (no host privilege)");
    command_->add_flag("--docker", request_.docker, "A container engine inside the sandbox (not in this build)");
    netOption_ = command_->add_option("--net", request_.net,
                         "proxy (default: out only through moat's proxy, to --allow-host hosts; DNS answered and "
                         "recorded by moat), none (loopback only), or open (the host's network)")
        ->type_name("MODE");
    command_->add_option("--allow-host", request_.allowHosts,
                         "Let the agent reach HOST through moat's proxy: example.com (ports 80 and 443), "
                         "example.com:8443, *.example.com (its subdomains), 203.0.113.7:443, [2001:db8::1]:443 "
                         "(repeatable; only with --net proxy)")
        ->type_name("HOST[:PORT]")
        ->allow_extra_args(false);
    command_->add_flag("--yolo", request_.yolo,
                       "--sudo --net open and every host path you can read, read-only; recorded as yolo");
    command_->add_flag("--local-tcp", request_.localTcp,
                       "Let the agent bind and connect TCP on its own loopback (servers for tests)");
    command_->add_option("--rule", request_.rules,
                         "An HTTP rule for a host, 'METHOD HOST PATH allow|deny|ask', or a git push rule, "
                         "'push HOST REPO REF allow|deny|ask'; first match wins, a host with rules denies what none "
                         "allows (repeatable; docs/rules.md)")
        ->type_name("RULE")
        ->allow_extra_args(false);
    command_->add_option("--secret", request_.secrets,
                         "Put a placeholder for keychain secret NAME in ENVVAR (default NAME); the proxy swaps in "
                         "the value only for the secret's hosts (repeatable; docs/secrets.md)")
        ->type_name("NAME[=ENVVAR]")
        ->allow_extra_args(false);
    command_->add_option("--upstream-ca", request_.upstreamCa,
                         "Also trust this CA file for the TLS of hosts the proxy intercepts (a private registry)")
        ->type_name("FILE");
    command_->add_option("--ask-timeout", request_.askTimeout,
                         "How long a request an `ask` rule holds waits for an answer before it is refused "
                         "(default 60s, at most 1h)")
        ->type_name("DURATION");
    command_->add_option("--profile", profile_,
                         "Flags from profiles/NAME.toml (yours, or built in such as github-readonly=OWNER/REPO)")
        ->type_name("NAME[=VALUE]");
    ttlOption_ = command_->add_option("--ttl", request_.ttl, "Stop the sandbox after this long, e.g. 30m, 8h (default 8h)")
        ->type_name("DURATION");
    command_->add_option("--name", request_.name, "A name for the session (default: generated)");
    command_->add_option("--allow-degraded", request_.allowDegraded,
                         "Start although LAYER (landlock, seccomp) is unavailable; recorded")
        ->type_name("LAYER")
        ->allow_extra_args(false);
    command_->add_option("--json-events", jsonEvents_, "Also write the session's events to FILE, one JSON a line")
        ->type_name("FILE");
    command_->add_flag("--embedded", embedded_,
                       "Do not use moatd: run the session's supervisor in this process (automatic when no "
                       "session bus is there, or moatd is neither running nor activatable on it)");
    command_->add_option("command", request_.command, "The command to run, after --")->type_name("COMMAND");
    // Options end at the command: `moat run ls -la` runs `ls -la`.
    command_->positionals_at_end(true);
}

Status RunCommand::applyProfile()
{
    if (profile_.empty()) {
        return {};
    }
    auto profile = Profile::load(profile_);
    if (!profile) {
        Error error = profile.error();
        error.what = "--profile: " + error.what;
        return error;
    }
    ProfileFlags given{request_.allowHosts, request_.rules, request_.secrets, std::nullopt, std::nullopt};
    if (netOption_->count() > 0) {
        given.net = request_.net;
    }
    if (ttlOption_->count() > 0) {
        given.ttl = request_.ttl;
    }
    const ProfileFlags merged = mergeProfile(given, profile->flags);
    request_.allowHosts = merged.allowHosts;
    request_.rules = merged.rules;
    request_.secrets = merged.secrets;
    request_.net = merged.net.value_or(request_.net);
    request_.ttl = merged.ttl.value_or(request_.ttl);
    return {};
}

int RunCommand::execute(int verbosity)
{
    const MoatPaths paths = MoatPaths::fromEnvironment();
    if (auto profiled = applyProfile(); !profiled) {
        std::cerr << "moat: " << profiled.error().message() << "\n";
        return 125;
    }
    SpecBuilder builder(paths, callerEnvironment(), currentDirectory());
    auto spec = builder.build(request_);
    if (!spec) {
        std::cerr << "moat: " << spec.error().message() << "\n";
        return 125;
    }
    if (!profile_.empty()) {
        spec->profile = profile_.substr(0, profile_.find('='));  // its own HOME (homes/<profile>)
    }
    std::string eventsPath = jsonEvents_;
    if (!eventsPath.empty() && eventsPath.front() != '/') {
        eventsPath = currentDirectory() + "/" + eventsPath;
    }
    const std::string specJson = specToJson(spec.value()).dump();
    // --json-events names a file of the caller's; the supervisor moatd
    // starts would write it as moatd, from elsewhere: embedded only.
    if (!embedded_ && eventsPath.empty()) {
        // Blocked before Qt starts its threads, which inherit the mask: a
        // signal must reach signalfd, not kill moat in QtDBus's thread. A
        // Ctrl-C while moatd starts the session is forwarded, not lost.
        AttachedSession::SignalBlock signals;
        // Qt is loaded only past this point, and only when a bus is there.
        auto moatd = connectToMoatd();
        if (!moatd) {
            std::cerr << "moat: cannot reach moatd: " << moatd.error().message() << "\n";
            return 125;
        }
        if (moatd.value()) {
            if (auto status = runThroughMoatd(*moatd.value(), specJson, spec->sessionId, paths, signals)) {
                return *status;
            }
            // moatd went away between the look and the call: run embedded.
        }
    }  // the signal mask is restored here: the supervisor exec'd below inherits it
    std::vector<std::string> secretNames;
    for (const auto& secret : spec->secrets) {
        secretNames.push_back(secret.name);
    }
    return runEmbedded(paths, specJson, secretNames, eventsPath, verbosity);
}

std::optional<int> RunCommand::runThroughMoatd(MoatdClient& moatd, const std::string& specJson,
                                               const std::string& sessionId, const MoatPaths& paths,
                                               const AttachedSession::SignalBlock& signals)
{
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        std::cerr << "moat: cannot make the link to moatd: " << std::strerror(errno) << "\n";
        return 125;
    }
    UniqueFd link(pair[0]);
    UniqueFd theirs(pair[1]);
    const MoatdReply reply = moatd.startSession(specJson, STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO, theirs.get());
    theirs.reset();
    if (!reply.ok) {
        if (reply.absent()) {
            return std::nullopt;
        }
        std::cerr << "moat: moatd did not start the session: " << reply.errorMessage << " (" << reply.errorName
                  << "). Run with --embedded to start it without moatd\n";
        return 125;
    }
    const std::string started = reply.value.empty() ? sessionId : reply.value;
    AttachedSession session(std::move(link), started, paths, signals);
    return session.run();
}

int RunCommand::runEmbedded(const MoatPaths& paths, const std::string& specJson,
                            const std::vector<std::string>& secretNames, const std::string& eventsPath, int verbosity)
{
    // The record keys travel like the spec, on a sealed memfd that
    // moat-supervisor reads and closes before the sandbox exists.
    keychain::RecordKeyStore store(paths);
    auto keys = store.keysForNewSession();
    if (!keys) {
        std::cerr << "moat: cannot get the record keys: " << keys.error().message() << "\n";
        return 125;
    }
    if (!keys->notice.empty()) {
        std::cerr << "moat: " << keys->notice << "\n";
    }
    auto keysFd = keys->keys.toSealedMemfd();
    if (!keysFd) {
        std::cerr << "moat: " << keysFd.error().message() << "\n";
        return 125;
    }
    // The secrets' values, likewise (and only they: the spec names them).
    UniqueFd secretsFd;
    if (!secretNames.empty()) {
        auto handed = keychain::handOffSessionSecrets(paths, secretNames);
        if (!handed) {
            std::cerr << "moat: " << handed.error().message() << "\n";
            return 125;
        }
        secretsFd = std::move(handed.value());
        // Kept across the exec into moat-supervisor, which closes it once read.
        if (::fcntl(secretsFd.get(), F_SETFD, 0) != 0) {
            std::cerr << "moat: cannot hand the secrets to moat-supervisor: " << std::strerror(errno) << "\n";
            return 125;
        }
    }
    return runSupervisor(specJson, keysFd->release(), secretsFd ? secretsFd.release() : -1, eventsPath, verbosity);
}

}  // namespace moat::cli
