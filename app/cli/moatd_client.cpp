// SPDX-License-Identifier: Apache-2.0
#include "moatd_client.h"

#include "base/program_path.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <spdlog/spdlog.h>

#include <cstdlib>

namespace moat::cli {

bool MoatdReply::absent() const
{
    // Nobody owns the name and the bus cannot start moatd, or the bus went
    // away under us. Anything else (moatd refused us, it failed to start,
    // it hung) is an error to report, never a reason to run without it.
    return !ok && (errorName == "org.freedesktop.DBus.Error.ServiceUnknown" ||
                   errorName == "org.freedesktop.DBus.Error.NameHasNoOwner" ||
                   errorName == "org.freedesktop.DBus.Error.NoServer" ||
                   errorName == "org.freedesktop.DBus.Error.Disconnected");
}

std::string sessionBusAddress()
{
    if (const char* address = std::getenv("DBUS_SESSION_BUS_ADDRESS"); address && *address) {
        return address;
    }
    if (const char* runtime = std::getenv("XDG_RUNTIME_DIR"); runtime && *runtime == '/') {
        const std::string socket = std::string(runtime) + "/bus";
        struct stat info {};
        if (::stat(socket.c_str(), &info) == 0 && S_ISSOCK(info.st_mode)) {
            return "unix:path=" + socket;
        }
    }
    return {};
}

Result<std::unique_ptr<MoatdClient>> connectToMoatd()
{
    const std::string address = sessionBusAddress();
    if (address.empty()) {
        spdlog::debug("no D-Bus session bus: running without moatd");
        return std::unique_ptr<MoatdClient>();
    }
    const std::string path = siblingProgramPath(kMoatdClientModule);
    // Never closed: Qt does not survive being unloaded.
    void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!module) {
        const char* why = ::dlerror();
        // Without its client module this moat cannot speak to moatd at
        // all: to it, moatd is not there.
        spdlog::warn("cannot load {} ({}): running without moatd", path, why ? why : "unknown error");
        return std::unique_ptr<MoatdClient>();
    }
    auto connect = reinterpret_cast<ConnectMoatd>(::dlsym(module, kConnectMoatdSymbol));
    if (!connect) {
        return Error{path + " is not moat's D-Bus module (no " + kConnectMoatdSymbol + ")", 0,
                     "Reinstall moat, or run with --embedded"};
    }
    std::string problem;
    std::unique_ptr<MoatdClient> client(connect(address, &problem));
    if (!client && !problem.empty()) {
        return Error{problem, 0, "Run with --embedded to start the session without moatd"};
    }
    if (!client) {
        spdlog::debug("moatd is neither running nor activatable on the session bus: running without it");
    }
    return client;
}

}  // namespace moat::cli
