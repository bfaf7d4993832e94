// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"

namespace moat {

// A glob over '/'-separated names, as the PATH of an HTTP rule and the REPO
// and REF of a push rule are written:
//   *    any run of characters within one segment (never '/'), maybe empty
//   **   any run of characters, '/' included, maybe empty
//   a pattern ending in "/**" also matches what precedes it, when parsed
//   with Trailing::CoversParent (PATH does, REPO and REF do not): so
//   "/repos/o/r/**" covers "/repos/o/r" itself and everything below it,
//   while "refs/heads/**" covers every branch and not a ref "refs/heads"
// Every other character matches itself, case-sensitively. There is no '?',
// no [class] and no escaping: fewer meanings, fewer surprises in a rule that
// guards a network edge.
//
// Matching runs in O(pattern tokens x text length), whatever the input: the
// text is chosen by the agent, and a backtracking matcher could be made slow.
class PathGlob {
public:
    enum class Trailing { CoversParent, Exact };

    // Refuses "***" and an empty pattern; the caller checks its own alphabet.
    static Result<PathGlob> parse(std::string_view pattern, Trailing trailing = Trailing::CoversParent);

    bool matches(std::string_view text) const;
    const std::string& text() const { return text_; }

private:
    enum class Kind { Literal, Star, DoubleStar };
    struct Token {
        Kind kind = Kind::Literal;
        std::string literal;
    };

    static bool matchTokens(const std::vector<Token>& tokens, std::string_view text);

    std::string text_;
    std::vector<Token> tokens_;
    // The tokens without a trailing "/**", when the pattern has one.
    std::vector<Token> parentTokens_;
    bool hasParent_ = false;
};

// The request path as rules see it, from an origin-form request target
// ("/a/b?q"): the query is dropped (rules never look at it), percent-encoded
// unreserved characters are decoded and other escapes upper-cased (RFC 3986
// 6.2.2), and anything a server might read as a different path is refused
// rather than guessed at: dot segments ("/a/../b", also as %2E), empty
// segments ("//"), an encoded '/', '\' or NUL, a backslash, a fragment,
// whitespace or control characters. The Error says which.
Result<std::string> canonicalRequestPath(std::string_view target);

// The same normalisation for the PATH of a rule, which may also hold '*'.
// Refuses what canonicalRequestPath would refuse (such a rule could never
// match) and a '?' (rules do not match query strings).
Result<std::string> canonicalPathPattern(std::string_view pattern);

}  // namespace moat
