// SPDX-License-Identifier: Apache-2.0
#include "runtime/sandbox_init.h"

#include "policy/egress_endpoints.h"
#include "runtime/capabilities.h"
#include "runtime/command_exec.h"
#include "runtime/loopback.h"
#include "runtime/loopback_listeners.h"

#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace moat {

namespace {

constexpr int kSetupFailed = 125;

int fail(const InitChannel& channel, const Error& error)
{
    (void)channel.send({{"t", "error"}, {"what", error.what}, {"errno", error.errnum}, {"hint", error.hint}});
    return kSetupFailed;
}

Status becomeAgent(const AgentIdentity& id)
{
    // Root mode: drop the host root's supplementary groups. (An ordinary
    // invoker's gid map is written with setgroups denied; its supplementary
    // groups stay attached but appear as nogroup, see docs/threat-model.md.)
    if (id.privilegedInvoker && ::setgroups(0, nullptr) != 0) {
        return Error::fromErrno("cannot drop supplementary groups", errno);
    }
    if (::setresgid(id.insideGid, id.insideGid, id.insideGid) != 0) {
        return Error::fromErrno("cannot switch to the agent's group", errno);
    }
    if (::setresuid(id.insideUid, id.insideUid, id.insideUid) != 0) {
        return Error::fromErrno("cannot switch to the agent's user", errno);
    }
    return {};
}

// Passes one listener (a socket, or the exec notification fd) to the
// supervisor; init's own copy closes on return, so that nothing inside the
// sandbox holds it.
Status handOut(const InitChannel& channel, const char* name, Result<UniqueFd> socket)
{
    if (!socket) {
        return socket.error();
    }
    return channel.send({{"t", "listener"}, {"name", name}}, socket->get());
}

// The egress servers' sockets (policy/egress_endpoints.h): made here, inside
// the network namespace where nothing else leads out, and served by the
// supervisor outside. The DNS stub is resolv.conf's nameserver; the proxies
// are where the command's HTTP(S)_PROXY and ALL_PROXY point.
Status handOutEgressSockets(const InitChannel& channel)
{
    // Clients may open thousands of connections at once (a package manager,
    // a parallel build): a short queue would refuse some before the
    // supervisor has accepted any.
    constexpr int kProxyBacklog = SOMAXCONN;
    if (auto sent = handOut(channel, kDnsUdpListener, bindLoopbackUdp(kDnsPort)); !sent) {
        return sent;
    }
    if (auto sent = handOut(channel, kDnsTcpListener, listenLoopbackTcp(kDnsPort)); !sent) {
        return sent;
    }
    if (auto sent = handOut(channel, kProxyHttpListener, listenLoopbackTcp(kProxyHttpPort, kProxyBacklog)); !sent) {
        return sent;
    }
    return handOut(channel, kProxySocksListener, listenLoopbackTcp(kProxySocksPort, kProxyBacklog));
}

struct Confinement {
    LandlockReport landlock;
    bool seccomp = false;
    UniqueFd execListener;  // the filter's user-notification listener (SeccompOptions::notifyExec)
    nlohmann::json degraded = nlohmann::json::array();
};

Result<Confinement> confine(const InitConfig& config)
{
    Confinement result;
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        return Error::fromErrno("cannot set no_new_privs", errno);
    }
    if (config.landlockAbi >= LandlockPolicy::kMinimumAbi) {
        auto applied = LandlockPolicy::apply(config.landlock, config.landlockAbi);
        if (!applied) {
            return applied.error();
        }
        result.landlock = applied.value();
    } else {
        result.degraded.push_back("landlock");
    }
    auto caps = config.keepNamespaceCaps ? Capabilities::dropInheritable() : Capabilities::dropAll();
    if (!caps) {
        return caps.error();
    }
    if (config.useSeccomp) {
        auto loaded = SeccompPolicy::apply(config.seccomp);
        if (!loaded) {
            return loaded.error();
        }
        result.seccomp = true;
        result.execListener = std::move(loaded.value());
    } else {
        result.degraded.push_back("seccomp");
    }
    return result;
}

// Waits for the command, forwarding signals to its process group, and
// reaping every orphan re-parented to pid 1.
int superviseCommand(pid_t command, const InitChannel& channel, int signalFd)
{
    pollfd fds[2] = {{signalFd, POLLIN, 0}, {channel.fd(), POLLIN, 0}};
    for (;;) {
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            return kSetupFailed;
        }
        if (fds[1].revents & POLLIN) {
            auto message = channel.receive();
            if (message && message->body["t"] == "resume") {
                ::kill(-command, SIGCONT);
            }
        } else if (fds[1].revents & (POLLHUP | POLLERR)) {
            fds[1].fd = -1;  // the supervisor is gone; PDEATHSIG ends us
        }
        if (!(fds[0].revents & POLLIN)) {
            continue;
        }
        signalfd_siginfo info{};
        if (::read(signalFd, &info, sizeof info) != sizeof info) {
            continue;
        }
        const int sig = static_cast<int>(info.ssi_signo);
        if (sig != SIGCHLD) {
            ::kill(-command, sig);
            continue;
        }
        for (;;) {
            int status = 0;
            const pid_t pid = ::waitpid(-1, &status, WNOHANG | WUNTRACED);
            if (pid <= 0) {
                break;
            }
            if (pid != command) {
                continue;  // an orphan: reaped, nothing else to do
            }
            if (WIFSTOPPED(status)) {
                (void)channel.send({{"t", "stopped"}, {"signal", WSTOPSIG(status)}});
                continue;
            }
            // Returning ends pid 1, and with it every process left in the
            // sandbox's pid namespace.
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
    }
}

}  // namespace

int runSandboxInit(const InitConfig& config, const InitChannel& channel)
{
    // If the supervisor dies, so does the sandbox: pid 1 going away kills
    // every process in its pid namespace.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::prctl(PR_SET_NAME, "moat-init");

    auto go = channel.receive();
    if (!go || go->body["t"] != "go") {
        return kSetupFailed;
    }
    RootfsBuilder rootfs(config.rootfs);
    if (auto opened = rootfs.openSources(); !opened) {
        return fail(channel, opened.error());
    }
    if (auto became = becomeAgent(config.rootfs.identity); !became) {
        return fail(channel, became.error());
    }
    // Changing the effective uid clears the parent-death signal: set it
    // again, then make sure the supervisor did not die in between.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (pollfd hangup{channel.fd(), 0, 0}; ::poll(&hangup, 1, 0) > 0 && (hangup.revents & (POLLHUP | POLLERR))) {
        return kSetupFailed;
    }
    const std::string& hostname = config.rootfs.hostname;
    if (::sethostname(hostname.c_str(), hostname.size()) != 0) {
        return fail(channel, Error::fromErrno("cannot set the sandbox's host name", errno));
    }
    if (auto built = rootfs.build(); !built) {
        return fail(channel, built.error());
    }
    if (config.newNetwork) {
        if (auto up = bringUpLoopback(); !up) {
            return fail(channel, up.error());
        }
    }
    if (config.egressListeners) {
        if (auto handed = handOutEgressSockets(channel); !handed) {
            return fail(channel, handed.error());
        }
    }
    // A session of its own: signals meant for the user's terminal never
    // reach init directly; the supervisor forwards what the command needs.
    if (::setsid() < 0) {
        return fail(channel, Error::fromErrno("cannot start a new session", errno));
    }
    auto terminal = openAgentTerminal(config);
    if (!terminal) {
        return fail(channel, terminal.error());
    }
    if (auto attached = terminal->becomeControllingTerminal(); !attached) {
        return fail(channel, attached.error());
    }
    if (terminal->master) {
        if (auto sent = channel.send({{"t", "pty"}}, terminal->master.get()); !sent) {
            return kSetupFailed;
        }
        terminal->master.reset();
    }

    // Signals for init itself arrive through a signalfd; the command starts
    // with an empty mask and default handlers.
    sigset_t handled;
    sigemptyset(&handled);
    for (int sig : {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCONT}) {
        sigaddset(&handled, sig);
    }
    sigprocmask(SIG_BLOCK, &handled, nullptr);
    const int signalFd = ::signalfd(-1, &handled, SFD_CLOEXEC);
    if (signalFd < 0) {
        return fail(channel, Error::fromErrno("cannot create a signalfd", errno));
    }

    auto confined = confine(config);
    if (!confined) {
        return fail(channel, confined.error());
    }
    // From here every execve waits for the supervisor, init's own exec of
    // the command first. The listener goes out before "confined", after
    // which the launcher returns and the supervisor starts serving it, so
    // that exec waits at most for the supervisor's event loop to start.
    // Init keeps no copy: if the supervisor dies, the listener closes, and
    // every exec in the sandbox fails with ENOSYS until PDEATHSIG ends init.
    const bool execNotify = confined->execListener.valid();
    if (execNotify) {
        if (auto sent = handOut(channel, kExecNotifyListener, std::move(confined->execListener)); !sent) {
            return fail(channel, sent.error());
        }
    }
    // Not dumpable: the agent, though it has the same uid, cannot ptrace init
    // or read its memory to forge messages to the supervisor.
    ::prctl(PR_SET_DUMPABLE, 0);
    (void)channel.send({{"t", "confined"},
                        {"landlock_abi", confined->landlock.abi},
                        {"landlock_fs", confined->landlock.handledFs},
                        {"landlock_net", confined->landlock.handledNet},
                        {"landlock_scoped", confined->landlock.scoped},
                        {"seccomp", confined->seccomp},
                        {"exec_notify", execNotify},
                        {"degraded", confined->degraded}});

    auto started = startCommand(config, terminal.value(), handled);
    if (!started) {
        const int err = started.error().errnum;
        (void)channel.send({{"t", "exec_failed"}, {"errno", err}, {"command", config.command.front()}});
        return err == ENOENT ? 127 : 126;
    }
    // The command holds its ends of the pipes now; init's copies would keep
    // the supervisor from seeing the command's EOF.
    for (int fd : {config.stdinFd, config.stdoutFd, config.stderrFd}) {
        if (fd >= 0) {
            ::close(fd);
        }
    }
    (void)channel.send({{"t", "started"}, {"pid", started.value()}});
    return superviseCommand(started.value(), channel, signalFd);
}

}  // namespace moat
