// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace moat {

// The value of one hexadecimal digit of either case, or -1: for parsers of
// what an agent sends (percent-escapes, pkt-line lengths, object ids).
constexpr int hexDigitValue(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

}  // namespace moat
