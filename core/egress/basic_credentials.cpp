// SPDX-License-Identifier: Apache-2.0
#include "basic_credentials.h"

#include <cstdint>

namespace moat {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int sextet(char c)
{
    if (c >= 'A' && c <= 'Z') {
        return c - 'A';
    }
    if (c >= 'a' && c <= 'z') {
        return c - 'a' + 26;
    }
    if (c >= '0' && c <= '9') {
        return c - '0' + 52;
    }
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

bool isSpace(char c)
{
    return c == ' ' || c == '\t';
}

}  // namespace

std::optional<std::string> decodeBasicCredentials(std::string_view fieldValue)
{
    while (!fieldValue.empty() && isSpace(fieldValue.front())) {
        fieldValue.remove_prefix(1);
    }
    while (!fieldValue.empty() && isSpace(fieldValue.back())) {
        fieldValue.remove_suffix(1);
    }
    constexpr std::string_view kScheme = "basic";
    if (fieldValue.size() <= kScheme.size() || !isSpace(fieldValue[kScheme.size()])) {
        return std::nullopt;
    }
    for (size_t i = 0; i < kScheme.size(); ++i) {
        if ((fieldValue[i] | 0x20) != kScheme[i]) {
            return std::nullopt;
        }
    }
    std::string_view token = fieldValue.substr(kScheme.size());
    while (!token.empty() && isSpace(token.front())) {
        token.remove_prefix(1);
    }
    while (!token.empty() && token.back() == '=') {
        token.remove_suffix(1);
    }
    if (token.empty() || token.size() % 4 == 1) {
        return std::nullopt;
    }
    std::string decoded;
    decoded.reserve(token.size() * 3 / 4);
    uint32_t bits = 0;
    int count = 0;
    for (char c : token) {
        const int value = sextet(c);
        if (value < 0) {
            return std::nullopt;
        }
        bits = (bits << 6) | static_cast<uint32_t>(value);
        count += 6;
        if (count >= 8) {
            count -= 8;
            decoded.push_back(static_cast<char>((bits >> count) & 0xFF));
        }
    }
    return decoded;
}

std::string encodeBasicCredentials(std::string_view credentials)
{
    std::string encoded = "Basic ";
    encoded.reserve(encoded.size() + (credentials.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < credentials.size(); i += 3) {
        const uint32_t group = (static_cast<uint8_t>(credentials[i]) << 16) |
                               (static_cast<uint8_t>(credentials[i + 1]) << 8) | static_cast<uint8_t>(credentials[i + 2]);
        encoded.push_back(kAlphabet[(group >> 18) & 63]);
        encoded.push_back(kAlphabet[(group >> 12) & 63]);
        encoded.push_back(kAlphabet[(group >> 6) & 63]);
        encoded.push_back(kAlphabet[group & 63]);
    }
    const size_t rest = credentials.size() - i;
    if (rest > 0) {
        uint32_t group = static_cast<uint32_t>(static_cast<uint8_t>(credentials[i])) << 16;
        if (rest == 2) {
            group |= static_cast<uint32_t>(static_cast<uint8_t>(credentials[i + 1])) << 8;
        }
        encoded.push_back(kAlphabet[(group >> 18) & 63]);
        encoded.push_back(kAlphabet[(group >> 12) & 63]);
        encoded.push_back(rest == 2 ? kAlphabet[(group >> 6) & 63] : '=');
        encoded.push_back('=');
    }
    return encoded;
}

}  // namespace moat
