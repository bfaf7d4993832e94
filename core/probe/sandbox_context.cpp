// SPDX-License-Identifier: Apache-2.0
#include "probe/sandbox_context.h"

#include "base/moat_paths.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace moat::probe {

namespace {

using nlohmann::json;

const char* const kNamespaces[] = {"user", "mnt", "pid", "net", "ipc", "uts", "cgroup", "time"};

std::string homeDirectory()
{
    if (const char* home = std::getenv("HOME"); home && *home) {
        return home;
    }
    const passwd* entry = ::getpwuid(::getuid());
    return entry ? entry->pw_dir : "";
}

// The session bus this user's programs would use: the address in the
// environment, else the systemd default $XDG_RUNTIME_DIR/bus.
std::string sessionBusAddress()
{
    if (const char* address = std::getenv("DBUS_SESSION_BUS_ADDRESS"); address && *address) {
        return address;
    }
    if (const char* runtime = std::getenv("XDG_RUNTIME_DIR"); runtime && *runtime) {
        const std::string socket = std::string(runtime) + "/bus";
        if (::access(socket.c_str(), F_OK) == 0) {
            return "unix:path=" + socket;
        }
    }
    return {};
}

json directoryJson(const std::optional<HostDirectory>& directory)
{
    if (!directory) {
        return nullptr;
    }
    return {{"path", directory->path},
            {"major", directory->major},
            {"minor", directory->minor},
            {"inode", directory->inode},
            {"path_in_fs", directory->pathInFileSystem}};
}

std::optional<HostDirectory> directoryFromJson(const json& value)
{
    if (value.is_null()) {
        return std::nullopt;
    }
    HostDirectory directory;
    directory.path = value.at("path").get<std::string>();
    directory.major = value.at("major").get<uint32_t>();
    directory.minor = value.at("minor").get<uint32_t>();
    directory.inode = value.at("inode").get<uint64_t>();
    directory.pathInFileSystem = value.at("path_in_fs").get<std::string>();
    return directory;
}

}  // namespace

std::map<std::string, uint64_t> currentNamespaces()
{
    std::map<std::string, uint64_t> namespaces;
    for (const char* kind : kNamespaces) {
        struct stat info {};
        if (::stat((std::string("/proc/self/ns/") + kind).c_str(), &info) == 0) {
            namespaces[kind] = info.st_ino;
        }
    }
    return namespaces;
}

SandboxContext SandboxContext::ofThisHost(const std::string& workspace)
{
    const auto paths = MoatPaths::fromEnvironment();
    SandboxContext context;
    context.hostNamespaces = currentNamespaces();
    context.records = HostDirectory::identify(paths.stateDir + "/sessions");
    context.checkpoints = HostDirectory::identify(paths.dataDir);
    if (const auto home = homeDirectory(); !home.empty()) {
        context.realHome = HostDirectory::identify(home);
    }
    context.hostBus = sessionBusAddress();
    context.workspace = workspace;
    return context;
}

std::string SandboxContext::toJson() const
{
    return json{{"namespaces", hostNamespaces},
                {"records", directoryJson(records)},
                {"checkpoints", directoryJson(checkpoints)},
                {"real_home", directoryJson(realHome)},
                {"host_bus", hostBus},
                {"workspace", workspace}}
        .dump();
}

Result<SandboxContext> SandboxContext::fromJson(const std::string& text)
{
    try {
        const json value = json::parse(text);
        SandboxContext context;
        context.hostNamespaces = value.at("namespaces").get<std::map<std::string, uint64_t>>();
        context.records = directoryFromJson(value.at("records"));
        context.checkpoints = directoryFromJson(value.at("checkpoints"));
        context.realHome = directoryFromJson(value.at("real_home"));
        context.hostBus = value.at("host_bus").get<std::string>();
        context.workspace = value.at("workspace").get<std::string>();
        return context;
    } catch (const json::exception& error) {
        return Error{std::string("the probe's context is not valid: ") + error.what(), 0,
                     "moat-probe is started by `moat probe`, not by hand"};
    }
}

}  // namespace moat::probe
