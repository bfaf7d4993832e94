// SPDX-License-Identifier: Apache-2.0
#include "base/sealed_memfd.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>

namespace moat {

Result<UniqueFd> sealedMemfd(const char* name, std::string_view bytes)
{
    UniqueFd fd(::memfd_create(name, MFD_ALLOW_SEALING | MFD_CLOEXEC));
    if (!fd) {
        return Error::fromErrno(std::string("cannot create the memfd ") + name, errno);
    }
    size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd.get(), bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return Error::fromErrno(std::string("cannot write the memfd ") + name, errno);
        }
        written += static_cast<size_t>(n);
    }
    if (::fcntl(fd.get(), F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) != 0 ||
        ::lseek(fd.get(), 0, SEEK_SET) != 0) {
        return Error::fromErrno(std::string("cannot seal the memfd ") + name, errno);
    }
    return fd;
}

}  // namespace moat
