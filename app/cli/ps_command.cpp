// SPDX-License-Identifier: Apache-2.0
#include "ps_command.h"

#include "session_directory.h"

#include <algorithm>
#include <iostream>

namespace moat::cli {

namespace {

std::string joined(const nlohmann::json& values)
{
    std::string text;
    for (const auto& value : values) {
        text += (text.empty() ? "" : ",") + value.get<std::string>();
    }
    return text.empty() ? "-" : text;
}

std::string orDash(const std::string& text)
{
    return text.empty() ? "-" : text;
}

void printTable(const std::vector<nlohmann::json>& rows)
{
    const std::vector<std::string> headers = {"ID", "NAME", "STATE", "IMAGE", "STARTED", "EXPIRES", "FLAGS"};
    std::vector<std::vector<std::string>> cells;
    for (const auto& row : rows) {
        std::string state = row["state"].get<std::string>();
        if (!row["exit_code"].is_null() && state != "running") {
            state += "(" + std::to_string(row["exit_code"].get<int>()) + ")";
        }
        cells.push_back({row["id"].get<std::string>(), orDash(row["name"].get<std::string>()), state,
                         orDash(row["image"].get<std::string>()), orDash(row["started"].get<std::string>()),
                         orDash(row["expires"].get<std::string>()), joined(row["flags"])});
    }
    std::vector<size_t> widths;
    for (const auto& header : headers) {
        widths.push_back(header.size());
    }
    for (const auto& line : cells) {
        for (size_t i = 0; i < line.size(); ++i) {
            widths[i] = std::max(widths[i], line[i].size());
        }
    }
    auto print = [&widths](const std::vector<std::string>& line) {
        std::string text;
        for (size_t i = 0; i < line.size(); ++i) {
            text += line[i];
            if (i + 1 < line.size()) {
                text += std::string(widths[i] - line[i].size() + 2, ' ');
            }
        }
        std::cout << text << "\n";
    };
    print(headers);
    for (const auto& line : cells) {
        print(line);
    }
}

}  // namespace

PsCommand::PsCommand(CLI::App& parent)
{
    command_ = parent.add_subcommand("ps", "List sessions (running ones; --all for past sessions too)");
    command_->add_flag("--all", all_, "Past sessions too (exited, expired, stopped, failed)");
    command_->add_flag("--json", json_, "An array of {id,name,state,image,flags,started,expires,exit_code}");
    command_->footer("A running session whose supervisor is gone shows as failed.");
}

int PsCommand::execute()
{
    const SessionDirectory sessions(MoatPaths::fromEnvironment());
    std::vector<nlohmann::json> rows;
    for (const auto& entry : sessions.list()) {
        if (all_ || entry.running() || entry.state == "starting") {
            rows.push_back(entry.toPsJson());
        }
    }
    if (json_) {
        std::cout << nlohmann::json(rows).dump(2) << "\n";
    } else if (rows.empty()) {
        std::cout << (all_ ? "no sessions\n" : "no running sessions (moat ps --all for past ones)\n");
    } else {
        printTable(rows);
    }
    return 0;
}

}  // namespace moat::cli
