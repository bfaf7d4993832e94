// SPDX-License-Identifier: Apache-2.0
#include "probe_command.h"

#include "probe/grades.h"
#include "probe/host_probe.h"
#include "probe/privilege_checks.h"
#include "terminal_text.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace moat::cli {

namespace {

nlohmann::ordered_json asJson(const std::vector<probe::Criterion>& criteria, const probe::Checks& checks)
{
    nlohmann::ordered_json report = {{"target", "host"}, {"criteria", nlohmann::ordered_json::array()},
                                     {"checks", nlohmann::ordered_json::array()}};
    for (const auto& criterion : criteria) {
        report["criteria"].push_back({{"id", criterion.id},
                                      {"name", criterion.name},
                                      {"grade", std::string(1, criterion.grade)},
                                      {"evidence", criterion.evidence}});
    }
    for (const auto& check : checks) {
        report["checks"].push_back({{"name", check.name}, {"ok", check.ok}, {"detail", check.detail}});
    }
    return report;
}

void printCard(const std::vector<probe::Criterion>& criteria, const probe::Checks& checks)
{
    std::cout << "moat probe: this machine, as user " << terminalSafe(probe::currentUserName())
              << " (rules: docs/probe.md)\n\n";
    for (const auto& criterion : criteria) {
        std::cout << criterion.grade << "  " << criterion.id << ". " << criterion.name << "\n";
        for (const auto& line : criterion.evidence) {
            std::cout << "     " << terminalSafe(line) << "\n";
        }
    }
    std::cout << "\nchecks:\n";
    for (const auto& check : checks) {
        std::cout << (check.ok ? "  ok      " : "  NOT ok  ") << check.name << ": " << terminalSafe(check.detail)
                  << "\n";
    }
}

}  // namespace

ProbeCommand::ProbeCommand(CLI::App& parent)
{
    command_ = parent.add_subcommand("probe", "Grade the seven criteria A-D (docs/probe.md)");
    command_->add_flag("--host", host_, "Run the checks on this machine as the current user");
    command_->add_flag("--json", json_, "Print the report as JSON (CLI.md)");
}

int ProbeCommand::execute()
{
    if (!host_) {
        std::cerr << "moat probe without --host (inside a fresh sandbox) is not built yet; use --host\n";
        return 125;
    }
    const auto checks = probe::runHostChecks();
    const auto criteria = probe::gradeCriteria(checks, probe::Target::Host);
    if (json_) {
        std::cout << asJson(criteria, checks).dump() << "\n";
    } else {
        printCard(criteria, checks);
    }
    return 0;
}

}  // namespace moat::cli
