// SPDX-License-Identifier: Apache-2.0
#include "probe/forked_steps.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace moat::probe {

void failForkedStep(int step, int errorPipe)
{
    const int error = errno;
    [[maybe_unused]] const auto sent = ::write(errorPipe, &error, sizeof error);
    ::_exit(step);
}

std::string runForkedSteps(void (*child)(const void* argument, int errorPipe), const void* argument,
                           const char* (*describeStep)(int status))
{
    int errors[2];
    if (::pipe2(errors, O_CLOEXEC) != 0) {
        return std::string("pipe2: ") + std::strerror(errno);
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int error = errno;
        ::close(errors[0]);
        ::close(errors[1]);
        return std::string("fork: ") + std::strerror(error);
    }
    if (pid == 0) {
        ::close(errors[0]);
        child(argument, errors[1]);
        ::_exit(127);  // child() must not return
    }
    ::close(errors[1]);
    int status = 0;
    pid_t waited = 0;
    while ((waited = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }
    const int waitError = errno;
    int childErrno = 0;
    const bool gotErrno = ::read(errors[0], &childErrno, sizeof childErrno) == sizeof childErrno;
    ::close(errors[0]);
    if (waited != pid) {
        return std::string("waitpid: ") + std::strerror(waitError);
    }
    if (!WIFEXITED(status)) {
        return "the child was killed by signal " + std::to_string(WTERMSIG(status));
    }
    if (WEXITSTATUS(status) == 0) {
        return {};
    }
    return std::string(describeStep(WEXITSTATUS(status))) + (gotErrno ? std::string(": ") + std::strerror(childErrno) : "");
}

}  // namespace moat::probe
