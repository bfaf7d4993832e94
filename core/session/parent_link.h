// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/unique_fd.h"
#include "session/reattach_listener.h"

#include <boost/asio/io_context.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>

namespace moat {

class ParentConnection;

// The supervisor's link to its parent: moatd's socketpair from --parent-fd,
// and the re-attach socket (ReattachListener) where a restarted moatd, or in
// embedded mode `moat stop` / `moat renew`, reaches the session. One parent
// at a time: a second connection while one is attached is refused with
// {"t":"refused","reason":...}. Without a parent the session runs on
// unchanged; messages for the parent are then dropped (a parent that
// attaches learns the state from hello, started and the pending requests).
//
// The messages (the contract with moatd; docs/moatd.md):
//
// supervisor -> parent
//   {"t":"hello","session","pid","reattach":bool,"embedded":bool}
//                           first on every link; embedded: no --parent-fd,
//                           so nobody decides escalation requests
//   {"t":"started","session","expires","supervisor_pid"}
//                           the sandbox runs (after session.start is
//                           recorded); sent again right after hello on a
//                           link attached later
//   {"t":"events","last_seq","count"}     records appended, at most every 250 ms
//   {"t":"request","rid","session","request":{...},"timeout_seconds","requested","deadline"}
//                           an agent's escalation request (POST
//                           $MOAT_API/v1/requests); every pending one again
//                           on a link attached later
//   {"t":"request","rid":"h-...","session","kind":"http","http":{"method","host",
//    "port","path","rule","refs"?},"timeout_seconds","requested","deadline"}
//                           an HTTP request an `ask` rule holds (HttpAskDesk);
//                           sent again the same way
//   {"t":"renewed","expires"}             the answer to renew
//   {"t":"error","for","message"}         a parent message that could not be
//                                         carried out (e.g. renew of an
//                                         expiring session)
//   {"t":"ended","state":"exited"|"expired"|"stopped"|"failed","exit_code"}
//                           last; the supervisor exits right after
// parent -> supervisor
//   {"t":"stop","by":{"uid","user","client"}}
//   {"t":"renew","ttl":"30m","by":{...}}  empty ttl: the session's own
//   {"t":"signal","signal":N}             forwarded to the sandbox's command
//   {"t":"decision","rid","decision":"approved"|"denied"|"timed_out","by","reason","successor":bool}
//
// Framing: the socketpair is SOCK_SEQPACKET, one JSON object a datagram; the
// re-attach socket is a stream, one JSON object a line.
class ParentLink {
public:
    struct Handlers {
        std::function<void(const nlohmann::json& message)> onMessage;
        // A parent attached and was sent hello: the place to tell it the state.
        std::function<void(bool reattach)> onAttached;
    };

    ParentLink(boost::asio::io_context& io, std::string sessionId, bool embedded, Handlers handlers);
    ~ParentLink();
    ParentLink(const ParentLink&) = delete;
    ParentLink& operator=(const ParentLink&) = delete;

    // The socketpair end from --parent-fd: attached at once, hello sent.
    void attachParentFd(UniqueFd fd);
    // Starts the re-attach socket at `path`.
    Status listen(const std::string& path);

    bool attached() const;
    bool embedded() const { return embedded_; }
    // False when no parent is attached (the message is dropped).
    bool send(const nlohmann::json& message);
    // The last message, written before returning (bounded wait): the event
    // loop has stopped by then.
    void sendFinal(const nlohmann::json& message);
    // Stops listening (removing the socket) and drops the parent.
    void close();

private:
    void adopt(UniqueFd fd, bool reattach);
    void onConnection(UniqueFd fd);

    boost::asio::io_context& io_;
    std::string sessionId_;
    bool embedded_;
    Handlers handlers_;
    ReattachListener listener_;
    std::shared_ptr<ParentConnection> current_;
};

}  // namespace moat
