// SPDX-License-Identifier: Apache-2.0
#include "runtime/fs_util.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace moat::fs {

namespace {

int openBeneath(int dirFd, const std::string& name, int flags)
{
    open_how how{};
    how.flags = static_cast<uint64_t>(flags | O_CLOEXEC);
    how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_BENEATH;
    return static_cast<int>(::syscall(SYS_openat2, dirFd, name.c_str(), &how, sizeof how));
}

std::vector<std::string> components(const std::string& path)
{
    std::vector<std::string> parts;
    size_t start = 0;
    while (start < path.size()) {
        size_t slash = path.find('/', start);
        if (slash == std::string::npos) {
            slash = path.size();
        }
        if (slash > start) {
            parts.push_back(path.substr(start, slash - start));
        }
        start = slash + 1;
    }
    return parts;
}

}  // namespace

Result<UniqueFd> openCanonical(const std::string& path, int flags)
{
    open_how how{};
    how.flags = static_cast<uint64_t>(flags | O_CLOEXEC);
    how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    UniqueFd fd(static_cast<int>(::syscall(SYS_openat2, AT_FDCWD, path.c_str(), &how, sizeof how)));
    if (!fd) {
        return Error::fromErrno("cannot open " + path, errno,
                                errno == ELOOP ? "A part of the path is a symlink; give the real path" : "");
    }
    return fd;
}

Status writeProcFile(pid_t pid, const char* name, const std::string& content)
{
    UniqueFd fd(::open(("/proc/" + std::to_string(pid) + "/" + name).c_str(), O_WRONLY | O_CLOEXEC));
    if (!fd || ::write(fd.get(), content.data(), content.size()) != static_cast<ssize_t>(content.size())) {
        return Error::fromErrno(std::string("cannot write /proc/PID/") + name + " for the sandbox", errno);
    }
    return {};
}

std::pair<std::string, std::string> splitParent(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) {
        return {"", path};
    }
    return {path.substr(0, slash), path.substr(slash + 1)};
}

Result<UniqueFd> makeDirsBeneath(int dirFd, const std::string& relative, mode_t mode)
{
    UniqueFd current(::fcntl(dirFd, F_DUPFD_CLOEXEC, 3));
    if (!current) {
        return Error::fromErrno("cannot duplicate a directory descriptor", errno);
    }
    for (const auto& part : components(relative)) {
        if (part == "." || part == "..") {
            return Error{"refusing the path component '" + part + "' in " + relative, EINVAL};
        }
        UniqueFd next(openBeneath(current.get(), part, O_PATH | O_DIRECTORY));
        if (!next && errno == ENOENT) {
            if (::mkdirat(current.get(), part.c_str(), mode) != 0 && errno != EEXIST) {
                return Error::fromErrno("cannot create the directory " + relative, errno);
            }
            next.reset(openBeneath(current.get(), part, O_PATH | O_DIRECTORY));
        }
        if (!next) {
            return Error::fromErrno("cannot open the directory " + relative, errno);
        }
        current = std::move(next);
    }
    return current;
}

Result<UniqueFd> makeFileBeneath(int dirFd, const std::string& relative)
{
    const auto [parent, name] = splitParent(relative);
    auto parentFd = makeDirsBeneath(dirFd, parent);
    if (!parentFd) {
        return parentFd.error();
    }
    UniqueFd file(openBeneath(parentFd->get(), name, O_PATH | O_NOFOLLOW));
    if (!file && errno == ENOENT) {
        UniqueFd created(::openat(parentFd->get(), name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                                  0644));
        if (!created && errno != EEXIST) {
            return Error::fromErrno("cannot create the mount point " + relative, errno);
        }
        file.reset(openBeneath(parentFd->get(), name, O_PATH | O_NOFOLLOW));
    }
    if (!file) {
        return Error::fromErrno("cannot open the mount point " + relative, errno);
    }
    return file;
}

Status writeFileAt(int dirFd, const std::string& name, const std::string& content, mode_t mode)
{
    UniqueFd fd(::openat(dirFd, name.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode));
    if (!fd) {
        return Error::fromErrno("cannot write " + name, errno);
    }
    size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd.get(), content.data() + done, content.size() - done);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return Error::fromErrno("cannot write " + name, errno);
        }
        done += static_cast<size_t>(n);
    }
    return {};
}

Status copyFileAt(int fromDirFd, const std::string& name, int toDirFd, const std::string& toName, size_t maxBytes)
{
    UniqueFd in(::openat(fromDirFd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (!in) {
        return Error::fromErrno("cannot read " + name, errno);
    }
    std::string content;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(in.get(), buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return Error::fromErrno("cannot read " + name, errno);
        }
        if (n == 0) {
            break;
        }
        content.append(buffer, static_cast<size_t>(n));
        if (content.size() > maxBytes) {
            return Error{name + " is larger than " + std::to_string(maxBytes) + " bytes", EFBIG};
        }
    }
    struct stat info {};
    mode_t mode = 0644;
    if (::fstat(in.get(), &info) == 0) {
        mode = info.st_mode & 0755;
    }
    return writeFileAt(toDirFd, toName, content, mode);
}

}  // namespace moat::fs
