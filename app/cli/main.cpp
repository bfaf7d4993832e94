// SPDX-License-Identifier: Apache-2.0
// moat: the command-line client (CLI.md is its contract).

#include "approvals_command.h"
#include "audit_command.h"
#include "claims_command.h"
#include "logs_command.h"
#include "probe_command.h"
#include "ps_command.h"
#include "renew_command.h"
#include "request_command.h"
#include "run_command.h"
#include "secret_command.h"
#include "stop_command.h"

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <iostream>

int main(int argc, char** argv)
{
    CLI::App app{"moat: run AI coding agents in a sandbox they cannot talk their way out of", "moat"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("moat ") + MOAT_VERSION);
    int verbosity = 0;
    app.add_flag("-v,--verbose", verbosity, "More diagnostics on stderr (repeatable)");
    moat::cli::RunCommand run(app);
    moat::cli::AuditCommand audit(app);
    moat::cli::PsCommand ps(app);
    moat::cli::LogsCommand logs(app);
    moat::cli::StopCommand stop(app);
    moat::cli::RenewCommand renew(app);
    moat::cli::RequestCommand request(app);
    moat::cli::ApprovalsCommand approvals(app);
    moat::cli::ProbeCommand probe(app);
    moat::cli::SecretCommand secret(app);
    moat::cli::ClaimsCommand claims(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "moat: " << e.what() << ". See 'moat --help' or 'moat run --help'\n";
        return 125;
    }
    auto logger = spdlog::stderr_logger_st("moat");
    spdlog::set_default_logger(logger);
    spdlog::set_level(verbosity >= 2 ? spdlog::level::trace
                      : verbosity == 1 ? spdlog::level::debug
                                       : spdlog::level::warn);
    if (run.selected()) {
        return run.execute(verbosity);
    }
    if (request.selected()) {
        return request.execute();
    }
    if (audit.selected()) {
        return audit.execute();
    }
    if (ps.selected()) {
        return ps.execute();
    }
    if (logs.selected()) {
        return logs.execute();
    }
    if (stop.selected()) {
        return stop.execute();
    }
    if (renew.selected()) {
        return renew.execute();
    }
    if (approvals.selected()) {
        return approvals.execute();
    }
    if (probe.selected()) {
        return probe.execute();
    }
    if (secret.selected()) {
        return secret.execute();
    }
    if (claims.selected()) {
        return claims.execute();
    }
    return 125;
}
