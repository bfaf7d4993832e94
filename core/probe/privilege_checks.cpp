// SPDX-License-Identifier: Apache-2.0
#include "probe/privilege_checks.h"

#include "probe/joined.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <grp.h>
#include <pwd.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace moat::probe {

namespace {

Check groupCheck(const char* name, const std::vector<std::string>& groups, const std::vector<std::string>& watched)
{
    std::vector<std::string> found;
    for (const auto& group : groups) {
        if (std::find(watched.begin(), watched.end(), group) != watched.end()) {
            found.push_back(group);
        }
    }
    return {name, found.empty(), found.empty() ? "in none of: " + joined(watched) : "member of: " + joined(found)};
}

// Whether one sudoers line grants NOPASSWD to user, a group of it, or ALL.
bool grantsNopasswd(const std::string& line, const std::string& user, const std::vector<std::string>& groups)
{
    if (line.empty() || line[0] == '#' || line.find("NOPASSWD") == std::string::npos) {
        return false;
    }
    std::istringstream words(line);
    std::string who;
    words >> who;
    if (who == "ALL" || who == user) {
        return true;
    }
    return who.size() > 1 && who[0] == '%' &&
           std::find(groups.begin(), groups.end(), who.substr(1)) != groups.end();
}

// Reads one sudoers file if it can; returns false when it cannot be read.
bool scanSudoers(const std::string& path, const std::string& user, const std::vector<std::string>& groups,
                 std::vector<std::string>& grants)
{
    std::ifstream file(path);
    if (!file) {
        return false;
    }
    std::string line;
    while (std::getline(file, line)) {
        if (grantsNopasswd(line, user, groups)) {
            grants.push_back(path);
            break;
        }
    }
    return true;
}

bool canConnect(const std::string& path)
{
    sockaddr_un address{};
    if (path.size() >= sizeof address.sun_path) {
        return false;
    }
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return false;
    }
    const bool connected = ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
    ::close(fd);
    return connected;
}

// Adds the world-writable sockets under dir, owned by another user, to found.
void findWorldWritableSockets(const std::string& dir, int depth, std::vector<std::string>& found)
{
    DIR* handle = ::opendir(dir.c_str());
    if (!handle) {
        return;
    }
    while (const dirent* entry = ::readdir(handle)) {
        const std::string name = entry->d_name;
        if (name == "." || name == "..") {
            continue;
        }
        const std::string path = (dir == "/" ? "" : dir) + "/" + name;
        struct stat info {};
        if (::lstat(path.c_str(), &info) != 0) {
            continue;
        }
        if (S_ISSOCK(info.st_mode) && (info.st_mode & S_IWOTH) && info.st_uid != ::getuid()) {
            found.push_back(path + " (uid " + std::to_string(info.st_uid) + ")");
        } else if (S_ISDIR(info.st_mode) && depth > 1) {
            findWorldWritableSockets(path, depth - 1, found);
        }
    }
    ::closedir(handle);
}

}  // namespace

Check sudoReachable()
{
    std::vector<std::string> found;
    for (const char* path : {"/usr/bin/sudo", "/bin/sudo", "/usr/local/bin/sudo", "/usr/bin/doas", "/usr/local/bin/doas"}) {
        struct stat info {};
        if (::stat(path, &info) == 0 && info.st_uid == 0 && (info.st_mode & S_ISUID) && ::access(path, X_OK) == 0) {
            found.push_back(path);
        }
    }
    return {"sudo_reachable", found.empty(),
            found.empty() ? "no setuid-root sudo or doas this user can run" : "setuid root and executable: " + joined(found)};
}

Check sudoNopasswd(const std::string& user, const std::vector<std::string>& groups)
{
    std::vector<std::string> grants;
    std::vector<std::string> unreadable;
    if (!scanSudoers("/etc/sudoers", user, groups, grants)) {
        unreadable.push_back("/etc/sudoers");
    }
    if (DIR* dir = ::opendir("/etc/sudoers.d")) {
        while (const dirent* entry = ::readdir(dir)) {
            const std::string name = entry->d_name;
            if (name == "." || name == ".." || name.find('.') != std::string::npos || name.back() == '~') {
                continue;  // sudo skips these too
            }
            if (!scanSudoers("/etc/sudoers.d/" + name, user, groups, grants)) {
                unreadable.push_back("/etc/sudoers.d/" + name);
            }
        }
        ::closedir(dir);
    } else if (errno != ENOENT) {
        unreadable.push_back("/etc/sudoers.d");
    }
    if (!grants.empty()) {
        return {"sudo_nopasswd", false, "NOPASSWD rule for this user in: " + joined(grants)};
    }
    if (!unreadable.empty()) {
        return {"sudo_nopasswd", true,
                "no NOPASSWD rule in what is readable; not readable: " + joined(unreadable) +
                    " (sudo not run, so passwordless sudo there is not ruled out)"};
    }
    return {"sudo_nopasswd", true, "no NOPASSWD rule for this user in the sudoers files"};
}

Check rootEquivalentGroups(const std::vector<std::string>& groups)
{
    return groupCheck("root_equivalent_groups", groups,
                      {"root", "docker", "lxd", "incus", "incus-admin", "libvirt", "disk", "kvm", "podman", "shadow"});
}

Check adminGroups(const std::vector<std::string>& groups)
{
    return groupCheck("admin_groups", groups, {"sudo", "wheel", "admin", "adm"});
}

Check containerSockets()
{
    std::vector<std::string> paths = {"/var/run/docker.sock",       "/run/docker.sock",
                                      "/run/containerd/containerd.sock", "/run/podman/podman.sock",
                                      "/var/run/libvirt/libvirt-sock",   "/var/run/libvirt/virtqemud-sock",
                                      "/var/lib/lxd/unix.socket",        "/var/snap/lxd/common/lxd/unix.socket",
                                      "/var/lib/incus/unix.socket",      "/run/crio/crio.sock"};
    if (const char* runtime = std::getenv("XDG_RUNTIME_DIR")) {
        paths.push_back(std::string(runtime) + "/podman/podman.sock");
        paths.push_back(std::string(runtime) + "/docker.sock");
    }
    std::vector<std::string> reachable;
    std::vector<std::string> present;
    for (const auto& path : paths) {
        struct stat info {};
        if (::stat(path.c_str(), &info) != 0 || !S_ISSOCK(info.st_mode)) {
            continue;
        }
        if (canConnect(path)) {
            reachable.push_back(path + ((info.st_mode & S_IWOTH) ? " (world-writable)" : ""));
        } else {
            present.push_back(path);
        }
    }
    if (!reachable.empty()) {
        return {"container_sockets", false, "connect() succeeds: " + joined(reachable)};
    }
    return {"container_sockets", true,
            present.empty() ? "none of the known container or platform sockets exists"
                            : "present but connect() refused: " + joined(present)};
}

Check worldWritableSockets()
{
    std::vector<std::string> found;
    for (const char* dir : {"/run", "/tmp", "/dev/shm"}) {
        findWorldWritableSockets(dir, 3, found);
    }
    std::sort(found.begin(), found.end());
    constexpr size_t shown = 20;
    std::string more;
    if (found.size() > shown) {
        more = " and " + std::to_string(found.size() - shown) + " more";
        found.resize(shown);
    }
    return {"world_writable_sockets", found.empty(),
            found.empty() ? "no world-writable socket of another user under /run, /tmp, /dev/shm"
                          : "world-writable, another user's: " + joined(found) + more,
            static_cast<long>(found.size())};
}

std::string currentUserName()
{
    if (const passwd* entry = ::getpwuid(::getuid())) {
        return entry->pw_name;
    }
    return std::to_string(::getuid());
}

std::vector<std::string> currentGroupNames()
{
    std::vector<gid_t> ids(static_cast<size_t>(std::max(::getgroups(0, nullptr), 0)));
    const int count = ::getgroups(static_cast<int>(ids.size()), ids.data());
    ids.resize(static_cast<size_t>(std::max(count, 0)));
    ids.push_back(::getgid());
    std::vector<std::string> names;
    for (gid_t id : ids) {
        const group* entry = ::getgrgid(id);
        std::string name = entry ? entry->gr_name : std::to_string(id);
        if (std::find(names.begin(), names.end(), name) == names.end()) {
            names.push_back(name);
        }
    }
    return names;
}

}  // namespace moat::probe
