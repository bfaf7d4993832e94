// SPDX-License-Identifier: Apache-2.0
#include "policy/path_glob.h"

#include <algorithm>

#include "base/hex_digit.h"

namespace moat {

namespace {

constexpr size_t kMaxPathLength = 8192;

bool isUnreserved(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_' || c == '~';
}

// Normalises a path or a path pattern ('*' is an ordinary character here;
// PathGlob gives it its meaning), or says why it is refused. The refusals are the spellings on which servers disagree
// about which resource is meant: a rule must mean the same path the server serves.
Result<std::string> normalizePath(std::string_view text)
{
    if (text.empty() || text.front() != '/') {
        return Error{"it does not start with '/'"};
    }
    if (text.size() > kMaxPathLength) {
        return Error{"it is longer than 8192 characters"};
    }
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const auto byte = static_cast<unsigned char>(c);
        if (byte <= 0x20 || byte == 0x7f) {
            return Error{"it contains whitespace or a control character"};
        }
        if (c == '\\') {
            return Error{"it contains a backslash, which some servers read as '/'"};
        }
        if (c == '#') {
            return Error{"it contains a fragment ('#')"};
        }
        if (c != '%') {
            out += c;
            continue;
        }
        if (i + 2 >= text.size() || hexDigitValue(text[i + 1]) < 0 || hexDigitValue(text[i + 2]) < 0) {
            return Error{"it has a '%' that is not followed by two hex digits"};
        }
        const char decoded = static_cast<char>(hexDigitValue(text[i + 1]) * 16 + hexDigitValue(text[i + 2]));
        if (decoded == '/' || decoded == '\\' || decoded == '\0') {
            return Error{"it has an encoded '/', '\\' or NUL (%2F, %5C, %00), which servers read differently"};
        }
        if (isUnreserved(decoded)) {
            out += decoded;
        } else {
            constexpr char kHex[] = "0123456789ABCDEF";
            out += '%';
            out += kHex[(static_cast<unsigned char>(decoded) >> 4) & 0xf];
            out += kHex[static_cast<unsigned char>(decoded) & 0xf];
        }
        i += 2;
    }
    // Segments, after decoding: "%2e%2E" is ".." to a server that decodes.
    size_t start = 1;
    while (start <= out.size()) {
        size_t end = out.find('/', start);
        if (end == std::string::npos) {
            end = out.size();
        }
        const std::string_view segment(out.data() + start, end - start);
        if (segment == "." || segment == "..") {
            return Error{"it has a '.' or '..' segment"};
        }
        if (segment.empty() && end != out.size()) {
            return Error{"it has an empty segment ('//')"};
        }
        start = end + 1;
    }
    return out;
}

}  // namespace

Result<PathGlob> PathGlob::parse(std::string_view pattern, Trailing trailing)
{
    if (pattern.empty()) {
        return Error{"the pattern is empty"};
    }
    if (pattern.find("***") != std::string_view::npos) {
        return Error{"'***' has no meaning; use '*' within a segment or '**' across segments"};
    }
    PathGlob glob;
    glob.text_ = std::string(pattern);
    for (size_t i = 0; i < pattern.size();) {
        if (pattern[i] == '*') {
            const bool twice = i + 1 < pattern.size() && pattern[i + 1] == '*';
            glob.tokens_.push_back({twice ? Kind::DoubleStar : Kind::Star, {}});
            i += twice ? 2 : 1;
            continue;
        }
        const size_t next = std::min(pattern.find('*', i), pattern.size());
        glob.tokens_.push_back({Kind::Literal, std::string(pattern.substr(i, next - i))});
        i = next;
    }
    if (trailing == Trailing::CoversParent && pattern.size() >= 3 && pattern.ends_with("/**")) {
        glob.hasParent_ = true;
        glob.parentTokens_ = glob.tokens_;
        glob.parentTokens_.pop_back();
        auto& last = glob.parentTokens_.back();  // the literal that ends in '/'
        last.literal.pop_back();
        if (last.literal.empty()) {
            glob.parentTokens_.pop_back();
        }
    }
    return glob;
}

bool PathGlob::matchTokens(const std::vector<Token>& tokens, std::string_view text)
{
    // reach[p]: the tokens so far can consume exactly text[0, p).
    std::vector<char> reach(text.size() + 1, 0);
    std::vector<char> next(text.size() + 1, 0);
    reach[0] = 1;
    for (const Token& token : tokens) {
        std::fill(next.begin(), next.end(), 0);
        bool run = false;
        for (size_t p = 0; p <= text.size(); ++p) {
            switch (token.kind) {
                case Kind::Literal:
                    if (reach[p] && text.substr(p).starts_with(token.literal)) {
                        next[p + token.literal.size()] = 1;
                    }
                    break;
                case Kind::Star:
                    if (p > 0 && text[p - 1] == '/') {
                        run = false;  // a '*' never crosses a '/'
                    }
                    run = run || reach[p];
                    next[p] = run;
                    break;
                case Kind::DoubleStar:
                    run = run || reach[p];
                    next[p] = run;
                    break;
            }
        }
        reach.swap(next);
    }
    return reach[text.size()] != 0;
}

bool PathGlob::matches(std::string_view text) const
{
    return matchTokens(tokens_, text) || (hasParent_ && matchTokens(parentTokens_, text));
}

Result<std::string> canonicalRequestPath(std::string_view target)
{
    const std::string_view path = target.substr(0, target.find('?'));
    auto normalized = normalizePath(path);
    if (!normalized) {
        return Error{"the request path '" + std::string(target.substr(0, 200)) +
                     "' is refused: " + normalized.error().what};
    }
    return normalized;
}

Result<std::string> canonicalPathPattern(std::string_view pattern)
{
    if (pattern.find('?') != std::string_view::npos) {
        return Error{"it has a '?': rules match the path only, never the query string"};
    }
    return normalizePath(pattern);
}

}  // namespace moat
