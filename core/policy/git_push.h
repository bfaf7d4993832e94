// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"

namespace moat {

// One ref a push updates: "old-oid new-oid refname" of the receive-pack
// command list. Object ids are lower-case hex (40 for SHA-1, 64 for SHA-256).
struct RefUpdate {
    std::string oldOid;
    std::string newOid;
    std::string refName;  // full name, "refs/heads/main"

    bool isCreate() const { return oldOid.find_first_not_of('0') == std::string::npos; }
    bool isDelete() const { return newOid.find_first_not_of('0') == std::string::npos; }

    friend bool operator==(const RefUpdate&, const RefUpdate&) = default;
};

// The command list at the head of a `git push` request body (POST
// .../git-receive-pack, gitprotocol-pack(5)):
//   *PKT-LINE("shallow" SP oid)
//   PKT-LINE(old SP new SP ref NUL capabilities) *PKT-LINE(old SP new SP ref)
//   flush-pkt
// followed by push options (when negotiated) and the pack, which are not
// read here: push rules judge the refs, and the refs are all in the list.
struct ReceivePackCommands {
    std::vector<RefUpdate> updates;
    std::vector<std::string> capabilities;  // from the first command line
    size_t shallowLines = 0;
    // Bytes of the body up to and including the flush-pkt.
    size_t consumed = 0;
};

struct ReceivePackLimits {
    size_t maxUpdates = 1000;
    // The command list is held in memory while a rule decides; an agent
    // must not make the supervisor hold more than this per request.
    size_t maxBytes = 256 * 1024;
};

// The outcome of reading a body prefix: the command list is complete, or
// everything so far is well-formed and more bytes are needed.
struct ReceivePackParse {
    bool complete = false;
    ReceivePackCommands commands;  // meaningful when complete
};

// Reads the command list from the first bytes of a receive-pack body. The
// caller feeds a growing prefix until `complete`; bodyComplete says the
// prefix is the whole body, so that a list cut short is an error rather
// than a wait. Malformed input is an Error that says what is wrong, never a
// best guess: a rule must judge exactly the refs the server will update.
// Refused: a bad pkt-line length, a delimiter or empty packet, a line that
// is not "old new ref" with hex ids of the length the capabilities imply, a
// ref name git's receive-pack would refuse ("funny refname"), a NUL after
// the first line, a signed push (push-cert: its commands are inside a
// certificate), more than limits.maxUpdates updates or limits.maxBytes
// bytes before the flush-pkt.
Result<ReceivePackParse> parseReceivePackCommands(std::string_view body, bool bodyComplete,
                                                  const ReceivePackLimits& limits = {});

// Whether a receive-pack body with this Content-Encoding header can be read.
// Only the identity encoding can: git never compresses a push request (it
// gzips only fetch requests, git-upload-pack), and inflating an agent's
// body to find its refs would be one more parser on the trust boundary for
// no client that needs it. The Error says so, for the 403 and the event.
Status checkReceivePackEncoding(std::string_view contentEncoding);

// Whether a receive-pack body is git's probe: the flush-pkt "0000" alone.
// git's HTTP transport (remote-curl's probe_rpc) POSTs it before a push
// larger than http.postBuffer, and streams the real push only if the probe
// is answered 200. It names no ref, and receive-pack updates nothing for it
// (no command, no pack read, no hook run), so it needs no rule's consent;
// refusing it would fail every large push whatever the rules say.
bool isReceivePackProbe(std::string_view body);

// Why a ref name is one git's receive-pack refuses, or empty when it is
// acceptable: it must start with "refs/" and pass git's refname rules.
std::string refNameProblem(std::string_view name);

}  // namespace moat
