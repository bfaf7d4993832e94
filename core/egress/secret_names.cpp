// SPDX-License-Identifier: Apache-2.0
#include "secret_names.h"

#include "egress/locked_secret.h"

#include <string>

namespace moat {

namespace {

bool isTokenChar(char c)
{
    static constexpr std::string_view kSymbols = "!#$%&'*+-.^_`|~";
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           kSymbols.find(c) != std::string_view::npos;
}

// Whether `text` is well-formed UTF-8 (no overlong forms, no surrogates).
bool isUtf8(std::string_view text)
{
    size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        size_t extra = 0;
        unsigned min = 0;
        unsigned code = 0;
        if (c < 0x80) {
            ++i;
            continue;
        }
        if ((c & 0xE0) == 0xC0) {
            extra = 1;
            min = 0x80;
            code = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            min = 0x800;
            code = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            min = 0x10000;
            code = c & 0x07;
        } else {
            return false;
        }
        if (i + extra >= text.size()) {
            return false;
        }
        for (size_t k = 1; k <= extra; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80) {
                return false;
            }
            code = (code << 6) | (next & 0x3F);
        }
        if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
            return false;
        }
        i += extra + 1;
    }
    return true;
}

}  // namespace

Status checkSecretName(std::string_view name)
{
    bool ok = !name.empty() && name.size() <= 64 && !(name[0] >= '0' && name[0] <= '9');
    for (char c : name) {
        ok = ok && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_');
    }
    if (!ok) {
        return Error{"'" + std::string(name.substr(0, 80)) + "' is not a secret name", 0,
                     "Use 1 to 64 letters, digits and '_', not starting with a digit (e.g. GITHUB_TOKEN): the name "
                     "is also the environment variable moat run --secret NAME sets"};
    }
    return {};
}

Status checkSecretHeader(std::string_view header)
{
    bool ok = !header.empty() && header.size() <= 64;
    for (char c : header) {
        ok = ok && isTokenChar(c);
    }
    if (!ok) {
        return Error{"'" + std::string(header.substr(0, 80)) + "' is not an HTTP header name", 0,
                     "Give a header name such as Authorization or X-Api-Key"};
    }
    return {};
}

Status checkSecretValue(std::string_view value)
{
    if (value.empty() || value.size() > LockedSecret::kMaxSize) {
        return Error{"a secret's value must be 1 to " + std::to_string(LockedSecret::kMaxSize) + " bytes long"};
    }
    for (char c : value) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7F) {
            return Error{"the secret's value contains a control character (a newline inside it, perhaps)", 0,
                         "It goes into an HTTP header as it is: give it on one line (one trailing newline is "
                         "removed)"};
        }
    }
    if (value.front() == ' ' || value.back() == ' ') {
        return Error{"the secret's value starts or ends with a space", 0,
                     "HTTP would strip it on the way to the server; store the value without it"};
    }
    if (!isUtf8(value)) {
        return Error{"the secret's value is not UTF-8 text", 0, "Store it as text (for binary keys: base64)"};
    }
    return {};
}

}  // namespace moat
