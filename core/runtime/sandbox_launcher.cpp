// SPDX-License-Identifier: Apache-2.0
#include "runtime/sandbox_launcher.h"

#include "runtime/fs_util.h"
#include "runtime/init_plan.h"
#include "runtime/kernel_support.h"
#include "runtime/sandbox_init.h"
#include "runtime/seccomp_listener.h"
#include "runtime/session_trust.h"
#include "runtime/syscalls.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <vector>

namespace moat {

namespace {

// Closes every fd from 3 up except those in `keep` (sorted). No allocation:
// runs in the child of clone3.
void closeAllFdsExcept(const std::vector<int>& keep)
{
    unsigned int from = 3;
    for (int fd : keep) {
        const auto kept = static_cast<unsigned int>(fd);
        if (kept > from) {
            ::close_range(from, kept - 1, 0);
        }
        if (kept >= from) {
            from = kept + 1;
        }
    }
    ::close_range(from, ~0U, 0);
}

Error userNamespaceError(int err)
{
    return Error::fromErrno("this kernel does not let moat create the sandbox's namespaces", err,
                            "moat needs user namespaces: check that sysctl user.max_user_namespaces is above 0, "
                            "that kernel.unprivileged_userns_clone=1 (Debian kernels before 6.x) and that no "
                            "AppArmor or SELinux policy forbids them (kernel.apparmor_restrict_unprivileged_userns=0). "
                            "There is no degraded mode without them");
}

struct Pipe {
    UniqueFd read;
    UniqueFd write;
};

Result<Pipe> makePipe()
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        return Error::fromErrno("cannot create a pipe", errno);
    }
    return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

// Init's exec of the command comes right after "confined" and waits on the
// exec listener. Answered here, it need not wait for the caller's event
// loop (the records, the relay and the proxy are set up meanwhile), and it
// needs no reading: the spec says what init runs, and init's memory is not
// readable anyway to an ordinary user's supervisor (not dumpable, made in
// the host's user namespace). Gives up when init says something instead
// (the command could not be executed) or after a while; whatever is still
// waiting then is the caller's to answer.
void letTheCommandStart(int listenerFd, int channelFd)
{
    constexpr int kPatienceMs = 2000;
    SeccompListener listener(listenerFd);
    pollfd fds[2] = {{listenerFd, POLLIN, 0}, {channelFd, POLLIN, 0}};
    int polled;
    do {
        polled = ::poll(fds, 2, kPatienceMs);
    } while (polled < 0 && errno == EINTR);
    if (polled <= 0 || !(fds[0].revents & POLLIN)) {
        return;
    }
    if (listener.wait(0) != SeccompListener::State::Waiting) {
        return;
    }
    if (auto request = listener.receive(); request) {
        (void)listener.letRun(request->id);
    }
}

}  // namespace

Result<Sandbox> SandboxLauncher::launch(const SandboxSpec& spec, const MoatPaths& paths, StdioMode stdio,
                                        const std::function<Status()>& whileBuilding, LaunchOptions options)
{
    const KernelSupport kernel = KernelSupport::probe();
    if (auto supported = kernel.check(spec); !supported) {
        return supported.error();
    }
    auto identity = AgentIdentity::forCurrentProcess(spec.sudo);
    if (!identity) {
        return identity.error();
    }
    const AgentIdentity& id = identity.value();
    spdlog::debug("kernel: Landlock ABI {}, seccomp {}", kernel.landlockAbi, kernel.seccomp ? "yes" : "no");
    spdlog::debug("agent: host uid {}, inside uid {} ({}), home {}{}", id.hostUid, id.insideUid, id.name, id.home,
                  id.privilegedInvoker ? ", idmapped mounts" : "");
    auto plan = planSandboxInit(spec, paths, id, kernel, stdio);
    if (!plan) {
        return plan.error();
    }
    InitConfig& config = plan->config;
    config.seccomp.notifyExec = options.execNotify && kernel.execNotify && config.useSeccomp;
    if (!options.sessionCaPem.empty()) {
        config.rootfs.sessionCaPem = options.sessionCaPem;
        SessionTrust::addEnvironment(config.environment);
    }
    for (const auto& entry : options.extraEnvironment) {
        const std::string name = entry.substr(0, entry.find('=') + 1);
        std::erase_if(config.environment, [&name](const std::string& present) { return present.starts_with(name); });
        config.environment.push_back(entry);
    }

    Sandbox sandbox;
    sandbox.identity = id;
    sandbox.hostname = config.rootfs.hostname;
    Pipe in, out, err;
    for (auto [needed, pipe] : {std::pair{!stdio.stdinTty, &in}, {!stdio.stdoutTty, &out}, {!stdio.stderrTty, &err}}) {
        if (needed) {
            auto made = makePipe();
            if (!made) {
                return made.error();
            }
            *pipe = std::move(made.value());
        }
    }
    config.stdinFd = in.read.get();
    config.stdoutFd = out.write.get();
    config.stderrFd = err.write.get();

    auto channels = InitChannel::makePair();
    if (!channels) {
        return channels.error();
    }
    auto& [supervisorEnd, initEnd] = channels.value();

    // Every fd init needs; it closes all others before it does anything.
    // Computed here because the child must not allocate.
    std::vector<int> initKeeps = {initEnd.fd(), config.stdinFd, config.stdoutFd, config.stderrFd};
    for (const auto& bind : config.rootfs.binds) {
        initKeeps.push_back(bind.preparedTreeFd);
    }
    std::erase_if(initKeeps, [](int fd) { return fd < 3; });
    std::sort(initKeeps.begin(), initKeeps.end());

    sys::CloneArgs args;
    args.flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP |
                 sys::kCloneNewTime | CLONE_PIDFD;
    if (config.newNetwork) {
        args.flags |= CLONE_NEWNET;
    }
    int pidfd = -1;
    args.pidfd = reinterpret_cast<uint64_t>(&pidfd);
    args.exitSignal = SIGCHLD;
    const long pid = sys::clone3(args);
    if (pid < 0) {
        return userNamespaceError(errno);
    }
    if (pid == 0) {
        // Sandbox init. Nothing of the user's terminal comes along: its
        // stdio is /dev/null, and every other inherited fd closes on exec.
        // Init must hold none of the supervisor's ends, or the command would
        // never see EOF on its stdin.
        supervisorEnd.close();
        in.write.reset();
        out.read.reset();
        err.read.reset();
        const int devNull = ::open("/dev/null", O_RDWR);
        for (int fd = 0; fd < 3 && devNull >= 0; ++fd) {
            ::dup2(devNull, fd);
        }
        // Close, not just mark close-on-exec: init never execs, and the
        // supervisor holds fds that lead out of the sandbox (its parent
        // link to moatd, the user's terminal, sockets) which init, the
        // sandbox's pid 1, must never hold.
        closeAllFdsExcept(initKeeps);
        ::_exit(runSandboxInit(config, initEnd));
    }
    sandbox.initPid = static_cast<pid_t>(pid);
    spdlog::debug("sandbox init is pid {}", pid);
    sandbox.pidfd.reset(pidfd);
    initEnd.close();
    plan->preparedTrees.clear();
    in.read.reset();
    out.write.reset();
    err.write.reset();
    sandbox.stdinWrite = std::move(in.write);
    sandbox.stdoutRead = std::move(out.read);
    sandbox.stderrRead = std::move(err.read);
    sandbox.channel = std::move(supervisorEnd);

    auto abandon = [&sandbox](const Error& error) -> Result<Sandbox> {
        ::kill(sandbox.initPid, SIGKILL);
        ::waitpid(sandbox.initPid, nullptr, 0);
        return error;
    };

    Status mapped;
    if (id.privilegedInvoker) {
        mapped = fs::writeProcFile(sandbox.initPid, "uid_map", id.uidMapLine());
        if (mapped) {
            mapped = fs::writeProcFile(sandbox.initPid, "gid_map", id.gidMapLine());
        }
    } else {
        // Unprivileged: setgroups must be denied before a gid map is accepted.
        mapped = fs::writeProcFile(sandbox.initPid, "setgroups", "deny");
        if (mapped) {
            mapped = fs::writeProcFile(sandbox.initPid, "uid_map", id.uidMapLine());
        }
        if (mapped) {
            mapped = fs::writeProcFile(sandbox.initPid, "gid_map", id.gidMapLine());
        }
    }
    if (!mapped) {
        return abandon(mapped.error());
    }
    if (auto sent = sandbox.channel.send({{"t", "go"}}); !sent) {
        return abandon(sent.error());
    }
    if (auto prepared = whileBuilding(); !prepared) {
        return abandon(prepared.error());
    }
    for (;;) {
        auto message = sandbox.channel.receive();
        if (!message) {
            return abandon(Error{"the sandbox failed to start", 0, "Run with -v for details"});
        }
        const std::string type = message->body["t"].get<std::string>();
        if (type == "error") {
            const auto& body = message->body;
            return abandon(Error{"cannot build the sandbox: " + body.value("what", std::string()),
                                 body.value("errno", 0), body.value("hint", std::string())});
        }
        if (type == "pty" && message->fd) {
            sandbox.ptyMaster = std::move(message->fd);
        } else if (type == "listener" && message->fd && message->body.value("name", std::string()).size() > 0) {
            sandbox.listeners[message->body["name"].get<std::string>()] = std::move(message->fd);
        } else if (type == "confined") {
            sandbox.confinement = message->body;
            spdlog::debug("sandbox confined: {}", message->body.dump());
            if (auto exec = sandbox.listeners.find(kExecNotifyListener); exec != sandbox.listeners.end()) {
                letTheCommandStart(exec->second.get(), sandbox.channel.fd());
            }
            return sandbox;
        }
    }
}

}  // namespace moat
