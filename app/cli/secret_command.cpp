// SPDX-License-Identifier: Apache-2.0
#include "secret_command.h"

#include "base/moat_paths.h"
#include "egress/locked_secret.h"
#include "egress/secret_names.h"
#include "moatd_call.h"
#include "secret_book.h"
#include "terminal_text.h"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <iostream>

namespace moat::cli {

namespace {

int fail(const Error& error)
{
    std::cerr << "moat: " << error.message() << "\n";
    return 125;
}

std::string joined(const std::vector<std::string>& items)
{
    std::string text;
    for (const auto& item : items) {
        text += (text.empty() ? "" : ",") + terminalSafe(item, 200);
    }
    return text.empty() ? "-" : text;
}

// Echo off while a person types the value; restored on every way out.
class NoEcho {
public:
    NoEcho()
    {
        if (::isatty(STDIN_FILENO) == 1 && ::tcgetattr(STDIN_FILENO, &saved_) == 0) {
            termios quiet = saved_;
            quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
            active_ = ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == 0;
        }
    }
    ~NoEcho()
    {
        if (active_) {
            ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_);
            std::cerr << "\n";
        }
    }
    NoEcho(const NoEcho&) = delete;
    NoEcho& operator=(const NoEcho&) = delete;
    bool active() const { return active_; }

private:
    termios saved_{};
    bool active_ = false;
};

// moatd's list or the bindings file's, as {"name","hosts","headers"} with
// the default header filled in (what the swap will use).
nlohmann::json normalised(std::vector<keychain::SecretBinding> bindings)
{
    nlohmann::json list = nlohmann::json::array();
    for (auto& binding : bindings) {
        if (binding.headers.empty()) {
            binding.headers.emplace_back(kDefaultSecretHeader);
        }
        list.push_back({{"name", binding.name}, {"hosts", binding.hosts}, {"headers", binding.headers}});
    }
    return list;
}

std::vector<keychain::SecretBinding> fromMoatd(const std::string& json)
{
    std::vector<keychain::SecretBinding> bindings;
    const auto list = nlohmann::json::parse(json, nullptr, false);
    if (!list.is_array()) {
        return bindings;
    }
    for (const auto& entry : list) {
        if (!entry.is_object() || !entry.value("name", nlohmann::json()).is_string()) {
            continue;
        }
        keychain::SecretBinding binding{entry["name"].get<std::string>(), {}, {}};
        for (const char* field : {"hosts", "headers"}) {
            auto& into = std::string_view(field) == "hosts" ? binding.hosts : binding.headers;
            for (const auto& item : entry.value(field, nlohmann::json::array())) {
                if (item.is_string()) {
                    into.push_back(item.get<std::string>());
                }
            }
        }
        bindings.push_back(std::move(binding));
    }
    return bindings;
}

}  // namespace

SecretCommand::SecretCommand(CLI::App& parent)
{
    secret_ = parent.add_subcommand("secret", "Real secrets for sessions, kept in the OS keychain (docs/secrets.md)");
    secret_->require_subcommand(1);
    set_ = secret_->add_subcommand("set", "Store a secret: its value is read from stdin");
    set_->add_option("name", name_, "The secret's name; also the variable moat run --secret NAME sets")
        ->required()
        ->type_name("NAME");
    set_->add_option("--host", hosts_, "A host it may be sent to, as for --allow-host (repeatable; at least one)")
        ->type_name("HOST[:PORT]");
    set_->add_option("--header", headers_, "A header it may fill (repeatable)")
        ->type_name("NAME")
        ->default_str("Authorization");
    set_->footer(
        "The value is read from stdin (not echoed on a terminal); one trailing newline is removed. e.g.\n"
        "  printf %s \"$TOKEN\" | moat secret set GITHUB_TOKEN --host api.github.com\n"
        "Sessions get a placeholder (moat run --secret NAME); moat's proxy puts the value in its place only in\n"
        "these headers of requests to these hosts, over TLS. Setting a name again replaces value and bindings.");
    ls_ = secret_->add_subcommand("ls", "List secrets: names and bindings, never values");
    ls_->add_flag("--json", json_, "An array of {name,hosts,headers}");
    rm_ = secret_->add_subcommand("rm", "Remove a secret: its value from the keychain and its bindings");
    rm_->add_option("name", name_, "The secret's name")->required()->type_name("NAME");
}

int SecretCommand::execute()
{
    if (set_->parsed()) {
        return set();
    }
    return ls_->parsed() ? list() : remove();
}

Result<std::string> SecretCommand::readValue() const
{
    const NoEcho quiet;
    if (quiet.active()) {
        std::cerr << "Value of " << name_ << " (not shown; end with Enter): " << std::flush;
    }
    // One byte more than allowed, and room for the newline: a longer value
    // is refused rather than cut.
    std::string value(LockedSecret::kMaxSize + 3, '\0');
    size_t filled = 0;
    while (filled < value.size()) {
        const ssize_t n = ::read(STDIN_FILENO, value.data() + filled, value.size() - filled);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            const int err = errno;
            LockedSecret::wipe(value);
            return Error::fromErrno("cannot read the secret's value from stdin", err);
        }
        if (n == 0) {
            break;
        }
        filled += static_cast<size_t>(n);
        // A person ends with Enter; a pipe ends with end-of-file.
        if (quiet.active() && value[filled - 1] == '\n') {
            break;
        }
    }
    value.resize(filled);
    if (!value.empty() && value.back() == '\n') {
        value.pop_back();
        if (!value.empty() && value.back() == '\r') {
            value.pop_back();
        }
    }
    if (value.empty()) {
        return Error{"no value on stdin", 0,
                     "Give the value on stdin, e.g. printf %s \"$TOKEN\" | moat secret set " + name_ + " --host HOST"};
    }
    if (value.size() > LockedSecret::kMaxSize) {
        LockedSecret::wipe(value);
        return Error{"the value on stdin is longer than " + std::to_string(LockedSecret::kMaxSize) + " bytes"};
    }
    return value;
}

int SecretCommand::set()
{
    keychain::SecretBinding binding{name_, hosts_, headers_};
    // Everything the command line says is checked before the value is read.
    if (Status checked = keychain::SecretBook::check(binding); !checked) {
        return fail(checked.error());
    }
    auto read = readValue();
    if (!read) {
        return fail(read.error());
    }
    std::string& value = read.value();
    if (Status checked = checkSecretValue(value); !checked) {
        LockedSecret::wipe(value);
        return fail(checked.error());
    }
    auto viaMoatd =
        callMoatd([&](MoatdClient& moatd) { return moatd.setSecret(name_, value, binding.hosts, binding.headers); });
    Status stored;
    if (!viaMoatd) {
        stored = viaMoatd.error();
    } else if (!viaMoatd.value()) {
        spdlog::debug("moatd is not there: storing secret {} in the keychain directly", name_);
        stored = keychain::SecretBook(MoatPaths::fromEnvironment()).set(binding, value);
    }
    LockedSecret::wipe(value);
    if (!stored) {
        return fail(stored.error());
    }
    std::cerr << "moat: secret " << name_ << " is in the keychain; moat sends it only to " << joined(binding.hosts)
              << ", in " << joined(binding.headers) << "\n";
    return 0;
}

int SecretCommand::list()
{
    auto viaMoatd = callMoatd([](MoatdClient& moatd) { return moatd.listSecrets(); });
    if (!viaMoatd) {
        return fail(viaMoatd.error());
    }
    std::vector<keychain::SecretBinding> bindings;
    if (viaMoatd.value()) {
        bindings = fromMoatd(*viaMoatd.value());
    } else {
        auto listed = keychain::SecretBook(MoatPaths::fromEnvironment()).list();
        if (!listed) {
            return fail(listed.error());
        }
        bindings = std::move(listed.value());
    }
    const nlohmann::json list = normalised(std::move(bindings));
    if (json_) {
        std::cout << list.dump(2) << "\n";
        return 0;
    }
    if (list.empty()) {
        std::cout << "no secrets (moat secret set NAME --host HOST stores one)\n";
        return 0;
    }
    size_t width = 4;
    for (const auto& entry : list) {
        width = std::max(width, entry["name"].get<std::string>().size());
    }
    std::cout << "NAME" << std::string(width - 2, ' ') << "HOSTS  HEADERS\n";
    for (const auto& entry : list) {
        const std::string name = terminalSafe(entry["name"].get<std::string>(), 64);
        std::cout << name << std::string(width + 2 - std::min(width, name.size()), ' ')
                  << joined(entry["hosts"].get<std::vector<std::string>>()) << "  "
                  << joined(entry["headers"].get<std::vector<std::string>>()) << "\n";
    }
    return 0;
}

int SecretCommand::remove()
{
    if (Status checked = checkSecretName(name_); !checked) {
        return fail(checked.error());
    }
    auto viaMoatd = callMoatd([this](MoatdClient& moatd) { return moatd.removeSecret(name_); });
    Status removed;
    if (!viaMoatd) {
        removed = viaMoatd.error();
    } else if (!viaMoatd.value()) {
        removed = keychain::SecretBook(MoatPaths::fromEnvironment()).remove(name_);
    }
    if (!removed) {
        return fail(removed.error());
    }
    std::cerr << "moat: secret " << name_ << " removed\n";
    return 0;
}

}  // namespace moat::cli
