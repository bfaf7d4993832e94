// SPDX-License-Identifier: Apache-2.0
#include "session/terminal_guard.h"

#include <sys/ioctl.h>
#include <unistd.h>

namespace moat {

TerminalGuard::TerminalGuard(int fd)
{
    if (fd >= 0 && ::isatty(fd) && ::tcgetattr(fd, &original_) == 0) {
        fd_ = fd;
        saved_ = true;
    }
}

TerminalGuard::~TerminalGuard()
{
    restore();
}

void TerminalGuard::makeRaw()
{
    if (!saved_ || raw_) {
        return;
    }
    termios raw = original_;
    ::cfmakeraw(&raw);
    if (::tcsetattr(fd_, TCSADRAIN, &raw) == 0) {
        raw_ = true;
    }
}

void TerminalGuard::restore()
{
    if (saved_ && raw_) {
        ::tcsetattr(fd_, TCSADRAIN, &original_);
        raw_ = false;
    }
}

void TerminalGuard::copyWindowSize(int ptyMaster) const
{
    winsize size{};
    if (saved_ && ptyMaster >= 0 && ::ioctl(fd_, TIOCGWINSZ, &size) == 0) {
        ::ioctl(ptyMaster, TIOCSWINSZ, &size);
    }
}

}  // namespace moat
