// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace moat::hex {

// Lower-case hex, two characters a byte: how the records spell digests,
// MACs, keys and signatures.
inline std::string encode(const unsigned char* data, size_t size)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text(size * 2, '0');
    for (size_t i = 0; i < size; ++i) {
        text[2 * i] = kDigits[data[i] >> 4];
        text[2 * i + 1] = kDigits[data[i] & 0xf];
    }
    return text;
}

// Exactly 2 * size lower-case hex digits into `out`; false (and `out`
// partly written) for anything else.
inline bool decode(std::string_view text, unsigned char* out, size_t size)
{
    if (text.size() != 2 * size) {
        return false;
    }
    auto digit = [](char c) -> int {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    };
    for (size_t i = 0; i < size; ++i) {
        const int high = digit(text[2 * i]);
        const int low = digit(text[2 * i + 1]);
        if (high < 0 || low < 0) {
            return false;
        }
        out[i] = static_cast<unsigned char>(high << 4 | low);
    }
    return true;
}

}  // namespace moat::hex
