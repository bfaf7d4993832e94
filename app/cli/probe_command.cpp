// SPDX-License-Identifier: Apache-2.0
#include "probe_command.h"

#include "probe/grades.h"
#include "probe/host_probe.h"
#include "probe/privilege_checks.h"
#include "sandbox_probe_run.h"
#include "terminal_text.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace moat::cli {

namespace {

nlohmann::ordered_json asJson(probe::Target target, const std::vector<std::string>& flags,
                              const std::vector<probe::Criterion>& criteria, const probe::Checks& checks)
{
    nlohmann::ordered_json report = {{"target", target == probe::Target::Host ? "host" : "sandbox"},
                                     {"criteria", nlohmann::ordered_json::array()},
                                     {"checks", nlohmann::ordered_json::array()}};
    if (target == probe::Target::Sandbox) {
        report["flags"] = flags;  // empty: the default sandbox
    }
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

void printCard(probe::Target target, const std::vector<std::string>& flags,
               const std::vector<probe::Criterion>& criteria, const probe::Checks& checks)
{
    if (target == probe::Target::Host) {
        std::cout << "moat probe: this machine, as user " << terminalSafe(probe::currentUserName());
    } else {
        std::string how = "moat run";
        for (const auto& flag : flags) {
            how += " " + flag;
        }
        std::cout << "moat probe: inside a fresh sandbox (" << terminalSafe(how) << "), as its agent";
    }
    std::cout << " (rules: docs/probe.md)\n\n";
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

// The flags that change the sandbox (--embedded only changes who starts it).
std::vector<std::string> flagsForDisplay(const std::vector<std::string>& flags)
{
    std::vector<std::string> shown;
    for (const auto& flag : flags) {
        if (flag != "--embedded") {
            shown.push_back(flag);
        }
    }
    return shown;
}

}  // namespace

ProbeCommand::ProbeCommand(CLI::App& parent)
{
    command_ = parent.add_subcommand("probe", "Grade the seven criteria A-D (docs/probe.md)");
    command_->add_flag("--host", host_, "Run the checks on this machine as the current user");
    command_->add_flag("--json", json_, "Print the report as JSON (CLI.md)");
    // A deliberately weakened sandbox, to see what a flag costs.
    command_->add_option("--net", net_, "Probe a sandbox with this network mode (proxy, none, open)");
    command_->add_option("--allow-host", allowHosts_, "Probe a sandbox that allows this host (repeatable)");
    command_->add_flag("--sudo", sudo_, "Probe a sandbox whose agent may become root in its user namespace");
    command_->add_option("--allow-degraded", allowDegraded_, "Probe a sandbox started with --allow-degraded=LAYER");
    command_->add_flag("--embedded", embedded_, "Start the probe's sandbox without moatd");
}

std::vector<std::string> ProbeCommand::runFlags() const
{
    std::vector<std::string> flags;
    if (!net_.empty()) {
        flags.push_back("--net=" + net_);
    }
    for (const auto& host : allowHosts_) {
        flags.push_back("--allow-host=" + host);
    }
    if (sudo_) {
        flags.push_back("--sudo");
    }
    for (const auto& layer : allowDegraded_) {
        flags.push_back("--allow-degraded=" + layer);
    }
    if (embedded_) {
        flags.push_back("--embedded");
    }
    return flags;
}

int ProbeCommand::execute()
{
    const auto flags = runFlags();
    if (host_ && !flags.empty()) {
        std::cerr << "moat probe: --host checks this machine; sandbox flags such as " << flags.front()
                  << " apply only without it\n";
        return 125;
    }
    const auto target = host_ ? probe::Target::Host : probe::Target::Sandbox;
    probe::Checks checks;
    if (host_) {
        checks = probe::runHostChecks();
    } else {
        auto probed = probeInFreshSandbox(flags);
        if (!probed) {
            std::cerr << "moat probe: " << terminalSafe(probed.error().message()) << "\n";
            return 125;
        }
        if (probed.value().interruptedBy != 0) {
            return 128 + probed.value().interruptedBy;
        }
        checks = std::move(probed.value().checks);
    }
    const auto criteria = probe::gradeCriteria(checks, target);
    const auto shownFlags = flagsForDisplay(flags);
    if (json_) {
        std::cout << asJson(target, shownFlags, criteria, checks).dump() << "\n";
    } else {
        printCard(target, shownFlags, criteria, checks);
    }
    return 0;
}

}  // namespace moat::cli
