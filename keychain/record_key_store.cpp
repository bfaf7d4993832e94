// SPDX-License-Identifier: Apache-2.0
#include "record_key_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace moat::keychain {

namespace {

constexpr const char* kCurrentEntry = "record-keys";
constexpr const char* kKeychainLocation = "keychain";
constexpr const char* kKeyFileName = "record-keys";

std::string entryFor(const std::string& id)
{
    return std::string(kCurrentEntry) + "/" + id;
}

}  // namespace

RecordKeyStore::RecordKeyStore(MoatPaths paths) : paths_(std::move(paths)) {}

RecordKeyStore::~RecordKeyStore() = default;

std::string RecordKeyStore::keyFilePath() const
{
    return paths_.configDir + "/" + kKeyFileName;
}

Status RecordKeyStore::loadSecrets()
{
    if (!secrets_) {
        auto loaded = loadSecretStore();
        if (!loaded) {
            return loaded.error();
        }
        secrets_ = std::move(loaded.value());
    }
    return {};
}

Result<std::optional<std::string>> RecordKeyStore::readSecret(const std::string& name)
{
    if (auto loaded = loadSecrets(); !loaded) {
        return loaded.error();
    }
    return secrets_->read(name);
}

Status RecordKeyStore::writeSecret(const std::string& name, const std::string& text)
{
    if (auto loaded = loadSecrets(); !loaded) {
        return loaded;
    }
    return secrets_->write(name, text);
}

Result<std::optional<RecordKeys>> RecordKeyStore::keychainKeys()
{
    const auto unusable = [this](std::string problem) -> Result<std::optional<RecordKeys>> {
        keychainProblem_ = std::move(problem);
        return std::optional<RecordKeys>();
    };
    if (keychainProblem_) {
        return std::optional<RecordKeys>();
    }
    if (auto problem = sessionBusProblem()) {
        return unusable(*problem);
    }
    auto current = readSecret(kCurrentEntry);
    if (!current) {
        return unusable(current.error().what);
    }
    if (current.value()) {
        auto keys = RecordKeys::fromText(**current);
        RecordKeys::wipe(**current);
        if (!keys) {
            return Error{"the keychain's entry '" + std::string(kCurrentEntry) +
                             "' (service moat) is damaged: " + keys.error().what,
                         0,
                         "Remove it (e.g. secret-tool clear server moat user record-keys) to make new keys; logs "
                         "written with the old ones stay verifiable through their own entries"};
        }
        keys->setLocation(kKeychainLocation);
        return std::optional<RecordKeys>(std::move(keys.value()));
    }
    // First use: make them. The entry by id first, so that the keys of any
    // session that starts with them can always be found again.
    auto keys = RecordKeys::generate();
    if (!keys) {
        return keys.error();
    }
    std::string text = keys->toText();
    Status stored = writeSecret(entryFor(keys->id()), text);
    if (stored) {
        stored = writeSecret(kCurrentEntry, text);
    }
    RecordKeys::wipe(text);
    if (!stored) {
        return unusable(stored.error().what);
    }
    keys->setLocation(kKeychainLocation);
    return std::optional<RecordKeys>(std::move(keys.value()));
}

Result<std::optional<RecordKeys>> RecordKeyStore::readKeyFile() const
{
    const std::string path = keyFilePath();
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd) {
        if (errno == ENOENT) {
            return std::optional<RecordKeys>();
        }
        return Error::fromErrno("cannot read the record key file " + path, errno);
    }
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0) {
        return Error::fromErrno("cannot read the record key file " + path, errno);
    }
    // Whoever can read the keys can forge records: refuse a file others can
    // read or that someone else could have put there.
    if (!S_ISREG(info.st_mode) || info.st_uid != ::geteuid() || (info.st_mode & 077) != 0) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
        return Error{"the record key file " + path + " is not private to you (mode " + mode + ", owner uid " +
                         std::to_string(info.st_uid) + ")",
                     0,
                     "Anyone who can read it can forge records. Make it yours and mode 0600 (chmod 600 " + path + ")"};
    }
    std::string text(4096, '\0');
    const ssize_t n = ::read(fd.get(), text.data(), text.size());
    if (n < 0) {
        const int err = errno;
        RecordKeys::wipe(text);
        return Error::fromErrno("cannot read the record key file " + path, err);
    }
    text.resize(static_cast<size_t>(n));
    auto keys = RecordKeys::fromText(text);
    RecordKeys::wipe(text);
    if (!keys) {
        return Error{"the record key file " + path + " is damaged: " + keys.error().what, 0, keys.error().hint};
    }
    keys->setLocation(path);
    return std::optional<RecordKeys>(std::move(keys.value()));
}

Result<RecordKeys> RecordKeyStore::makeKeyFile() const
{
    std::error_code ec;
    if (std::filesystem::create_directories(paths_.configDir, ec)) {
        ::chmod(paths_.configDir.c_str(), 0700);  // moat made it: private, like the state directory
    }
    if (ec) {
        return Error::fromErrno("cannot create moat's config directory " + paths_.configDir, ec.value(),
                                "Check its permissions, or point MOAT_CONFIG_DIR somewhere writable");
    }
    auto keys = RecordKeys::generate();
    if (!keys) {
        return keys.error();
    }
    const std::string path = keyFilePath();
    std::string temporary = path + ".XXXXXX";
    UniqueFd fd(::mkostemp(temporary.data(), O_CLOEXEC));  // mode 0600
    if (!fd) {
        return Error::fromErrno("cannot write the record key file " + path, errno);
    }
    std::string text = keys->toText();
    const bool written =
        ::write(fd.get(), text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd.get()) == 0;
    const int writeErr = errno;
    RecordKeys::wipe(text);
    fd.reset();
    // link() never replaces: when another moat made the file meanwhile, its
    // keys are the user's keys.
    const int linked = written ? ::link(temporary.c_str(), path.c_str()) : -1;
    const int linkErr = errno;
    ::unlink(temporary.c_str());
    if (!written) {
        return Error::fromErrno("cannot write the record key file " + path, writeErr);
    }
    if (linked != 0) {
        if (linkErr == EEXIST) {
            auto existing = readKeyFile();
            if (!existing) {
                return existing.error();
            }
            if (existing.value()) {
                return std::move(*existing.value());
            }
        }
        return Error::fromErrno("cannot write the record key file " + path, linkErr);
    }
    if (UniqueFd dir(::open(paths_.configDir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)); dir) {
        (void)::fsync(dir.get());
    }
    keys->setLocation(path);
    return std::move(keys.value());
}

Result<RecordKeyStore::SessionKeys> RecordKeyStore::keysForNewSession()
{
    auto fromKeychain = keychainKeys();
    if (!fromKeychain) {
        return fromKeychain.error();
    }
    if (fromKeychain.value()) {
        return SessionKeys{std::move(*fromKeychain.value()), {}};
    }
    auto fromFile = readKeyFile();
    if (!fromFile) {
        return fromFile.error();
    }
    if (fromFile.value()) {
        return SessionKeys{std::move(*fromFile.value()), {}};
    }
    auto made = makeKeyFile();
    if (!made) {
        return made.error();
    }
    std::string notice = "no keychain is reachable (" + keychainProblem_.value_or("unknown") +
                         "), so this user's record keys, which make each session's records tamper-evident, were "
                         "made in " +
                         made->location() +
                         " (mode 0600). Sessions record where their keys are. Run a Secret Service (such as "
                         "gnome-keyring) for new sessions to keep their keys in the keychain instead";
    return SessionKeys{std::move(made.value()), std::move(notice)};
}

Result<std::shared_ptr<const RecordKeys>> RecordKeyStore::keysById(const std::string& id)
{
    if (auto known = byId_.find(id); known != byId_.end()) {
        return known->second;
    }
    auto remember = [this, &id](RecordKeys keys) {
        auto shared = std::make_shared<const RecordKeys>(std::move(keys));
        byId_[id] = shared;
        return shared;
    };
    if (!keychainProblem_) {
        if (auto problem = sessionBusProblem()) {
            keychainProblem_ = *problem;
        }
    }
    if (!keychainProblem_) {
        auto secret = readSecret(entryFor(id));
        if (!secret) {
            keychainProblem_ = secret.error().what;
        } else if (secret.value()) {
            auto keys = RecordKeys::fromText(**secret);
            RecordKeys::wipe(**secret);
            if (keys && keys->id() == id) {
                keys->setLocation(kKeychainLocation);
                return remember(std::move(keys.value()));
            }
        }
    }
    auto fromFile = readKeyFile();
    if (!fromFile) {
        return fromFile.error();
    }
    if (fromFile.value() && fromFile.value()->id() == id) {
        return remember(std::move(*fromFile.value()));
    }
    const std::string keychain = keychainProblem_ ? "the keychain is not reachable: " + *keychainProblem_
                                                  : "the keychain has no entry " + entryFor(id) + " (service moat)";
    const std::string file = fromFile.value() ? "the key file " + keyFilePath() + " holds key " + fromFile.value()->id()
                                              : "there is no key file " + keyFilePath();
    return Error{
        "the record key " + id + " this log was written with is not available (" + keychain + "; " + file + ")", 0,
        "Run moat audit verify where that key is kept: in the desktop session whose keychain made it, or "
        "with the key file it was made in"};
}

}  // namespace moat::keychain
