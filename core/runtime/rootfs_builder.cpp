// SPDX-License-Identifier: Apache-2.0
#include "runtime/rootfs_builder.h"

#include "runtime/etc_files.h"
#include "runtime/session_trust.h"
#include "runtime/fs_util.h"
#include "runtime/mount_ops.h"
#include "runtime/syscalls.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <memory>

namespace moat {

namespace {

// Where the new root is assembled before pivot_root. Every host source is
// already open as an fd when this is mounted over, so hiding the host's /tmp
// in this private mount namespace loses nothing.
constexpr const char* kStagingPath = "/tmp";

constexpr size_t kMaxEtcFileBytes = 4 * 1024 * 1024;

// Top-level entries never taken from an image or the host: moat provides
// them fresh (proc, dev, tmp, sys, etc, home) or they hold host state.
bool freshTopLevel(const std::string& name)
{
    static constexpr std::array kFresh = {"proc", "sys", "dev", "tmp", "etc", "home", "root", "run",
                                          "lost+found", "mnt", "media", "boot"};
    return std::find(kFresh.begin(), kFresh.end(), name) != kFresh.end();
}

bool hostSystemEntry(const std::string& name)
{
    static constexpr std::array kSystem = {"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32"};
    return std::find(kSystem.begin(), kSystem.end(), name) != kSystem.end();
}

Result<UniqueFd> openPath(int dirFd, const std::string& name, int flags)
{
    UniqueFd fd(::openat(dirFd, name.c_str(), flags | O_CLOEXEC));
    if (!fd) {
        return Error::fromErrno("cannot open " + name, errno);
    }
    return fd;
}

std::string readLinkAt(int dirFd, const std::string& name)
{
    char buffer[4096];
    const ssize_t n = ::readlinkat(dirFd, name.c_str(), buffer, sizeof buffer - 1);
    return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string();
}

std::string relative(const std::string& absolute)
{
    size_t start = 0;
    while (start < absolute.size() && absolute[start] == '/') {
        ++start;
    }
    return absolute.substr(start);
}

}  // namespace

RootfsBuilder::RootfsBuilder(RootfsPlan plan) : plan_(std::move(plan)) {}

Status RootfsBuilder::openSources()
{
    // Nothing done here may propagate back to the host's mount table.
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_SLAVE, nullptr) != 0) {
        return Error::fromErrno("cannot make the sandbox's mounts private", errno);
    }
    auto image = openPath(AT_FDCWD, plan_.imageRoot, O_RDONLY | O_DIRECTORY);
    if (!image) {
        return Error::fromErrno("cannot open the image " + plan_.imageRoot, errno);
    }
    std::unique_ptr<DIR, int (*)(DIR*)> dir(::fdopendir(::dup(image->get())), ::closedir);
    if (!dir) {
        return Error::fromErrno("cannot list the image " + plan_.imageRoot, errno);
    }
    while (const dirent* entry = ::readdir(dir.get())) {
        const std::string name = entry->d_name;
        if (name == "." || name == "..") {
            continue;
        }
        const bool wanted = plan_.yolo ? (name != "proc" && name != "sys" && name != "dev" && name != "tmp" &&
                                          name != "etc" && name != "home" && name != "root")
                                       : plan_.hostImage ? hostSystemEntry(name) : !freshTopLevel(name);
        if (!wanted) {
            continue;
        }
        struct stat info {};
        if (::fstatat(image->get(), name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
            continue;
        }
        SystemEntry sys;
        sys.name = name;
        if (S_ISLNK(info.st_mode)) {
            sys.linkTarget = readLinkAt(image->get(), name);
            if (sys.linkTarget.empty()) {
                continue;
            }
        } else if (S_ISDIR(info.st_mode)) {
            auto fd = openPath(image->get(), name, O_PATH | O_NOFOLLOW | O_DIRECTORY);
            if (!fd) {
                continue;  // unreadable: not shown
            }
            sys.fd = std::move(fd.value());
        } else {
            continue;
        }
        system_.push_back(std::move(sys));
    }
    // With --yolo the host's home directories are readable too.
    if (plan_.yolo && plan_.hostImage) {
        for (const char* name : {"home", "root"}) {
            if (auto fd = openPath(image->get(), name, O_PATH | O_NOFOLLOW | O_DIRECTORY)) {
                system_.push_back(SystemEntry{std::string("host-") + name, {}, std::move(fd.value())});
            }
        }
    }

    // An image without etc/ gets only the files moat writes itself.
    if (auto etc = openPath(image->get(), "etc", O_RDONLY | O_DIRECTORY)) {
        etcSource_ = std::move(etc.value());
    } else if (plan_.hostImage) {
        return Error::fromErrno("cannot read the host's /etc", errno);
    }

    for (const char* node : {"null", "zero", "full", "random", "urandom", "tty"}) {
        auto fd = openPath(AT_FDCWD, std::string("/dev/") + node, O_PATH | O_NOFOLLOW);
        if (!fd) {
            return Error::fromErrno(std::string("cannot open /dev/") + node + " on the host", errno);
        }
        devices_.push_back(DeviceNode{node, std::move(fd.value())});
    }
    if (auto cpu = openPath(AT_FDCWD, "/sys/devices/system/cpu", O_PATH | O_DIRECTORY)) {
        cpuSysfs_ = std::move(cpu.value());
    }

    for (const auto& bind : plan_.binds) {
        UniqueFd fd;
        if (bind.preparedTreeFd < 0) {
            auto opened = fs::openCanonical(bind.source, O_PATH);
            if (!opened) {
                return opened.error();
            }
            fd = std::move(opened.value());
        }
        bindSources_.push_back(std::move(fd));
    }
    return {};
}

Status RootfsBuilder::build()
{
    for (auto step : {&RootfsBuilder::mountStage, &RootfsBuilder::bindSystemEntries, &RootfsBuilder::populateEtc,
                      &RootfsBuilder::installSessionTrust, &RootfsBuilder::mountTmp, &RootfsBuilder::mountDev, &RootfsBuilder::mountProcAndSys,
                      &RootfsBuilder::bindUserPaths, &RootfsBuilder::pivot}) {
        if (auto done = (this->*step)(); !done) {
            return done;
        }
    }
    return {};
}

Status RootfsBuilder::mountStage()
{
    auto root = mounts::freshFilesystem("tmpfs", {{"mode", "0755"}, {"size", "16m"}}, mounts::kNoSuid | mounts::kNoDev);
    if (!root) {
        return root.error();
    }
    if (::move_mount(root->get(), "", AT_FDCWD, kStagingPath, MOVE_MOUNT_F_EMPTY_PATH) != 0) {
        return Error::fromErrno("cannot mount the sandbox's root file system", errno);
    }
    auto stage = openPath(AT_FDCWD, kStagingPath, O_PATH | O_DIRECTORY);
    if (!stage) {
        return stage.error();
    }
    stage_ = std::move(stage.value());
    return {};
}

Status RootfsBuilder::bindSystemEntries()
{
    for (const auto& entry : system_) {
        if (!entry.linkTarget.empty()) {
            if (::symlinkat(entry.linkTarget.c_str(), stage_.get(), entry.name.c_str()) != 0) {
                return Error::fromErrno("cannot create /" + entry.name, errno);
            }
            continue;
        }
        // --yolo shows the host's homes beside the agent's own.
        const std::string target = entry.name.rfind("host-", 0) == 0 ? "host/" + entry.name.substr(5) : entry.name;
        auto tree = mounts::cloneTree(entry.fd.get(), true, mounts::kReadOnly | mounts::kNoSuid | mounts::kNoDev);
        if (!tree) {
            return Error{"cannot show /" + entry.name + " read-only: " + tree.error().message()};
        }
        auto at = fs::makeDirsBeneath(stage_.get(), target);
        if (!at) {
            return at.error();
        }
        if (auto attached = mounts::attach(tree->get(), at->get(), "/" + entry.name); !attached) {
            return attached;
        }
    }
    return {};
}

Status RootfsBuilder::populateEtc()
{
    auto etc = fs::makeDirsBeneath(stage_.get(), "etc");
    if (!etc) {
        return etc.error();
    }
    // makeDirsBeneath returns O_PATH; files are written through a real fd.
    UniqueFd etcDir(::openat(stage_.get(), "etc", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!etcDir) {
        return Error::fromErrno("cannot open the sandbox's /etc", errno);
    }
    std::unique_ptr<DIR, int (*)(DIR*)> dir(etcSource_ ? ::fdopendir(::dup(etcSource_.get())) : nullptr, ::closedir);
    if (etcSource_ && !dir) {
        return Error::fromErrno("cannot list /etc", errno);
    }
    while (const dirent* entry = dir ? ::readdir(dir.get()) : nullptr) {
        const std::string name = entry->d_name;
        if (name == "." || name == ".." || EtcFiles::synthesized(name)) {
            continue;
        }
        if (plan_.hostImage && !plan_.yolo && !EtcFiles::hostEntryAllowed(name)) {
            continue;
        }
        struct stat info {};
        if (::fstatat(etcSource_.get(), name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
            continue;
        }
        if (S_ISLNK(info.st_mode)) {
            const std::string target = readLinkAt(etcSource_.get(), name);
            if (!target.empty() && ::symlinkat(target.c_str(), etcDir.get(), name.c_str()) != 0) {
                return Error::fromErrno("cannot create /etc/" + name, errno);
            }
        } else if (S_ISREG(info.st_mode)) {
            // Unreadable files (shadow-like) are simply not shown.
            (void)fs::copyFileAt(etcSource_.get(), name, etcDir.get(), name, kMaxEtcFileBytes);
        } else if (S_ISDIR(info.st_mode)) {
            auto source = openPath(etcSource_.get(), name, O_PATH | O_NOFOLLOW | O_DIRECTORY);
            if (!source) {
                continue;
            }
            auto tree = mounts::cloneTree(source->get(), true, mounts::kReadOnly | mounts::kNoSuid | mounts::kNoDev);
            auto at = fs::makeDirsBeneath(etcDir.get(), name);
            if (!tree || !at) {
                return Error{"cannot show /etc/" + name};
            }
            if (auto attached = mounts::attach(tree->get(), at->get(), "/etc/" + name); !attached) {
                return attached;
            }
        }
    }
    const auto& id = plan_.identity;
    for (const auto& [name, content] :
         {std::pair<std::string, std::string>{"passwd", EtcFiles::passwd(id, plan_.shell)},
          {"group", EtcFiles::group(id)},
          {"hosts", EtcFiles::hosts(plan_.hostname)},
          {"hostname", plan_.hostname + "\n"},
          {"resolv.conf", EtcFiles::resolvConf()},
          {"nsswitch.conf", EtcFiles::nsswitch()}}) {
        if (auto written = fs::writeFileAt(etcDir.get(), name, content); !written) {
            return written;
        }
    }
    if (::symlinkat("../proc/self/mounts", etcDir.get(), "mtab") != 0) {
        return Error::fromErrno("cannot create /etc/mtab", errno);
    }
    return {};
}

Status RootfsBuilder::installSessionTrust()
{
    if (plan_.sessionCaPem.empty()) {
        return {};
    }
    return SessionTrust::install(stage_.get(), plan_.sessionCaPem);
}

Status RootfsBuilder::mountTmp()
{
    auto tmp = mounts::freshFilesystem("tmpfs", {{"mode", "1777"}}, mounts::kNoSuid | mounts::kNoDev);
    auto at = fs::makeDirsBeneath(stage_.get(), "tmp");
    if (!tmp || !at) {
        return Error{"cannot create the sandbox's /tmp", 0};
    }
    if (auto attached = mounts::attach(tmp->get(), at->get(), "/tmp"); !attached) {
        return attached;
    }
    if (plan_.hostImage) {
        // /var/tmp is where some tools expect to write; point it at /tmp.
        if (auto var = fs::makeDirsBeneath(stage_.get(), "var"); var) {
            (void)::symlinkat("/tmp", var->get(), "tmp");
        }
    }
    return {};
}

Status RootfsBuilder::mountDev()
{
    auto dev = mounts::freshFilesystem("tmpfs", {{"mode", "0755"}, {"size", "64k"}},
                                       mounts::kNoSuid | mounts::kNoExec);
    auto at = fs::makeDirsBeneath(stage_.get(), "dev");
    if (!dev || !at) {
        return Error{"cannot create the sandbox's /dev", 0};
    }
    if (auto attached = mounts::attach(dev->get(), at->get(), "/dev"); !attached) {
        return attached;
    }
    UniqueFd devDir(::openat(stage_.get(), "dev", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!devDir) {
        return Error::fromErrno("cannot open the sandbox's /dev", errno);
    }
    for (const auto& node : devices_) {
        auto target = fs::makeFileBeneath(devDir.get(), node.name);
        auto tree = mounts::cloneTree(node.fd.get(), false, mounts::kNoSuid | mounts::kNoExec);
        if (!target || !tree) {
            return Error{"cannot create /dev/" + node.name + (tree ? "" : ": " + tree.error().message())};
        }
        if (auto attached = mounts::attach(tree->get(), target->get(), "/dev/" + node.name); !attached) {
            return attached;
        }
    }
    // A private devpts instance: the agent's pty lives here, and no pty of
    // the host is visible.
    auto pts = mounts::freshFilesystem("devpts", {{"ptmxmode", "0666"}, {"mode", "0620"}},
                                       mounts::kNoSuid | mounts::kNoExec);
    auto ptsAt = fs::makeDirsBeneath(devDir.get(), "pts");
    if (!pts || !ptsAt) {
        return Error{"cannot mount a private devpts" + (pts ? std::string() : ": " + pts.error().message())};
    }
    if (auto attached = mounts::attach(pts->get(), ptsAt->get(), "/dev/pts"); !attached) {
        return attached;
    }
    auto shm = mounts::freshFilesystem("tmpfs", {{"mode", "1777"}}, mounts::kNoSuid | mounts::kNoDev);
    auto shmAt = fs::makeDirsBeneath(devDir.get(), "shm");
    if (!shm || !shmAt) {
        return Error{"cannot create /dev/shm"};
    }
    if (auto attached = mounts::attach(shm->get(), shmAt->get(), "/dev/shm"); !attached) {
        return attached;
    }
    for (const auto& [link, target] : {std::pair{"ptmx", "pts/ptmx"}, {"fd", "/proc/self/fd"},
                                       {"stdin", "/proc/self/fd/0"}, {"stdout", "/proc/self/fd/1"},
                                       {"stderr", "/proc/self/fd/2"}}) {
        if (::symlinkat(target, devDir.get(), link) != 0) {
            return Error::fromErrno(std::string("cannot create /dev/") + link, errno);
        }
    }
    return {};
}

Status RootfsBuilder::mountProcAndSys()
{
    // A procfs of the sandbox's own pid namespace: no host process is listed.
    auto proc = mounts::freshFilesystem("proc", {}, mounts::kNoSuid | mounts::kNoDev | mounts::kNoExec);
    auto at = fs::makeDirsBeneath(stage_.get(), "proc");
    if (!proc) {
        return Error{"cannot mount a fresh /proc: " + proc.error().message(), 0,
                     "The kernel must allow user namespaces to mount procfs"};
    }
    if (!at) {
        return at.error();
    }
    if (auto attached = mounts::attach(proc->get(), at->get(), "/proc"); !attached) {
        return attached;
    }
    // Kernel knobs stay read-only even for --sudo.
    UniqueFd sysctl(::openat(stage_.get(), "proc/sys", O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (sysctl) {
        auto tree = mounts::cloneTree(sysctl.get(), true, mounts::kReadOnly | mounts::kNoSuid | mounts::kNoDev);
        if (tree) {
            (void)mounts::attach(tree->get(), sysctl.get(), "/proc/sys");
        }
    }
    // Of /sys, only the CPU topology that runtimes read to size thread pools.
    auto sysDir = fs::makeDirsBeneath(stage_.get(), "sys");
    if (!sysDir) {
        return sysDir.error();
    }
    if (cpuSysfs_) {
        auto tree = mounts::cloneTree(cpuSysfs_.get(), false, mounts::kReadOnly | mounts::kNoSuid | mounts::kNoDev);
        auto cpuAt = fs::makeDirsBeneath(stage_.get(), "sys/devices/system/cpu");
        if (tree && cpuAt) {
            (void)mounts::attach(tree->get(), cpuAt->get(), "/sys/devices/system/cpu");
        }
    }
    return {};
}

Status RootfsBuilder::bindUserPaths()
{
    // Parents before children: /home/u before /home/u/project.
    std::vector<size_t> order(plan_.binds.size());
    for (size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return plan_.binds[a].target < plan_.binds[b].target; });
    for (size_t index : order) {
        const auto& bind = plan_.binds[index];
        UniqueFd tree;
        if (bind.preparedTreeFd >= 0) {
            tree.reset(::fcntl(bind.preparedTreeFd, F_DUPFD_CLOEXEC, 3));
        } else {
            const unsigned attrs = mounts::kNoSuid | mounts::kNoDev | (bind.readOnly ? mounts::kReadOnly : 0);
            auto cloned = mounts::cloneTree(bindSources_[index].get(), true, attrs);
            if (!cloned) {
                return Error{"cannot show " + bind.source + " in the sandbox: " + cloned.error().message()};
            }
            tree = std::move(cloned.value());
        }
        auto target = bind.isDirectory ? fs::makeDirsBeneath(stage_.get(), relative(bind.target))
                                       : fs::makeFileBeneath(stage_.get(), relative(bind.target));
        if (!target) {
            return Error{"cannot prepare " + bind.target + " in the sandbox: " + target.error().message()};
        }
        if (auto attached = mounts::attach(tree.get(), target->get(), bind.target); !attached) {
            return attached;
        }
    }
    return {};
}

Status RootfsBuilder::pivot()
{
    if (::fchdir(stage_.get()) != 0) {
        return Error::fromErrno("cannot enter the sandbox's root", errno);
    }
    // pivot_root(".", ".") stacks the old root on the new one; detaching it
    // leaves no path back to the host's tree.
    if (sys::pivotRoot(".", ".") != 0) {
        return Error::fromErrno("pivot_root into the sandbox failed", errno);
    }
    if (::umount2(".", MNT_DETACH) != 0) {
        return Error::fromErrno("cannot detach the host's file system tree", errno);
    }
    if (::chdir("/") != 0) {
        return Error::fromErrno("cannot enter /", errno);
    }
    mount_attr attr{};
    attr.attr_set = MOUNT_ATTR_RDONLY;
    if (::mount_setattr(AT_FDCWD, "/", 0, &attr, sizeof attr) != 0) {
        return Error::fromErrno("cannot make the sandbox's root read-only", errno);
    }
    stage_.reset();
    return {};
}

}  // namespace moat
