// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/unique_fd.h"

#include <nlohmann/json.hpp>

namespace moat {

// The name of the exec user-notification listener among Sandbox::listeners.
inline constexpr char kExecNotifyListener[] = "exec-notify";

// The socketpair between moat-supervisor and sandbox init (SOCK_SEQPACKET:
// one JSON object per datagram, optionally with one fd by SCM_RIGHTS).
//
// Messages, init -> supervisor:
//   {"t":"error","what","errno","hint"}   setup failed; init exits 125
//   {"t":"pty"} + master fd                the agent's terminal
//   {"t":"listener","name"} + socket fd    a socket of the sandbox's loopback to serve ("dns-udp", "dns-tcp",
//                                          "proxy-http", "proxy-socks": policy/egress_endpoints.h)
//   {"t":"listener","name":"exec-notify"} + seccomp listener fd
//                                          every execve/execveat in the sandbox waits for an answer on it; sent
//                                          before "confined", so the supervisor holds it before the command's
//                                          first exec (only when the launcher was asked to: LaunchOptions)
//   {"t":"confined","landlock_abi","landlock_fs","landlock_net","landlock_scoped","seccomp","exec_notify",
//    "degraded":[...]}
//   {"t":"started","pid"}                  the command runs
//   {"t":"exec_failed","errno","command"}  the command could not be executed
//   {"t":"stopped","signal"}               the command was stopped (job control)
// supervisor -> init:
//   {"t":"go"}       id maps are written; build the sandbox
//   {"t":"resume"}   the user resumed a stopped session (SIGCONT)
//
// Once the command runs, everything init says is treated as untrusted by the
// supervisor: init is inside the sandbox.
class InitChannel {
public:
    struct Message {
        nlohmann::json body;
        UniqueFd fd;
    };

    InitChannel() = default;
    explicit InitChannel(UniqueFd fd) : fd_(std::move(fd)) {}

    static Result<std::pair<InitChannel, InitChannel>> makePair();

    Status send(const nlohmann::json& body, int fdToPass = -1) const;
    // Blocks. A closed peer is an Error with errnum 0 and what "closed".
    Result<Message> receive() const;

    int fd() const { return fd_.get(); }
    void close() { fd_.reset(); }

private:
    UniqueFd fd_;
};

}  // namespace moat
