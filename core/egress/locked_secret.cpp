// SPDX-License-Identifier: Apache-2.0
#include "locked_secret.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace moat {

Result<LockedSecret> LockedSecret::copyOf(std::string_view value)
{
    if (value.empty() || value.size() > kMaxSize) {
        return Error{"a secret's value must be 1 to " + std::to_string(kMaxSize) + " bytes long"};
    }
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t length = (value.size() + page - 1) / page * page;
    void* memory = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
        return Error::fromErrno("cannot map memory for a secret", errno);
    }
    LockedSecret secret;
    secret.data_ = static_cast<char*>(memory);
    secret.mapped_ = length;
    // Locked before the value is written, so that it is never in swap.
    if (::mlock(memory, length) != 0) {
        const int err = errno;
        return Error::fromErrno("cannot lock a secret's memory (so that it never reaches swap)", err,
                                "Raise the locked-memory limit (ulimit -l; LimitMEMLOCK= in a systemd unit): each "
                                "secret needs " +
                                    std::to_string(length / 1024) + " KiB");
    }
    if (::madvise(memory, length, MADV_DONTDUMP) != 0) {
        return Error::fromErrno("cannot keep a secret's memory out of core dumps (madvise MADV_DONTDUMP)", errno);
    }
    if (::madvise(memory, length, MADV_WIPEONFORK) != 0) {
        return Error::fromErrno("cannot keep a secret's memory from forked children (madvise MADV_WIPEONFORK)",
                                errno, "moat needs Linux 4.14 or later");
    }
    std::memcpy(secret.data_, value.data(), value.size());
    secret.size_ = value.size();
    return secret;
}

Result<LockedSecret> LockedSecret::takeFrom(std::string& source)
{
    auto secret = copyOf(source);
    wipe(source);
    return secret;
}

LockedSecret::LockedSecret(LockedSecret&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      mapped_(std::exchange(other.mapped_, 0))
{
}

LockedSecret& LockedSecret::operator=(LockedSecret&& other) noexcept
{
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
        mapped_ = std::exchange(other.mapped_, 0);
    }
    return *this;
}

LockedSecret::~LockedSecret()
{
    release();
}

void LockedSecret::release()
{
    if (!data_) {
        return;
    }
    // The whole mapping: a failed copyOf() may hold a partial one.
    ::explicit_bzero(data_, mapped_);
    ::munlock(data_, mapped_);
    ::munmap(data_, mapped_);
    data_ = nullptr;
    size_ = 0;
    mapped_ = 0;
}

void LockedSecret::wipe(std::string& text)
{
    // The whole buffer, not only size(): a string that shrank keeps old bytes.
    text.resize(text.capacity());
    ::explicit_bzero(text.data(), text.size());
    text.clear();
}

}  // namespace moat
