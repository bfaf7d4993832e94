// SPDX-License-Identifier: Apache-2.0
#include "claims_command.h"

#include "claims/claims_report.h"
#include "claims/default_claims.h"
#include "claims/landlock_rights.h"
#include "terminal_text.h"

#include <cerrno>
#include <cstring>
#include <iostream>
#include <sstream>

namespace moat::cli {

namespace {

std::string kernelLine(const claims::ClaimsContext& context)
{
    std::string line = "kernel " + context.kernelRelease + ": ";
    const int abi = claims::abiInUse(context.landlockKernelAbi);
    if (abi < 0) {
        line += "no Landlock";
    } else {
        line += "Landlock ABI " + std::to_string(abi) + " in use (the kernel offers " +
                std::to_string(context.landlockKernelAbi) + ")";
    }
    line += context.seccomp ? ", seccomp filters" : ", no seccomp filters";
    return line;
}

// Everything printed passes through terminalSafe: paths come from the
// environment (MOAT_STATE_DIR, HOME) and may hold any byte.
std::string report(const claims::ClaimsContext& context, const std::vector<claims::Claim>& claims)
{
    std::ostringstream out;
    out << "moat claims: what moat " << MOAT_VERSION << " promises for a default sandbox (moat run, no flags)\n"
        << terminalSafe(kernelLine(context)) << "\n";
    std::string area;
    for (const auto& claim : claims) {
        if (claim.area != area) {
            area = claim.area;
            out << "\n" << terminalSafe(area) << "\n";
        }
        out << "  " << terminalSafe(claim.id) << ": " << terminalSafe(claim.text)
            << " [verified by: " << terminalSafe(claim.check) << "]\n";
        for (const auto& detail : claim.details) {
            out << "      - " << terminalSafe(detail) << "\n";
        }
    }
    out << "\nEach check runs inside a fresh default sandbox: moat probe (docs/claims.md, docs/probe.md).\n";
    return out.str();
}

}  // namespace

ClaimsCommand::ClaimsCommand(CLI::App& parent)
{
    command_ = parent.add_subcommand(
        "claims", "What a default sandbox promises on this build and kernel, each claim with its moat probe check");
    command_->add_flag("--json", json_, "Print the claims as JSON (docs/claims.md)");
}

int ClaimsCommand::execute()
{
    const auto context = claims::ClaimsContext::current();
    const auto claims = claims::defaultSandboxClaims(context);
    std::string text;
    if (json_) {
        // Paths may not be UTF-8: replaced, never a thrown type_error.
        text = claims::claimsReport(MOAT_VERSION, context, claims)
                   .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
               "\n";
    } else {
        text = report(context, claims);
    }
    std::cout << text << std::flush;
    if (!std::cout) {
        std::cerr << "moat claims: cannot write the report to standard output: " << std::strerror(errno) << "\n";
        return 125;
    }
    return 0;
}

}  // namespace moat::cli
