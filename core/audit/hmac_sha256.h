// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <array>
#include <memory>
#include <string>
#include <string_view>

struct evp_mac_ctx_st;

namespace moat {

// HMAC-SHA-256 under one key, set once: the event log MACs every line under
// the user's record key. The key is copied into OpenSSL's context; callers
// keep their own copy wherever they keep secrets.
class HmacSha256 {
public:
    static constexpr size_t kSize = 32;
    using Mac = std::array<unsigned char, kSize>;

    static Result<HmacSha256> create(const unsigned char* key, size_t keySize);
    ~HmacSha256();
    HmacSha256(HmacSha256&&) noexcept;
    HmacSha256& operator=(HmacSha256&&) noexcept;

    // The MAC of `first` followed by `second` (a line is MACed in two
    // pieces, so that checking one needs no copy of it).
    Mac mac(std::string_view first, std::string_view second = {});
    std::string hex(std::string_view first, std::string_view second = {});

private:
    HmacSha256() = default;
    struct Deleter {
        void operator()(evp_mac_ctx_st* ctx) const;
    };
    std::unique_ptr<evp_mac_ctx_st, Deleter> ctx_;
};

}  // namespace moat
