// SPDX-License-Identifier: Apache-2.0
#include "egress/pipe_pool.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace moat {

Result<SplicePipe> PipePool::take()
{
    if (!idle_.empty()) {
        SplicePipe pipe = std::move(idle_.back());
        idle_.pop_back();
        return pipe;
    }
    int ends[2];
    if (::pipe2(ends, O_NONBLOCK | O_CLOEXEC) != 0) {
        return Error::fromErrno("cannot create a pipe for a tunnel", errno);
    }
    SplicePipe pipe{UniqueFd(ends[0]), UniqueFd(ends[1])};
    // Larger pipes move more per splice(); the kernel may grant less (over
    // the user's pipe quota it is one page), which only costs speed.
    (void)::fcntl(pipe.writeEnd.get(), F_SETPIPE_SZ, static_cast<int>(pipeBytes_));
    return pipe;
}

void PipePool::giveBackEmpty(SplicePipe pipe)
{
    if (idle_.size() < maxIdle_) {
        idle_.push_back(std::move(pipe));
    }
}

}  // namespace moat
