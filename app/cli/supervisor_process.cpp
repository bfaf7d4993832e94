// SPDX-License-Identifier: Apache-2.0
#include "supervisor_process.h"

#include "base/program_path.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <vector>

namespace moat::cli {

std::string supervisorPath()
{
    return supervisorProgramPath();
}

int runSupervisor(const std::string& specJson, int keysFd, int secretsFd, const std::string& jsonEventsPath,
                  int verbosity)
{
    const std::string binary = supervisorPath();
    if (::access(binary.c_str(), X_OK) != 0) {
        std::cerr << "moat: cannot find moat-supervisor at " << binary
                  << ". Reinstall moat, or run the moat binary from its build directory\n";
        return 125;
    }
    // The spec travels on a sealed memfd: the supervisor reads it whole, and
    // nobody else can change it in between.
    const int specFd = ::memfd_create("moat-spec", MFD_ALLOW_SEALING);
    if (specFd < 0 || ::write(specFd, specJson.data(), specJson.size()) != static_cast<ssize_t>(specJson.size()) ||
        ::fcntl(specFd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) != 0 ||
        ::lseek(specFd, 0, SEEK_SET) != 0) {
        std::cerr << "moat: cannot hand the session spec to moat-supervisor: " << std::strerror(errno) << "\n";
        return 125;
    }
    std::vector<std::string> args = {binary, "--spec-fd", std::to_string(specFd), "--keys-fd", std::to_string(keysFd)};
    if (secretsFd >= 0) {
        args.insert(args.end(), {"--secrets-fd", std::to_string(secretsFd)});
    }
    if (!jsonEventsPath.empty()) {
        args.insert(args.end(), {"--json-events", jsonEventsPath});
    }
    for (int i = 0; i < verbosity; ++i) {
        args.emplace_back("-v");
    }
    std::vector<char*> argv;
    for (auto& arg : args) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    // Embedded mode: this process becomes the session's supervisor, so that
    // moat and the supervisor live and die together.
    ::execv(binary.c_str(), argv.data());
    std::cerr << "moat: cannot execute " << binary << ": " << std::strerror(errno) << "\n";
    return 125;
}

}  // namespace moat::cli
