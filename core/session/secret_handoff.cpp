// SPDX-License-Identifier: Apache-2.0
#include "session/secret_handoff.h"

#include "base/sealed_memfd.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstring>

namespace moat {

namespace {

constexpr std::string_view kMagic = "MOATSEC1";
constexpr uint32_t kMaxSecrets = 256;
constexpr uint32_t kMaxList = 64;
constexpr uint32_t kMaxText = 4096;

void putU32(std::string& out, uint32_t value)
{
    for (int shift = 0; shift < 32; shift += 8) {
        out.push_back(static_cast<char>((value >> shift) & 0xff));
    }
}

void putText(std::string& out, std::string_view text)
{
    putU32(out, static_cast<uint32_t>(text.size()));
    out.append(text);
}

void putList(std::string& out, const std::vector<std::string>& items)
{
    putU32(out, static_cast<uint32_t>(items.size()));
    for (const auto& item : items) {
        putText(out, item);
    }
}

class Reader {
public:
    explicit Reader(std::string_view bytes) : bytes_(bytes) {}

    bool u32(uint32_t& value)
    {
        if (bytes_.size() - at_ < 4) {
            return false;
        }
        value = 0;
        for (int i = 3; i >= 0; --i) {
            value = value << 8 | static_cast<unsigned char>(bytes_[at_ + static_cast<size_t>(i)]);
        }
        at_ += 4;
        return true;
    }
    bool view(std::string_view& out, uint32_t max)
    {
        uint32_t length = 0;
        if (!u32(length) || length > max || bytes_.size() - at_ < length) {
            return false;
        }
        out = bytes_.substr(at_, length);
        at_ += length;
        return true;
    }
    bool text(std::string& out)
    {
        std::string_view view;
        if (!this->view(view, kMaxText)) {
            return false;
        }
        out.assign(view);
        return true;
    }
    bool list(std::vector<std::string>& out)
    {
        uint32_t count = 0;
        if (!u32(count) || count > kMaxList) {
            return false;
        }
        out.resize(count);
        for (auto& item : out) {
            if (!text(item)) {
                return false;
            }
        }
        return true;
    }
    bool magic()
    {
        if (bytes_.substr(0, kMagic.size()) != kMagic) {
            return false;
        }
        at_ = kMagic.size();
        return true;
    }
    bool atEnd() const { return at_ == bytes_.size(); }

private:
    std::string_view bytes_;
    size_t at_ = 0;
};

Error malformed()
{
    return Error{"the secrets handed to moat-supervisor are malformed", 0,
                 "Use moat and moat-supervisor of the same build"};
}

}  // namespace

Result<UniqueFd> writeSecretHandoff(const std::vector<SecretForHandoff>& secrets)
{
    std::string bytes(kMagic);
    putU32(bytes, static_cast<uint32_t>(secrets.size()));
    for (const auto& secret : secrets) {
        putText(bytes, secret.name);
        putList(bytes, secret.hosts);
        putList(bytes, secret.headers);
        putText(bytes, secret.value);
    }
    auto fd = sealedMemfd("moat-secrets", bytes);
    LockedSecret::wipe(bytes);  // the memfd is the one copy that travels
    return fd;
}

Result<std::vector<HandedOverSecret>> readSecretHandoff(int fd)
{
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
        return Error::fromErrno("cannot read the secrets handed to moat-supervisor", errno);
    }
    if (info.st_size <= 0 || static_cast<uint64_t>(info.st_size) > 64ull * 1024 * 1024) {
        return malformed();
    }
    const size_t size = static_cast<size_t>(info.st_size);
    void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) {
        return Error::fromErrno("cannot map the secrets handed to moat-supervisor", errno);
    }
    Reader reader({static_cast<const char*>(mapped), size});
    std::vector<HandedOverSecret> secrets;
    uint32_t count = 0;
    bool ok = reader.magic() && reader.u32(count) && count <= kMaxSecrets;
    for (uint32_t i = 0; ok && i < count; ++i) {
        std::string name;
        std::vector<std::string> hosts, headers;
        std::string_view value;
        ok = reader.text(name) && reader.list(hosts) && reader.list(headers) &&
             reader.view(value, static_cast<uint32_t>(LockedSecret::kMaxSize));
        if (!ok) {
            break;
        }
        auto locked = LockedSecret::copyOf(value);  // from the mapping straight to locked memory
        if (!locked) {
            ::munmap(mapped, size);
            return locked.error();
        }
        secrets.push_back({std::move(name), std::move(hosts), std::move(headers), std::move(locked.value())});
    }
    ok = ok && reader.atEnd();
    ::munmap(mapped, size);
    if (!ok) {
        return malformed();
    }
    return secrets;
}

}  // namespace moat
