// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace moat::cli {

// The line `moat run` prints on the terminal that started a session when
// moatd says a request of its agent waits for a person (a request as
// ListApprovals shows it: id, flags, command, reason, expires). The flags,
// the command and the reason were written by the agent: every control
// character (C0, DEL, C1) is shown as '?' so that nothing the agent wrote
// can move the cursor, change colours or talk to the terminal, and the
// reason is shortened and quoted as the agent's words.
//
// Kind "http" (an HTTP request the user's `ask` rule holds): what is held
// ("POST api.github.com/repos/o/r/issues"), the rule, and how to answer.
std::string approvalNotice(const nlohmann::json& request);

// An HTTP request as ListApprovals shows it ("http": method, host, port,
// path, rule, refs), on one line, terminal-safe: "POST host/path (updates
// refs/heads/main) (rule 'POST host /** ask')".
std::string httpRequestLine(const nlohmann::json& http);

}  // namespace moat::cli
