// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace moat {

// The top-level members of one line of events.jsonl that the verifier
// checks, read without building a JSON tree: a million lines are checked in
// the time a tree would take for a fraction of them. Views into the line;
// strings as written (moat writes these members without escapes, so a view
// with an escape in it simply does not match what is expected).
//
// scan() accepts one JSON object and nothing after it; members it does not
// name (data, ts, type, mac) are skipped whatever they hold, and the named
// ones count only with the right type (seq a number, the others strings). It is not a
// validator of everything JSON allows: the mac proves a line is moat's, and
// moat's writer (nlohmann::json) writes only well-formed JSON.
struct EventLine {
    std::optional<uint64_t> seq;
    std::string_view session;
    std::string_view prev;
    std::string_view key;  // line 1 only
    bool hasSession = false;
    bool hasPrev = false;
    bool hasKey = false;

    static std::optional<EventLine> scan(std::string_view line);
};

}  // namespace moat
