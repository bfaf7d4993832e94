// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/unique_fd.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <string>

namespace moat {

// One attached parent of a supervisor (ParentLink): moatd's end of the
// --parent-fd socketpair (SOCK_SEQPACKET, one JSON object per datagram), or
// a re-attached client on the supervisor's socket (a stream, one JSON object
// a line). Served on the supervisor's io_context, never blocking it:
// messages out are queued while the parent is slow, and a parent that reads
// nothing for long enough to pile up kMaxQueued bytes is dropped (the session
// runs on; the parent can re-attach).
class ParentConnection : public std::enable_shared_from_this<ParentConnection> {
public:
    enum class Framing { Datagrams, Lines };
    // A message: a JSON object with a string "t" (anything else is ignored,
    // not guessed at). Called on the io_context.
    using Receiver = std::function<void(const nlohmann::json& message)>;
    // The parent is gone: EOF, an error, a message over kMaxMessage, or a
    // parent that reads nothing. Called once.
    using Closed = std::function<void()>;

    static constexpr std::size_t kMaxMessage = 64 * 1024;
    static constexpr std::size_t kMaxQueued = 4 * 1024 * 1024;

    ParentConnection(boost::asio::io_context& io, UniqueFd fd, Framing framing);
    ~ParentConnection();
    ParentConnection(const ParentConnection&) = delete;
    ParentConnection& operator=(const ParentConnection&) = delete;

    void start(Receiver receiver, Closed closed);
    // False when the connection is closed (the message is dropped).
    bool send(const nlohmann::json& message);
    // Writes what is queued and `message`, blocking up to `timeout`: the
    // last words before the supervisor exits, when no event loop runs.
    void sendFinal(const nlohmann::json& message, std::chrono::milliseconds timeout);
    void close();
    bool isOpen() const { return stream_.is_open(); }
    // The peer's pid, from SO_PEERCRED (0 when unknown).
    int peerPid() const;

private:
    void waitReadable();
    void readAvailable();
    bool readDatagram();
    bool readLines();
    void deliver(std::string_view text);
    void flush();
    void fail();

    boost::asio::posix::stream_descriptor stream_;
    Framing framing_;
    Receiver receiver_;
    Closed closed_;
    std::string input_;
    std::deque<std::string> output_;
    std::size_t queued_ = 0;
    std::size_t sentOfFront_ = 0;  // Lines: bytes of output_.front() already written
    bool writing_ = false;
};

}  // namespace moat
