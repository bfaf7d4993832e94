// SPDX-License-Identifier: Apache-2.0
#include "secret_book.h"

#include "base/unique_fd.h"
#include "egress/host_pattern.h"
#include "egress/secret_names.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>

namespace moat::keychain {

namespace {

constexpr size_t kMaxBindings = 32;
constexpr size_t kMaxBindingsFile = 1 << 20;

// What a person needs to hear when no keychain answers. Secrets have no
// fallback, unlike the record keys: a value in a file is a value anyone
// who reads the home directory's backups has.
Error keychainUnreachable(const std::string& why)
{
    return Error{"the OS keychain could not be used (" + why + "); moat keeps secrets only in a keychain, never in a file",
                 0,
                 "Start a Secret Service on this session bus and unlock it: a desktop session's GNOME Keyring or "
                 "KWallet does; elsewhere run gnome-keyring-daemon --start --components=secrets (or unlock one with "
                 "printf %s PASSWORD | gnome-keyring-daemon --unlock --components=secrets), or use KeePassXC's "
                 "Secret Service integration, then try again"};
}

std::vector<std::string> strings(const nlohmann::json& array)
{
    std::vector<std::string> out;
    if (array.is_array()) {
        for (const auto& item : array) {
            if (item.is_string()) {
                out.push_back(item.get<std::string>());
            }
        }
    }
    return out;
}

}  // namespace

SecretBook::SecretBook(MoatPaths paths) : paths_(std::move(paths)) {}

SecretBook::~SecretBook() = default;

std::string SecretBook::bindingsPath() const
{
    return paths_.configDir + "/secrets.json";
}

Status SecretBook::check(SecretBinding& binding)
{
    if (auto valid = checkSecretName(binding.name); !valid) {
        return valid;
    }
    if (binding.hosts.empty()) {
        return Error{"secret " + binding.name + " needs at least one --host", 0,
                     "Name the hosts it may be sent to (e.g. --host api.github.com): moat refuses every request "
                     "that carries its placeholder anywhere else"};
    }
    if (binding.hosts.size() > kMaxBindings || binding.headers.size() > kMaxBindings) {
        return Error{"at most " + std::to_string(kMaxBindings) + " hosts and " + std::to_string(kMaxBindings) +
                     " headers per secret"};
    }
    for (const auto& host : binding.hosts) {
        if (auto pattern = HostPattern::parse(host); !pattern) {
            return Error{"--host " + host.substr(0, 100) + ": " + pattern.error().what, 0, pattern.error().hint};
        }
    }
    for (const auto& header : binding.headers) {
        if (auto valid = checkSecretHeader(header); !valid) {
            return Error{"--header " + valid.error().what, 0, valid.error().hint};
        }
    }
    if (binding.headers.empty()) {
        binding.headers.emplace_back(kDefaultSecretHeader);
    }
    return {};
}

Result<SecretStore*> SecretBook::keychain()
{
    if (store_) {
        return store_.get();
    }
    if (auto problem = sessionBusProblem()) {
        return keychainUnreachable(*problem);
    }
    auto loaded = loadSecretStore();
    if (!loaded) {
        return loaded.error();
    }
    store_ = std::move(loaded.value());
    return store_.get();
}

Result<std::vector<SecretBinding>> SecretBook::list() const
{
    const std::string path = bindingsPath();
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd) {
        if (errno == ENOENT) {
            return std::vector<SecretBinding>();
        }
        return Error::fromErrno("cannot read " + path, errno);
    }
    std::string text(kMaxBindingsFile, '\0');
    size_t filled = 0;
    while (filled < text.size()) {
        const ssize_t n = ::read(fd.get(), text.data() + filled, text.size() - filled);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return Error::fromErrno("cannot read " + path, errno);
        }
        if (n == 0) {
            break;
        }
        filled += static_cast<size_t>(n);
    }
    text.resize(filled);
    const auto document = nlohmann::json::parse(text, nullptr, false);
    if (!document.is_object() || !document.value("secrets", nlohmann::json::array()).is_array()) {
        return Error{path + " is damaged: it is not moat's list of secret bindings", 0,
                     "Move it aside and set the secrets again (their values stay in the keychain until then)"};
    }
    std::vector<SecretBinding> bindings;
    for (const auto& entry : document.value("secrets", nlohmann::json::array())) {
        if (!entry.is_object() || !entry.value("name", nlohmann::json()).is_string()) {
            continue;
        }
        bindings.push_back({entry["name"].get<std::string>(), strings(entry.value("hosts", nlohmann::json())),
                            strings(entry.value("headers", nlohmann::json()))});
    }
    return bindings;
}

Status SecretBook::writeBindings(const std::vector<SecretBinding>& bindings) const
{
    std::error_code ec;
    if (std::filesystem::create_directories(paths_.configDir, ec)) {
        ::chmod(paths_.configDir.c_str(), 0700);  // moat made it: private, like the state directory
    }
    if (ec) {
        return Error::fromErrno("cannot create moat's config directory " + paths_.configDir, ec.value(),
                                "Check its permissions, or point MOAT_CONFIG_DIR somewhere writable");
    }
    nlohmann::json list = nlohmann::json::array();
    for (const auto& binding : bindings) {
        list.push_back({{"name", binding.name}, {"hosts", binding.hosts}, {"headers", binding.headers}});
    }
    const std::string text = nlohmann::json{{"secrets", list}}.dump(4) + "\n";
    const std::string path = bindingsPath();
    std::string temporary = path + ".XXXXXX";
    UniqueFd fd(::mkostemp(temporary.data(), O_CLOEXEC));  // mode 0600
    if (!fd) {
        return Error::fromErrno("cannot write " + path, errno, "Check the config directory's permissions");
    }
    const bool written =
        ::write(fd.get(), text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd.get()) == 0;
    const int err = errno;
    fd.reset();
    // rename() replaces in one step: a reader sees the old list or the new.
    if (!written || ::rename(temporary.c_str(), path.c_str()) != 0) {
        const int failed = written ? errno : err;
        ::unlink(temporary.c_str());
        return Error::fromErrno("cannot write " + path, failed, "Check the config directory's permissions");
    }
    return {};
}

Status SecretBook::set(SecretBinding binding, std::string& value)
{
    // The caller's copy of the value is wiped on every way out.
    struct Wipe {
        std::string& text;
        ~Wipe() { LockedSecret::wipe(text); }
    } wipe{value};
    if (Status checked = check(binding); !checked) {
        return checked;
    }
    if (Status checked = checkSecretValue(value); !checked) {
        return checked;
    }
    auto bindings = list();
    if (!bindings) {
        return bindings.error();
    }
    auto store = keychain();
    if (!store) {
        return store.error();
    }
    if (Status written = store.value()->write(keychainKey(binding.name), value); !written) {
        return keychainUnreachable(written.error().what);
    }
    auto known = std::find_if(bindings->begin(), bindings->end(),
                              [&binding](const SecretBinding& b) { return b.name == binding.name; });
    const bool replacing = known != bindings->end();
    if (replacing) {
        *known = binding;
    } else {
        bindings->push_back(binding);
    }
    if (Status saved = writeBindings(*bindings); !saved) {
        if (!replacing) {
            // A value no binding names would be invisible to moat secret ls.
            (void)store.value()->remove(keychainKey(binding.name));
            return saved;
        }
        return Error{"the new value of " + binding.name + " is in the keychain, but its bindings were not saved: " +
                         saved.error().message(),
                     0, "Fix the cause and set it again"};
    }
    return {};
}

Result<SecretBinding> SecretBook::findBinding(const std::string& name) const
{
    auto bindings = list();
    if (!bindings) {
        return bindings.error();
    }
    for (auto& known : bindings.value()) {
        if (known.name == name) {
            return std::move(known);
        }
    }
    return Error{"no secret is named '" + name.substr(0, 80) + "'", 0,
                 "moat secret ls lists them; moat secret set NAME --host HOST stores one"};
}

Status SecretBook::remove(const std::string& name)
{
    if (auto known = findBinding(name); !known) {
        return known.error();
    }
    auto store = keychain();
    if (!store) {
        return store.error();
    }
    // The value first: a binding without a value fails loudly at use, a
    // value without a binding would linger unseen.
    if (Status removed = store.value()->remove(keychainKey(name)); !removed) {
        return keychainUnreachable(removed.error().what);
    }
    auto bindings = list();
    if (!bindings) {
        return bindings.error();
    }
    std::erase_if(bindings.value(), [&name](const SecretBinding& b) { return b.name == name; });
    return writeBindings(bindings.value());
}

Result<StoredSecret> SecretBook::fetch(const std::string& name)
{
    auto known = findBinding(name);
    if (!known) {
        return known.error();
    }
    SecretBinding binding = std::move(known.value());
    if (Status checked = check(binding); !checked) {
        return Error{bindingsPath() + ", secret " + name + ": " + checked.error().what, 0,
                     "Set it again with moat secret set"};
    }
    auto store = keychain();
    if (!store) {
        return store.error();
    }
    auto read = store.value()->read(keychainKey(name));
    if (!read) {
        return keychainUnreachable(read.error().what);
    }
    if (!read.value()) {
        return Error{"the keychain holds no value for secret " + name + " (service moat, key " + keychainKey(name) + ")",
                     0,
                     "If the keyring is locked, unlock it (a locked GNOME Keyring answers \"not found\"); else set "
                     "it again with moat secret set " +
                         name};
    }
    auto value = LockedSecret::takeFrom(*read.value());
    if (!value) {
        return value.error();
    }
    return StoredSecret{std::move(binding), std::move(value.value())};
}

}  // namespace moat::keychain
