// SPDX-License-Identifier: Apache-2.0
#include "logs_command.h"

#include "session_directory.h"
#include "terminal_text.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <thread>

namespace moat::cli {

namespace {

std::string scalarText(const nlohmann::json& value)
{
    return value.is_string() ? value.get<std::string>() : value.dump();
}

// "2026-12-01T10:00:00.123Z  #4  net.allow  host=example.com port=443 ..."
std::string readable(const std::string& line)
{
    const auto event = nlohmann::json::parse(line, nullptr, false);
    if (!event.is_object()) {
        return "(unreadable line) " + line;
    }
    std::string text = scalarText(event.value("ts", nlohmann::json("-"))) + "  #" +
                       scalarText(event.value("seq", nlohmann::json("?"))) + "  " +
                       event.value("type", std::string("?"));
    const auto data = event.value("data", nlohmann::json::object());
    if (data.is_object()) {
        for (const auto& item : data.items()) {
            text += "  " + item.key() + "=" + scalarText(item.value());
        }
    }
    return text;
}

bool isEnd(const std::string& line)
{
    // Cheap before exact: most lines are not the end.
    if (line.find("\"session.end\"") == std::string::npos) {
        return false;
    }
    const auto event = nlohmann::json::parse(line, nullptr, false);
    return event.is_object() && event.value("type", std::string()) == "session.end";
}

}  // namespace

LogsCommand::LogsCommand(CLI::App& parent)
{
    command_ = parent.add_subcommand("logs", "Show a session's timeline");
    command_->add_option("session", session_, "Session id, unique id prefix, or name")->required()->type_name("ID");
    command_->add_flag("-f,--follow", follow_, "Keep printing new events until the session ends");
    command_->add_flag("--json", json_, "The events as recorded, one JSON object a line");
}

int LogsCommand::execute()
{
    const SessionDirectory sessions(MoatPaths::fromEnvironment());
    auto entry = sessions.resolve(session_);
    if (!entry) {
        std::cerr << "moat: " << entry.error().message() << "\n";
        return 125;
    }
    const int fd = ::open(entry->eventsPath().c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 && !(follow_ && errno == ENOENT)) {
        std::cerr << "moat: cannot read the timeline of session " << entry->id << " (" << entry->eventsPath()
                  << "): " << std::strerror(errno) << "\n";
        return 125;
    }
    int eventsFd = fd;
    std::string pending;
    bool ended = false;
    char buffer[65536];
    for (;;) {
        if (eventsFd < 0) {
            eventsFd = ::open(entry->eventsPath().c_str(), O_RDONLY | O_CLOEXEC);
        }
        ssize_t n = eventsFd < 0 ? 0 : ::read(eventsFd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n > 0) {
            pending.append(buffer, static_cast<size_t>(n));
            size_t start = 0;
            for (size_t newline; (newline = pending.find('\n', start)) != std::string::npos; start = newline + 1) {
                const std::string line = pending.substr(start, newline - start);
                std::cout << (json_ ? line : terminalSafe(readable(line))) << "\n";
                ended = ended || isEnd(line);
            }
            pending.erase(0, start);
            continue;
        }
        std::cout.flush();
        if (!follow_ || ended) {
            break;
        }
        // No session.end yet: wait, unless the session can write no more.
        auto now = sessions.read(entry->id);
        if (!now || (now->state != "running" && now->state != "starting")) {
            // One last read: the end may have landed just before.
            if (n == 0 && eventsFd >= 0) {
                const ssize_t last = ::read(eventsFd, buffer, sizeof buffer);
                if (last > 0) {
                    pending.append(buffer, static_cast<size_t>(last));
                    continue;
                }
            }
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (eventsFd >= 0) {
        ::close(eventsFd);
    }
    // A last line without its newline is a torn write (docs/records.md): left out.
    return 0;
}

}  // namespace moat::cli
