// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/unique_fd.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <functional>
#include <optional>
#include <string>

namespace moat {

// The Unix stream socket where a supervisor can be reached after its parent
// went away (MoatPaths::supervisorSocket: a restarted moatd re-attaches
// there; in embedded mode `moat stop` and `moat renew` come there).
//
// Who may connect: only a process of the supervisor's own uid. The
// directory is 0700 and the socket 0600, and each accepted peer is checked
// again by SO_PEERCRED (root passes the file modes; it does not pass this).
// The socket is removed when the listener is closed or destroyed; a
// supervisor that was killed leaves it behind, and connecting to it then
// fails with ECONNREFUSED.
class ReattachListener {
public:
    // A connection from a peer of our uid (the fd is non-blocking, close-on-exec).
    using Accepted = std::function<void(UniqueFd connection)>;

    explicit ReattachListener(boost::asio::io_context& io);
    ~ReattachListener();
    ReattachListener(const ReattachListener&) = delete;
    ReattachListener& operator=(const ReattachListener&) = delete;

    // Creates the socket's directory (0700, each missing level) if needed,
    // refuses one that is a symlink or not ours, replaces a stale socket of
    // the same name, binds and listens.
    Status listen(const std::string& path, Accepted accepted);
    void close();

    const std::string& path() const { return path_; }

    // Refuses a connection with one line {"t":"refused","reason":...} and closes it.
    static void refuse(UniqueFd connection, const std::string& reason);

private:
    void waitForConnection();
    void acceptAll();

    boost::asio::io_context& io_;
    std::optional<boost::asio::posix::stream_descriptor> listener_;
    UniqueFd directory_;
    std::string name_;
    std::string path_;
    Accepted accepted_;
};

}  // namespace moat
