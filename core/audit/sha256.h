// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>

struct evp_md_ctx_st;

namespace moat {

// SHA-256 with one context reused for every input: the event log hashes each
// line it writes or checks, and a fresh context (and algorithm fetch) per
// line would cost more than the hash of a short line.
class Sha256 {
public:
    static constexpr size_t kSize = 32;
    using Digest = std::array<unsigned char, kSize>;

    Sha256();
    ~Sha256();
    Sha256(Sha256&&) noexcept;
    Sha256& operator=(Sha256&&) noexcept;

    Digest digest(std::string_view text);
    std::string hex(std::string_view text);  // 64 lower-case hex digits

private:
    struct Deleter {
        void operator()(evp_md_ctx_st* ctx) const;
    };
    std::unique_ptr<evp_md_ctx_st, Deleter> ctx_;
};

}  // namespace moat
