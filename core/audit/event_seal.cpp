// SPDX-License-Identifier: Apache-2.0
#include "audit/event_seal.h"

#include "audit/hex.h"
#include "audit/record_keys.h"

#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cerrno>

namespace moat {

std::string EventSeal::signedMessage() const
{
    return "moat-seal-v1\n" + session + "\n" + std::to_string(lines) + "\n" + head + "\n" + ts + "\n";
}

Result<EventSeal> EventSeal::make(std::string session, uint64_t lines, std::string head, std::string ts,
                                  const RecordKeys& keys)
{
    EventSeal seal;
    seal.session = std::move(session);
    seal.lines = lines;
    seal.head = std::move(head);
    seal.ts = std::move(ts);
    seal.key = keys.id();
    seal.publicKey = hex::encode(keys.publicKey().data(), keys.publicKey().size());
    auto signature = ed25519::sign(keys.signingSeed(), seal.signedMessage());
    if (!signature) {
        return signature.error();
    }
    seal.signature = hex::encode(signature->data(), signature->size());
    return seal;
}

bool EventSeal::signedBy(const ed25519::PublicKey& signer) const
{
    ed25519::Signature bytes{};
    return hex::decode(signature, bytes.data(), bytes.size()) && ed25519::verify(signer, signedMessage(), bytes);
}

std::string EventSeal::toJson() const
{
    const nlohmann::json object = {{"session", session}, {"lines", lines},          {"head", head},          {"ts", ts},
                                   {"key", key},         {"public_key", publicKey}, {"signature", signature}};
    return object.dump() + "\n";
}

Result<EventSeal> EventSeal::parse(std::string_view text)
{
    const auto object = nlohmann::json::parse(text, nullptr, false);
    auto textOf = [&object](const char* name) -> const std::string* {
        const auto found = object.find(name);
        return found != object.end() && found->is_string() ? found->get_ptr<const std::string*>() : nullptr;
    };
    if (!object.is_object() || !object.contains("lines") || !object["lines"].is_number_unsigned()) {
        return Error{"the seal is not a moat seal (events.seal)"};
    }
    EventSeal seal;
    seal.lines = object["lines"].get<uint64_t>();
    for (auto [name, field] : {std::pair{"session", &seal.session},
                               {"head", &seal.head},
                               {"ts", &seal.ts},
                               {"key", &seal.key},
                               {"public_key", &seal.publicKey},
                               {"signature", &seal.signature}}) {
        const std::string* value = textOf(name);
        if (!value) {
            return Error{std::string("the seal has no '") + name + "' (events.seal)"};
        }
        *field = *value;
    }
    return seal;
}

std::string EventSeal::pathFor(const std::string& eventsPath)
{
    constexpr std::string_view kSuffix = ".jsonl";
    if (eventsPath.size() > kSuffix.size() && eventsPath.ends_with(kSuffix)) {
        return eventsPath.substr(0, eventsPath.size() - kSuffix.size()) + ".seal";
    }
    return eventsPath + ".seal";
}

Status EventSeal::writeTo(const std::string& path) const
{
    const std::string temporary = path + ".tmp";
    const std::string text = toJson();
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        return Error::fromErrno("cannot write the session's seal " + path, errno);
    }
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    const bool synced = written && ::fdatasync(fd) == 0;
    const int err = errno;
    ::close(fd);
    if (!synced || ::rename(temporary.c_str(), path.c_str()) != 0) {
        const int renameErr = synced ? errno : err;
        ::unlink(temporary.c_str());
        return Error::fromErrno("cannot write the session's seal " + path, renameErr);
    }
    // The rename is on disk once the directory is.
    const std::string directory = path.substr(0, path.find_last_of('/') + 1);
    const int dirFd = ::open(directory.empty() ? "." : directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        (void)::fsync(dirFd);
        ::close(dirFd);
    }
    return {};
}

}  // namespace moat
