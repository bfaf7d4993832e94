// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace moat {

// How much of one exec's arguments the supervisor copies out of the caller:
// bounded, because the caller is the agent, which may pass a gigabyte of
// arguments or a pointer into anything it likes.
struct ExecReadLimits {
    std::size_t maxPath = 4096;        // bytes of the path
    std::size_t maxArgs = 64;          // argv entries
    std::size_t maxTotal = 16 * 1024;  // bytes of the path and every argument together
};

// The path and argv an execve or execveat was called with, as the caller's
// memory held them while it waited: a record of what was asked, best effort.
// Another thread of the caller may change them before the kernel reads them
// for real, so they say nothing certain about what ran.
struct ExecArguments {
    std::string path;
    std::vector<std::string> argv;
    bool pathTruncated = false;  // longer than maxPath, or no end before unreadable memory
    bool argvTruncated = false;  // an argument cut, more than maxArgs entries, or maxTotal reached
    int error = 0;               // errno when the path or the argv array could not be read at all
};

// Reads, from the memory of process `pid` (which waits in the system call
// meanwhile), the NUL-terminated path at `pathAddress` and the
// NULL-terminated array of string pointers at `argvAddress`. A null argv is
// an empty one (as the kernel takes it); a null path is EFAULT. Reads with
// process_vm_readv, a page at most at a time and only as far as the limits;
// memory that cannot be read ends what is read there.
//
// The pid is only a number: the caller must make sure, after reading, that
// it still named the same process throughout (ExecNotifier checks that the
// notification is still pending), or discard what was read.
ExecArguments readExecArguments(pid_t pid, std::uint64_t pathAddress, std::uint64_t argvAddress,
                                const ExecReadLimits& limits = {});

}  // namespace moat
