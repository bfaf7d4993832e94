// SPDX-License-Identifier: Apache-2.0
// parent-link-driver: plays moatd's part of the parent link for the
// integration tests (core/session/parent_link.h). Builds a session's spec
// and record keys the way `moat run` does, starts the real moat-supervisor
// with --parent-fd (or without it: --embedded), and bridges the link to
// JSON lines:
//
//   stdout, one JSON a line:
//     {"driver":"spawned","pid","session","socket"}
//     {"from":"fd","msg":{...}}        a datagram on the --parent-fd socketpair
//     {"from":"socket","msg":{...}}    a line on the re-attach socket
//     {"driver":"fd-closed"} {"driver":"socket-closed"}
//     {"driver":"connected"} {"driver":"connect-failed","errno","error"}
//     {"driver":"exited","status"}     the supervisor's exit status; last line
//   stdin, one JSON a line:
//     {"to":"fd"|"socket","msg":{...}} {"close":"fd"|"socket"} {"connect":true}
//
// Usage: parent-link-driver --supervisor PATH [--embedded] [--output FILE]
//        [--ttl D] [--allow-host H]... [--ro P]... [--name N] -- COMMAND...
// The sandbox's stdout and stderr go to --output (default /dev/null).

#include "audit/record_keys.h"
#include "base/moat_paths.h"
#include "policy/run_request.h"
#include "policy/spec_builder.h"
#include "policy/spec_json.h"
#include "record_key_store.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdlib>
#include <climits>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

void emit(const json& line)
{
    std::cout << line.dump() << std::endl;
}

[[noreturn]] void die(const std::string& what)
{
    std::cerr << "parent-link-driver: " << what << std::endl;
    std::exit(2);
}

struct Options {
    std::string supervisor;
    std::string output = "/dev/null";
    bool embedded = false;
    moat::RunRequest run;
};

Options parseArguments(int argc, char** argv)
{
    Options options;
    int i = 1;
    auto value = [&](const char* flag) -> std::string {
        if (i + 1 >= argc) {
            die(std::string(flag) + " needs a value");
        }
        return argv[++i];
    };
    for (; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--") {
            ++i;
            break;
        } else if (arg == "--supervisor") {
            options.supervisor = value("--supervisor");
        } else if (arg == "--output") {
            options.output = value("--output");
        } else if (arg == "--embedded") {
            options.embedded = true;
        } else if (arg == "--ttl") {
            options.run.ttl = value("--ttl");
        } else if (arg == "--allow-host") {
            options.run.allowHosts.push_back(value("--allow-host"));
        } else if (arg == "--ro") {
            options.run.readOnlyPaths.push_back(value("--ro"));
        } else if (arg == "--name") {
            options.run.name = value("--name");
        } else {
            die("unknown option " + arg);
        }
    }
    for (; i < argc; ++i) {
        options.run.command.emplace_back(argv[i]);
    }
    if (options.supervisor.empty() || options.run.command.empty()) {
        die("usage: parent-link-driver --supervisor PATH [--embedded] [--output FILE] [run options] -- COMMAND...");
    }
    return options;
}

// What SpecBuilder reads of the caller's environment (it passes on only a
// short safe list anyway).
std::map<std::string, std::string> environment()
{
    std::map<std::string, std::string> env;
    for (const char* name : {"PATH", "HOME", "LANG", "TERM", "TZ"}) {
        if (const char* value = std::getenv(name)) {
            env.emplace(name, value);
        }
    }
    return env;
}

int specMemfd(const std::string& text)
{
    const int fd = ::memfd_create("moat-spec", MFD_ALLOW_SEALING);
    if (fd < 0 || ::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size()) ||
        ::fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) != 0 ||
        ::lseek(fd, 0, SEEK_SET) != 0) {
        die(std::string("cannot make the spec memfd: ") + std::strerror(errno));
    }
    return fd;
}

// Moves fd to a number at least 10, without close-on-exec, for the child.
int keepForChild(int fd)
{
    const int kept = ::fcntl(fd, F_DUPFD, 10);
    if (kept < 0) {
        die(std::string("cannot duplicate an fd: ") + std::strerror(errno));
    }
    return kept;
}

pid_t spawn(const Options& options, const std::string& specJson, moat::UniqueFd keys, int parentEnd)
{
    const pid_t pid = ::fork();
    if (pid < 0) {
        die(std::string("fork: ") + std::strerror(errno));
    }
    if (pid > 0) {
        return pid;
    }
    const int out = ::open(options.output.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (out < 0 || devNull < 0) {
        _exit(126);
    }
    ::dup2(devNull, STDIN_FILENO);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(out, STDERR_FILENO);
    // Its own process group: the test's signals reach the driver, not it.
    ::setpgid(0, 0);
    std::vector<std::string> args = {options.supervisor, "--spec-fd", std::to_string(keepForChild(specMemfd(specJson))),
                                     "--keys-fd", std::to_string(keepForChild(keys.get()))};
    if (parentEnd >= 0) {
        args.insert(args.end(), {"--parent-fd", std::to_string(keepForChild(parentEnd))});
    }
    std::vector<char*> argv;
    for (auto& arg : args) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    ::execv(options.supervisor.c_str(), argv.data());
    _exit(127);
}

class Bridge {
public:
    Bridge(pid_t child, int parentFd, std::string socketPath)
        : child_(child), parentFd_(parentFd), socketPath_(std::move(socketPath))
    {
        pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, child, 0));
    }

    int run()
    {
        for (;;) {
            std::vector<pollfd> fds = {
                {STDIN_FILENO, POLLIN, 0}, {parentFd_, POLLIN, 0}, {socket_, POLLIN, 0}, {pidfd_, POLLIN, 0}};
            if (stdinClosed_) {
                fds[0].fd = -1;
            }
            if (::poll(fds.data(), fds.size(), -1) < 0) {
                if (errno == EINTR) {
                    continue;
                }
                die(std::string("poll: ") + std::strerror(errno));
            }
            if (fds[1].revents) {
                readDatagrams();
            }
            if (fds[2].revents) {
                readSocket();
            }
            if (fds[0].revents) {
                readCommands();
            }
            if (fds[3].revents) {
                // Whatever the supervisor said last is read before its exit is told.
                readDatagrams();
                readSocket();
                int status = 0;
                ::waitpid(child_, &status, 0);
                emit({{"driver", "exited"},
                      {"status", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)}});
                return 0;
            }
        }
    }

private:
    void readDatagrams() { drain(parentFd_, false); }
    void readSocket() { drain(socket_, true); }

    // Everything waiting on fd: datagrams (the socketpair) or lines (the socket).
    void drain(int& fd, bool lines)
    {
        const char* from = lines ? "socket" : "fd";
        while (fd >= 0) {
            char buffer[65536];
            const ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
            if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
                return;
            }
            if (n <= 0) {
                emit({{"driver", std::string(from) + "-closed"}});
                ::close(fd);
                fd = -1;
                return;
            }
            if (!lines) {
                emit({{"from", from},
                      {"msg", json::parse(std::string(buffer, static_cast<std::size_t>(n)), nullptr, false)}});
                continue;
            }
            input_.append(buffer, static_cast<std::size_t>(n));
            for (auto end = input_.find('\n'); end != std::string::npos; end = input_.find('\n')) {
                emit({{"from", from}, {"msg", json::parse(input_.substr(0, end), nullptr, false)}});
                input_.erase(0, end + 1);
            }
        }
    }

    void readCommands()
    {
        char buffer[65536];
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n <= 0) {
            stdinClosed_ = true;
            return;
        }
        commands_.append(buffer, static_cast<std::size_t>(n));
        for (auto end = commands_.find('\n'); end != std::string::npos; end = commands_.find('\n')) {
            const json command = json::parse(commands_.substr(0, end), nullptr, false);
            commands_.erase(0, end + 1);
            if (command.is_object()) {
                carryOut(command);
            }
        }
    }

    void carryOut(const json& command)
    {
        if (command.contains("to")) {
            const std::string text = command["msg"].dump();
            if (command["to"] == "fd" && parentFd_ >= 0) {
                (void)::send(parentFd_, text.data(), text.size(), MSG_NOSIGNAL);
            } else if (command["to"] == "socket" && socket_ >= 0) {
                const std::string line = text + "\n";
                (void)::send(socket_, line.data(), line.size(), MSG_NOSIGNAL);
            }
        } else if (command.value("close", "") == "fd" && parentFd_ >= 0) {
            ::close(parentFd_);
            parentFd_ = -1;
        } else if (command.value("close", "") == "socket" && socket_ >= 0) {
            ::close(socket_);
            socket_ = -1;
        } else if (command.contains("connect")) {
            connect();
        }
    }

    void connect()
    {
        if (socket_ >= 0) {
            ::close(socket_);
        }
        socket_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::strncpy(address.sun_path, socketPath_.c_str(), sizeof address.sun_path - 1);
        if (::connect(socket_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
            const int err = errno;
            ::close(socket_);
            socket_ = -1;
            emit({{"driver", "connect-failed"}, {"errno", err}, {"error", std::strerror(err)}});
            return;
        }
        emit({{"driver", "connected"}});
    }

    pid_t child_;
    int parentFd_;
    std::string socketPath_;
    int pidfd_ = -1;
    int socket_ = -1;
    bool stdinClosed_ = false;
    std::string input_;
    std::string commands_;
};

}  // namespace

int main(int argc, char** argv)
{
    const Options options = parseArguments(argc, argv);
    const moat::MoatPaths paths = moat::MoatPaths::fromEnvironment();
    char cwd[PATH_MAX];
    moat::SpecBuilder builder(paths, environment(), ::getcwd(cwd, sizeof cwd) ? cwd : "/");
    auto spec = builder.build(options.run);
    if (!spec) {
        die(spec.error().message());
    }
    moat::keychain::RecordKeyStore store(paths);
    auto keys = store.keysForNewSession();
    if (!keys) {
        die(keys.error().message());
    }
    auto keysFd = keys->keys.toSealedMemfd();
    if (!keysFd) {
        die(keysFd.error().message());
    }
    int pair[2] = {-1, -1};
    if (!options.embedded && ::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
        die(std::string("socketpair: ") + std::strerror(errno));
    }
    const pid_t child = spawn(options, moat::specToJson(spec.value()).dump(), std::move(keysFd.value()), pair[1]);
    if (pair[1] >= 0) {
        ::close(pair[1]);
    }
    const std::string socketPath = paths.supervisorSocket(spec->sessionId);
    emit({{"driver", "spawned"}, {"pid", child}, {"session", spec->sessionId}, {"socket", socketPath}});
    Bridge bridge(child, pair[0], socketPath);
    return bridge.run();
}
