// SPDX-License-Identifier: Apache-2.0
// Fuzzes the command list of a git push body (parseReceivePackCommands),
// which the proxy reads from the agent before the push reaches its server,
// and the request path the rules judge. Beyond "no crash, no out-of-bounds
// read", it checks the promises push rules rely on: the answer does not
// depend on how the bytes were split, the limits hold, every ref returned is
// one git's receive-pack accepts, and decidePush never allows a ref no rule
// allows.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "policy/git_push.h"
#include "policy/http_rules.h"
#include "policy/path_glob.h"

namespace {

void check(bool condition)
{
    if (!condition) {
        __builtin_trap();
    }
}

bool isLowerHex(const std::string& text, size_t length)
{
    if (text.size() != length) {
        return false;
    }
    for (char c : text) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return false;
        }
    }
    return true;
}

const moat::HttpRuleSet& rules()
{
    static const moat::HttpRuleSet set =
        moat::HttpRuleSet::parse({"push git.example o/r refs/heads/main ask",
                                  "push git.example o/* refs/heads/** allow", "GET git.example /o/*/info/refs allow"})
            .value();
    return set;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    const moat::ReceivePackLimits limits{static_cast<size_t>(data[0] % 8) + 1, 4096};
    const std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);

    const auto whole = moat::parseReceivePackCommands(body, true, limits);
    if (whole.ok()) {
        const auto& commands = whole->commands;
        check(whole->complete);
        check(commands.consumed >= 4 && commands.consumed <= body.size());
        check(body.substr(commands.consumed - 4, 4) == "0000");
        check(commands.updates.size() <= limits.maxUpdates);
        for (const auto& update : commands.updates) {
            check(moat::refNameProblem(update.refName).empty());
            const size_t length = update.oldOid.size();
            check((length == 40 || length == 64) && isLowerHex(update.oldOid, length) &&
                  isLowerHex(update.newOid, length));
        }
        // Any prefix that reaches the flush-pkt gives the same answer; a
        // shorter one asks for more and never invents a list.
        for (size_t cut : {commands.consumed, commands.consumed - 1, commands.consumed / 2}) {
            const auto part = moat::parseReceivePackCommands(body.substr(0, cut), false, limits);
            check(part.ok());
            check(part->complete == (cut == commands.consumed));
            if (part->complete) {
                check(part->commands.updates == commands.updates && part->commands.consumed == commands.consumed);
            }
        }
        // A push is never allowed unless every ref is.
        const auto decision = rules().decidePush("git.example", 443, "o/r", commands.updates);
        if (decision.action == moat::RuleAction::Allow) {
            check(!commands.updates.empty());
            for (const auto& update : commands.updates) {
                check(update.refName.starts_with("refs/heads/") && update.refName != "refs/heads/main");
            }
        }
    }

    // The same bytes as a request target: a canonical path never holds what
    // a server could read as another path.
    const auto path = moat::canonicalRequestPath(body);
    if (path.ok()) {
        check(path->starts_with("/"));
        check(path->find("/../") == std::string::npos && !path->ends_with("/..") &&
              path->find("//") == std::string::npos);
        check(path->find('\\') == std::string::npos && path->find('?') == std::string::npos);
        (void)rules().decide("GET", "git.example", 443, body);
        (void)rules().pushRepository("git.example", 443, body);
    }
    return 0;
}
