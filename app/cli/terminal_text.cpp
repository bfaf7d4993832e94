// SPDX-License-Identifier: Apache-2.0
#include "terminal_text.h"

namespace moat::cli {

std::string terminalSafe(const std::string& text, std::size_t maxBytes)
{
    std::string safe;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        std::size_t length = 1;
        if (byte >= 0xc0 && byte < 0xe0) {
            length = 2;
        } else if (byte >= 0xe0 && byte < 0xf0) {
            length = 3;
        } else if (byte >= 0xf0) {
            length = 4;
        }
        if (safe.size() + length > maxBytes) {
            return safe + "...";
        }
        const bool c0OrDel = byte < 0x20 || byte == 0x7f;
        // C1 controls (U+0080..U+009F) are 0xC2 0x80..0x9F in UTF-8; some
        // terminals act on them as on ESC sequences.
        const bool c1 = byte == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                        static_cast<unsigned char>(text[i + 1]) <= 0x9f;
        const bool stray = byte >= 0x80 && byte < 0xc0;  // a continuation byte without its lead
        // 0xC0, 0xC1 (overlong) and 0xF5.. lead nothing valid. A lead byte is
        // trusted only with as many continuation bytes (0x80..0xBF) as it
        // announces: otherwise the next bytes, which may be ESC or BEL, would
        // be copied raw with it.
        bool malformed = byte == 0xc0 || byte == 0xc1 || byte >= 0xf5 || i + length > text.size();
        for (std::size_t k = 1; !malformed && k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            malformed = next < 0x80 || next > 0xbf;
        }
        if (c0OrDel || stray || malformed) {
            safe += '?';
            continue;
        }
        if (c1) {
            safe += '?';
            ++i;
            continue;
        }
        safe.append(text, i, length);
        i += length - 1;
    }
    return safe;
}

}  // namespace moat::cli
