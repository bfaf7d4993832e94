// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/unique_fd.h"

#include <cstddef>
#include <vector>

namespace moat {

// A kernel pipe used as the buffer of splice(): socket → pipe → socket
// without the bytes entering user space.
struct SplicePipe {
    UniqueFd readEnd;
    UniqueFd writeEnd;
};

// Pipes lent to tunnels only while bytes are in flight, so that thousands of
// idle tunnels hold no pipe at all (each pipe is two descriptors and counts
// against the user's pipe-buffer quota). Single-threaded, like the proxy.
class PipePool {
public:
    PipePool(std::size_t pipeBytes, std::size_t maxIdle) : pipeBytes_(pipeBytes), maxIdle_(maxIdle) {}

    // An empty pipe, non-blocking at both ends.
    Result<SplicePipe> take();
    // Only an empty pipe may be given back: bytes left in it would reach the
    // next tunnel that takes it.
    void giveBackEmpty(SplicePipe pipe);

    std::size_t idleCount() const { return idle_.size(); }

private:
    std::size_t pipeBytes_;
    std::size_t maxIdle_;
    std::vector<SplicePipe> idle_;
};

}  // namespace moat
