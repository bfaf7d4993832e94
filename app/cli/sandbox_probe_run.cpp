// SPDX-License-Identifier: Apache-2.0
#include "sandbox_probe_run.h"

#include "base/program_path.h"
#include "probe/checks_json.h"
#include "probe/sandbox_context.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace moat::cli {

namespace {

constexpr size_t kMaxOutput = 1 << 20;  // the report is a few KiB

volatile sig_atomic_t g_probeChild = 0;
volatile sig_atomic_t g_interruptedBy = 0;

extern "C" void forwardToProbe(int signal)
{
    g_interruptedBy = signal;
    if (g_probeChild > 0) {
        ::kill(static_cast<pid_t>(g_probeChild), signal);
    }
}

// Signals that would leave the temporary workspace behind are passed on to
// `moat run` (which stops its sandbox) while this process waits for it.
class ForwardedSignals {
public:
    ForwardedSignals()
    {
        struct sigaction action {};
        action.sa_handler = forwardToProbe;
        sigemptyset(&action.sa_mask);
        for (size_t i = 0; i < kCount; ++i) {
            ::sigaction(kSignals[i], &action, &previous_[i]);
        }
    }
    ~ForwardedSignals()
    {
        for (size_t i = 0; i < kCount; ++i) {
            ::sigaction(kSignals[i], &previous_[i], nullptr);
        }
        g_probeChild = 0;
    }
    ForwardedSignals(const ForwardedSignals&) = delete;
    ForwardedSignals& operator=(const ForwardedSignals&) = delete;

private:
    static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
    static constexpr size_t kCount = sizeof kSignals / sizeof kSignals[0];
    struct sigaction previous_[kCount] {};
};

// An empty 0700 directory that is removed with what it holds (one file).
class ProbeWorkspace {
public:
    static Result<ProbeWorkspace> create()
    {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp == '/' ? tmp : "/tmp") + "/moat-probe-XXXXXX";
        if (!::mkdtemp(pattern.data())) {
            return Error::fromErrno("cannot create the probe's workspace " + pattern, errno,
                                    "Set TMPDIR to a writable directory");
        }
        char resolved[PATH_MAX];
        ProbeWorkspace workspace;
        workspace.path_ = ::realpath(pattern.c_str(), resolved) ? resolved : pattern;
        return workspace;
    }
    ProbeWorkspace() = default;
    ProbeWorkspace(ProbeWorkspace&& other) noexcept : path_(std::move(other.path_)), file_(std::move(other.file_))
    {
        other.path_.clear();
    }
    ProbeWorkspace& operator=(ProbeWorkspace&&) = delete;
    ~ProbeWorkspace()
    {
        if (!file_.empty()) {
            ::unlink(file_.c_str());
        }
        if (!path_.empty()) {
            ::rmdir(path_.c_str());
        }
    }
    const std::string& path() const { return path_; }

    // A copy of program, executable by the agent (the workspace is the
    // sandbox's one place outside the image, so the copy is what runs).
    Result<std::string> place(const std::string& program)
    {
        const std::string target = path_ + "/moat-probe";
        const int in = ::open(program.c_str(), O_RDONLY | O_CLOEXEC);
        if (in < 0) {
            return Error::fromErrno("cannot read " + program, errno,
                                    "Reinstall moat: moat-probe belongs beside moat or in its libexec directory");
        }
        const int out = ::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
        if (out < 0) {
            const int error = errno;
            ::close(in);
            return Error::fromErrno("cannot write " + target, error);
        }
        file_ = target;
        struct stat info {};
        bool copied = ::fstat(in, &info) == 0;
        for (off_t done = 0; copied && done < info.st_size;) {
            const ssize_t sent = ::sendfile(out, in, nullptr, static_cast<size_t>(info.st_size - done));
            copied = sent > 0;
            done += sent > 0 ? sent : 0;
        }
        const int error = errno;
        ::close(in);
        if (::close(out) != 0 || !copied) {
            return Error::fromErrno("cannot copy moat-probe into " + path_, error);
        }
        return target;
    }

private:
    std::string path_;
    std::string file_;
};

std::string selfPath()
{
    char self[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    return n > 0 ? std::string(self, static_cast<size_t>(n)) : std::string("moat");
}

struct Finished {
    int status = 0;
    std::string out;
    std::string err;
};

// Runs argv with stdin from /dev/null and both outputs collected (bounded).
Result<Finished> runCollecting(const std::vector<std::string>& argv)
{
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0) {
        return Error::fromErrno("pipe2", errno);
    }
    if (::pipe2(err, O_CLOEXEC) != 0) {
        const int error = errno;
        ::close(out[0]);
        ::close(out[1]);
        return Error::fromErrno("pipe2", error);
    }
    std::vector<char*> args;
    for (const auto& arg : argv) {
        args.push_back(const_cast<char*>(arg.c_str()));
    }
    args.push_back(nullptr);
    ForwardedSignals forwarded;
    const pid_t child = ::fork();
    if (child == 0) {
        const int devNull = ::open("/dev/null", O_RDONLY);
        if (devNull < 0 || ::dup2(devNull, 0) < 0 || ::dup2(out[1], 1) < 0 || ::dup2(err[1], 2) < 0) {
            ::_exit(125);
        }
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    const int forkError = errno;
    ::close(out[1]);
    ::close(err[1]);
    if (child < 0) {
        ::close(out[0]);
        ::close(err[0]);
        return Error::fromErrno("cannot start moat run", forkError);
    }
    g_probeChild = child;
    Finished finished;
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    std::string* sinks[2] = {&finished.out, &finished.err};
    int open = 2;
    while (open > 0) {
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) {
                continue;
            }
            char buffer[16384];
            const ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
            if (got > 0) {
                if (sinks[i]->size() < kMaxOutput) {
                    sinks[i]->append(buffer, static_cast<size_t>(got));
                }
            } else if (got == 0 || errno != EINTR) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (auto& fd : fds) {
        if (fd.fd >= 0) {
            ::close(fd.fd);
        }
    }
    while (::waitpid(child, &finished.status, 0) < 0 && errno == EINTR) {
    }
    return finished;
}

// The last lines moat run printed on stderr, for the error message.
std::string tail(const std::string& text)
{
    const size_t keep = 2000;
    std::string end = text.size() > keep ? text.substr(text.size() - keep) : text;
    while (!end.empty() && end.back() == '\n') {
        end.pop_back();
    }
    return end;
}

}  // namespace

Result<SandboxProbeResult> probeInFreshSandbox(const std::vector<std::string>& runFlags)
{
    const std::string program = siblingProgramPath("moat-probe");
    if (::access(program.c_str(), X_OK) != 0) {
        return Error::fromErrno("moat-probe is not installed at " + program, errno,
                                "Reinstall moat, or run `moat probe --host` to check this machine without a sandbox");
    }
    auto workspace = ProbeWorkspace::create();
    if (!workspace) {
        return workspace.error();
    }
    auto placed = workspace.value().place(program);
    if (!placed) {
        return placed.error();
    }
    const auto context = probe::SandboxContext::ofThisHost(workspace.value().path());
    std::vector<std::string> argv = {selfPath(), "run", "--workspace", workspace.value().path(), "--ttl", "5m"};
    argv.insert(argv.end(), runFlags.begin(), runFlags.end());
    argv.insert(argv.end(), {"--", placed.value(), "--inside", context.toJson()});
    g_interruptedBy = 0;
    auto finished = runCollecting(argv);
    if (!finished) {
        return finished.error();
    }
    SandboxProbeResult result;
    result.interruptedBy = g_interruptedBy;
    if (result.interruptedBy != 0) {
        return result;
    }
    const int status = finished.value().status;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        const std::string how = WIFEXITED(status) ? "exited with " + std::to_string(WEXITSTATUS(status))
                                                  : "was killed by signal " + std::to_string(WTERMSIG(status));
        return Error{"the probe's sandbox did not run: moat run " + how + "\n" + tail(finished.value().err), 0,
                     "Fix what moat run says above, or run `moat probe --host` to check this machine alone"};
    }
    auto checks = probe::checksFromJson(finished.value().out);
    if (!checks) {
        return checks.error();
    }
    result.checks = std::move(checks.value());
    return result;
}

}  // namespace moat::cli
