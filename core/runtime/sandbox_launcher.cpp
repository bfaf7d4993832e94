// SPDX-License-Identifier: Apache-2.0
#include "runtime/sandbox_launcher.h"

#include "runtime/idmapped_mounts.h"
#include "runtime/kernel_support.h"
#include "runtime/sandbox_init.h"
#include "runtime/syscalls.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <filesystem>
#include <memory>

namespace moat {

namespace {

Status writeProcFile(pid_t pid, const char* name, const std::string& content)
{
    UniqueFd fd(::open(("/proc/" + std::to_string(pid) + "/" + name).c_str(), O_WRONLY | O_CLOEXEC));
    if (!fd || ::write(fd.get(), content.data(), content.size()) != static_cast<ssize_t>(content.size())) {
        return Error::fromErrno(std::string("cannot write /proc/PID/") + name + " for the sandbox", errno);
    }
    return {};
}

Status makePrivateDir(const std::string& path)
{
    std::error_code ec;
    std::filesystem::create_directories(path, ec);
    if (ec) {
        return Error::fromErrno("cannot create " + path, ec.value(), "Check the permissions of moat's state directory");
    }
    ::chmod(path.c_str(), 0700);
    return {};
}

Error userNamespaceError(int err)
{
    return Error::fromErrno("this kernel does not let moat create the sandbox's namespaces", err,
                            "moat needs user namespaces: check that sysctl user.max_user_namespaces is above 0, "
                            "that kernel.unprivileged_userns_clone=1 (Debian kernels before 6.x) and that no "
                            "AppArmor or SELinux policy forbids them (kernel.apparmor_restrict_unprivileged_userns=0). "
                            "There is no degraded mode without them");
}

std::string shellFor(const std::string& imageRoot)
{
    struct stat info {};
    const std::string base = imageRoot == "/" ? "" : imageRoot;
    return ::stat((base + "/bin/bash").c_str(), &info) == 0 ? "/bin/bash" : "/bin/sh";
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

std::vector<std::string> commandEnvironment(const SandboxSpec& spec, const AgentIdentity& id, const std::string& shell,
                                            bool tty)
{
    auto vars = spec.environment;
    vars["HOME"] = id.home;
    vars["USER"] = id.name;
    vars["LOGNAME"] = id.name;
    vars["SHELL"] = shell;
    vars["MOAT_SESSION"] = spec.sessionId;
    if (spec.image.kind != ImageRef::Kind::Host || !vars.contains("PATH")) {
        vars["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    }
    if (tty && !vars.contains("TERM")) {
        vars["TERM"] = "xterm-256color";
    }
    std::vector<std::string> out;
    for (const auto& [name, value] : vars) {
        out.push_back(name + "=" + value);
    }
    return out;
}

}  // namespace

Result<Sandbox> SandboxLauncher::launch(const SandboxSpec& spec, const MoatPaths& paths, StdioMode stdio,
                                        const std::function<Status()>& whileBuilding)
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

    InitConfig config;
    config.rootfs.identity = id;
    config.rootfs.hostname = "moat-" + spec.sessionId.substr(0, 8);
    config.rootfs.hostImage = spec.image.kind == ImageRef::Kind::Host;
    config.rootfs.imageRoot = config.rootfs.hostImage ? "/" : spec.image.path;
    config.rootfs.yolo = spec.yolo;
    config.rootfs.shell = shellFor(config.rootfs.imageRoot);

    const std::string home = paths.homeDir(spec.profile);
    if (auto made = makePrivateDir(home); !made) {
        return made.error();
    }
    config.rootfs.binds.push_back({home, id.home, false, true, -1});
    config.rootfs.binds.push_back({spec.workspace, spec.workspace, false, true, -1});
    for (const auto& mount : spec.mounts) {
        struct stat info {};
        if (::stat(mount.path.c_str(), &info) != 0) {
            return Error::fromErrno("cannot use " + mount.path, errno);
        }
        config.rootfs.binds.push_back({mount.path, mount.path, mount.readOnly, S_ISDIR(info.st_mode), -1});
    }

    // As root, the agent is an unprivileged uid: show it each host path
    // through an idmapped mount owned, from its point of view, by itself.
    std::vector<UniqueFd> preparedTrees;
    if (id.privilegedInvoker) {
        IdmappedMounts idmapped(id.hostUid, id.hostGid);
        for (auto& bind : config.rootfs.binds) {
            auto tree = idmapped.prepare(bind.source, bind.readOnly);
            if (!tree) {
                return tree.error();
            }
            bind.preparedTreeFd = tree->get();
            preparedTrees.push_back(std::move(tree.value()));
        }
    }

    config.landlockAbi = kernel.landlockAbi;
    config.useSeccomp = kernel.seccomp;
    config.seccomp.allowNamespaces = spec.sudo;
    config.keepNamespaceCaps = spec.sudo;
    config.newNetwork = spec.network != NetworkMode::Open;
    config.landlock.readOnly = {"/"};
    config.landlock.readWrite = {"/tmp", "/dev/shm", id.home, spec.workspace};
    for (const auto& mount : spec.mounts) {
        (mount.readOnly ? config.landlock.readOnly : config.landlock.readWrite).push_back(mount.path);
    }
    config.landlock.devices = {"/dev"};
    config.landlock.procfs = {"/proc"};
    // In a private network namespace only the sandbox's own loopback exists;
    // TCP there stays closed unless --local-tcp (or --yolo) opens it.
    config.landlock.restrictTcp = !spec.localTcp && spec.network != NetworkMode::Open;

    config.command = spec.command;
    const bool anyTty = stdio.stdinTty || stdio.stdoutTty || stdio.stderrTty;
    config.environment = commandEnvironment(spec, id, config.rootfs.shell, anyTty);
    config.workingDirectory = spec.workspace;
    if (stdio.userTerminalFd >= 0) {
        InitConfig::TerminalSettings terminal{};
        if (::tcgetattr(stdio.userTerminalFd, &terminal.settings) == 0 &&
            ::ioctl(stdio.userTerminalFd, TIOCGWINSZ, &terminal.size) == 0) {
            config.terminal = terminal;
        }
    }
    config.stdinTty = stdio.stdinTty;
    config.stdoutTty = stdio.stdoutTty;
    config.stderrTty = stdio.stderrTty;

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
        ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
        ::_exit(runSandboxInit(config, initEnd));
    }
    sandbox.initPid = static_cast<pid_t>(pid);
    spdlog::debug("sandbox init is pid {}", pid);
    sandbox.pidfd.reset(pidfd);
    initEnd.close();
    preparedTrees.clear();
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
        mapped = writeProcFile(sandbox.initPid, "uid_map", id.uidMapLine());
        if (mapped) {
            mapped = writeProcFile(sandbox.initPid, "gid_map", id.gidMapLine());
        }
    } else {
        // Unprivileged: setgroups must be denied before a gid map is accepted.
        mapped = writeProcFile(sandbox.initPid, "setgroups", "deny");
        if (mapped) {
            mapped = writeProcFile(sandbox.initPid, "uid_map", id.uidMapLine());
        }
        if (mapped) {
            mapped = writeProcFile(sandbox.initPid, "gid_map", id.gidMapLine());
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
        } else if (type == "confined") {
            sandbox.confinement = message->body;
            spdlog::debug("sandbox confined: {}", message->body.dump());
            return sandbox;
        }
    }
}

}  // namespace moat
