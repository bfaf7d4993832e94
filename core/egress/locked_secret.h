// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace moat {

// One secret value held in memory that is kept out of everything else the
// process produces: its own anonymous mapping, mlock'ed (never written to
// swap), MADV_DONTDUMP (never in a core dump), MADV_WIPEONFORK (a child made
// by fork(), such as the sandbox's first process, sees zeros there), and
// wiped with explicit_bzero before it is unmapped.
//
// Who holds one: the supervisor, for each secret a session uses, for the
// session's lifetime (SecretSwap); the CLI or moatd, only while handing it
// on. Guarantees: the bytes live in exactly one place while the object does;
// the object cannot be copied (only moved, which moves the mapping);
// nothing here ever formats the value into a string, a log or an error.
// Not guaranteed: copies the caller made before (the keychain's reply, a
// D-Bus message) or makes from view(); wipe those with wipe().
class LockedSecret {
public:
    // Largest value accepted: a header value, with room to spare.
    static constexpr std::size_t kMaxSize = 64 * 1024;

    // Copies `value` into locked memory. Errors (value empty or too large,
    // mmap or mlock refused: RLIMIT_MEMLOCK) say what failed, never the value.
    static Result<LockedSecret> copyOf(std::string_view value);
    // The same, then wipes `source` (its bytes and its length).
    static Result<LockedSecret> takeFrom(std::string& source);

    LockedSecret(LockedSecret&& other) noexcept;
    LockedSecret& operator=(LockedSecret&& other) noexcept;
    LockedSecret(const LockedSecret&) = delete;
    LockedSecret& operator=(const LockedSecret&) = delete;
    ~LockedSecret();

    // The value, for the one place that writes it into a request (the swap).
    std::string_view view() const { return {data_, size_}; }
    std::size_t size() const { return size_; }
    // The mapping's length: a multiple of the page size, all of it locked.
    std::size_t lockedBytes() const { return mapped_; }

    // explicit_bzero of a string's bytes, then clear(): for the transient
    // copies a value passes through on its way in.
    static void wipe(std::string& text);

private:
    LockedSecret() = default;
    void release();

    char* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t mapped_ = 0;
};

}  // namespace moat
