// SPDX-License-Identifier: Apache-2.0
#include "session/exec_arguments.h"

#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

namespace moat {

namespace {

// Reads never cross a page boundary: a read that touches an unmapped page
// fails whole, so reading a page at a time keeps what came before it.
constexpr std::size_t kPage = 4096;

struct RemoteString {
    std::string text;
    bool truncated = false;  // no NUL within the limit, or unreadable before it
    int error = 0;           // not one byte could be read
};

// process_vm_readv rather than /proc/PID/mem: the latter is owned by root
// when the process is not dumpable, so an ordinary user's supervisor could
// not open it for an agent that made itself so; process_vm_readv asks only
// for ptrace access, which the supervisor has as the owner of the sandbox's
// user namespace. Returns the bytes read, or -1 with errno.
ssize_t readAt(pid_t pid, void* into, std::size_t size, std::uint64_t address)
{
    iovec local{into, size};
    iovec remote{reinterpret_cast<void*>(static_cast<std::uintptr_t>(address)), size};
    ssize_t n;
    do {
        n = ::process_vm_readv(pid, &local, 1, &remote, 1, 0);
    } while (n < 0 && errno == EINTR);
    return n;
}

std::size_t toPageEnd(std::uint64_t address)
{
    return kPage - static_cast<std::size_t>(address % kPage);
}

RemoteString readString(pid_t pid, std::uint64_t address, std::size_t limit)
{
    RemoteString out;
    if (address == 0) {
        out.error = EFAULT;
        return out;
    }
    std::array<char, kPage> buffer;
    while (out.text.size() < limit) {
        const std::uint64_t at = address + out.text.size();
        const std::size_t want = std::min(limit - out.text.size(), toPageEnd(at));
        const ssize_t n = readAt(pid, buffer.data(), want, at);
        if (n <= 0) {
            if (out.text.empty()) {
                out.error = n < 0 ? errno : EFAULT;
            }
            out.truncated = true;
            return out;
        }
        const auto got = static_cast<std::size_t>(n);
        if (const void* end = std::memchr(buffer.data(), '\0', got)) {
            out.text.append(buffer.data(), static_cast<std::size_t>(static_cast<const char*>(end) - buffer.data()));
            return out;
        }
        out.text.append(buffer.data(), got);
    }
    out.truncated = true;  // the limit came before the end
    return out;
}

// Up to `count` pointers of the array at `address`; fewer when the array runs
// into unreadable memory.
std::vector<std::uintptr_t> readPointers(pid_t pid, std::uint64_t address, std::size_t count, int* error)
{
    std::vector<std::uintptr_t> pointers(count, 0);
    const std::size_t total = count * sizeof(std::uintptr_t);
    auto* bytes = reinterpret_cast<char*>(pointers.data());
    std::size_t done = 0;
    while (done < total) {
        const std::size_t want = std::min(total - done, toPageEnd(address + done));
        const ssize_t n = readAt(pid, bytes + done, want, address + done);
        if (n <= 0) {
            if (done == 0) {
                *error = n < 0 ? errno : EFAULT;
            }
            break;
        }
        done += static_cast<std::size_t>(n);
    }
    pointers.resize(done / sizeof(std::uintptr_t));
    return pointers;
}

}  // namespace

ExecArguments readExecArguments(pid_t pid, std::uint64_t pathAddress, std::uint64_t argvAddress,
                                const ExecReadLimits& limits)
{
    ExecArguments out;
    RemoteString path = readString(pid, pathAddress, std::min(limits.maxPath, limits.maxTotal));
    if (path.error != 0) {
        out.error = path.error;
        return out;
    }
    out.path = std::move(path.text);
    out.pathTruncated = path.truncated;
    if (argvAddress == 0) {
        return out;
    }

    // maxArgs entries and the terminator.
    int error = 0;
    const std::vector<std::uintptr_t> pointers = readPointers(pid, argvAddress, limits.maxArgs + 1, &error);
    if (error != 0) {
        out.error = error;
        return out;
    }
    std::size_t count = 0;
    while (count < pointers.size() && pointers[count] != 0) {
        ++count;
    }
    // No terminator among what was read: more arguments than the limit, or
    // an array that runs into unreadable memory (the kernel would refuse it).
    out.argvTruncated = count == pointers.size();
    count = std::min(count, limits.maxArgs);

    std::size_t budget = limits.maxTotal - out.path.size();
    for (std::size_t i = 0; i < count; ++i) {
        if (budget == 0) {
            out.argvTruncated = true;
            break;
        }
        RemoteString arg = readString(pid, pointers[i], budget);
        if (arg.error != 0) {
            out.argvTruncated = true;  // a pointer to nothing: the kernel refuses the call with EFAULT
            break;
        }
        budget -= arg.text.size();
        out.argvTruncated = out.argvTruncated || arg.truncated;
        out.argv.push_back(std::move(arg.text));
    }
    return out;
}

}  // namespace moat
