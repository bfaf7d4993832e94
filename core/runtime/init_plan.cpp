// SPDX-License-Identifier: Apache-2.0
#include "runtime/init_plan.h"

#include "policy/egress_endpoints.h"
#include "policy/proxy_environment.h"
#include "runtime/idmapped_mounts.h"

#include <sys/ioctl.h>
#include <sys/stat.h>

#include <cerrno>
#include <filesystem>

namespace moat {

namespace {

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

std::string shellFor(const std::string& imageRoot)
{
    struct stat info {};
    const std::string base = imageRoot == "/" ? "" : imageRoot;
    return ::stat((base + "/bin/bash").c_str(), &info) == 0 ? "/bin/bash" : "/bin/sh";
}

std::vector<std::string> commandEnvironment(const SandboxSpec& spec, const AgentIdentity& id, const std::string& shell,
                                            bool tty)
{
    auto vars = spec.environment;
    // MOAT_* are moat's to set, and only where they are true: MOAT_API exists
    // only with the proxy that serves it.
    std::erase_if(vars, [](const auto& entry) { return entry.first.starts_with("MOAT_"); });
    if (spec.network == NetworkMode::Proxy) {
        // Every spelling of the proxy variables points at moat's proxy: a
        // stale value from the spec could only send clients to a dead end.
        std::erase_if(vars, [](const auto& entry) { return isProxyVariable(entry.first); });
        for (auto& [name, value] : proxyEnvironment()) {
            vars[name] = std::move(value);
        }
    }
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

Result<InitPlan> planSandboxInit(const SandboxSpec& spec, const MoatPaths& paths, const AgentIdentity& id,
                                 const KernelSupport& kernel, const StdioMode& stdio)
{
    InitPlan plan;
    InitConfig& config = plan.config;
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
    if (id.privilegedInvoker) {
        IdmappedMounts idmapped(id.hostUid, id.hostGid);
        for (auto& bind : config.rootfs.binds) {
            auto tree = idmapped.prepare(bind.source, bind.readOnly);
            if (!tree) {
                return tree.error();
            }
            bind.preparedTreeFd = tree->get();
            plan.preparedTrees.push_back(std::move(tree.value()));
        }
    }

    config.landlockAbi = kernel.landlockAbi;
    config.useSeccomp = kernel.seccomp;
    config.seccomp.allowNamespaces = spec.sudo;
    config.keepNamespaceCaps = spec.sudo;
    config.newNetwork = spec.network != NetworkMode::Open;
    // --net none has no listener at all; the default (proxy) has the DNS
    // stub and the proxy, the only way out.
    config.egressListeners = spec.network == NetworkMode::Proxy;
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
    if (config.egressListeners) {
        // The agent may connect to moat's own listeners, and to nothing else.
        config.landlock.tcpConnectPorts = {kDnsPort, kProxyHttpPort, kProxySocksPort};
    }

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

    return plan;
}

}  // namespace moat
