// SPDX-License-Identifier: Apache-2.0
#include "supervisor_handle.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QDebug>
#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

#include "base/program_path.h"
#include "base/sealed_memfd.h"
#include "json_channel.h"

namespace moat::helper {

namespace {

// The largest message a supervisor sends is a "request": the agent's body
// is at most 64 KiB (protocol.md), plus the envelope.
constexpr qsizetype kMaxSupervisorMessage = 256 * 1024;

int pidfdOpen(pid_t pid)
{
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
}

int pidfdSendSignal(int pidfd, int signal)
{
    return static_cast<int>(::syscall(SYS_pidfd_send_signal, pidfd, signal, nullptr, 0));
}

QString describeWait(const siginfo_t& info)
{
    if (info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED) {
        return QStringLiteral("moat-supervisor died of signal %1 (%2)")
            .arg(info.si_status)
            .arg(QString::fromLocal8Bit(::strsignal(info.si_status)));
    }
    return QStringLiteral("moat-supervisor exited with status %1 before it said how the session ended")
        .arg(info.si_status);
}

}  // namespace

SupervisorHandle::SupervisorHandle(QString sessionId, pid_t pid, UniqueFd pidfd, bool reattached)
    : sessionId_(std::move(sessionId)), pid_(pid), pidfd_(std::move(pidfd)), reattached_(reattached)
{
    exitNotifier_ = std::make_unique<QSocketNotifier>(pidfd_.get(), QSocketNotifier::Read);
    connect(exitNotifier_.get(), &QSocketNotifier::activated, this, &SupervisorHandle::onExited);
    killTimer_.setSingleShot(true);
    connect(&killTimer_, &QTimer::timeout, this, [this] {
        qWarning("moatd: session %s: moat-supervisor did not stop within %d s; killing it", qPrintable(sessionId_),
                 kStopDeadlineMs / 1000);
        pidfdSendSignal(pidfd_.get(), SIGKILL);
    });
}

SupervisorHandle::~SupervisorHandle() = default;

Result<std::unique_ptr<SupervisorHandle>> SupervisorHandle::spawn(const QString& sessionId, const std::string& specJson,
                                                                  UniqueFd keys, Stdio stdio, UniqueFd secrets)
{
    const std::string binary = supervisorProgramPath();
    if (::access(binary.c_str(), X_OK) != 0) {
        return Error::fromErrno("cannot find moat-supervisor at " + binary, errno,
                                "Reinstall moat, or run moatd from its build directory");
    }
    auto spec = sealedMemfd("moat-spec", specJson);
    if (!spec) {
        return spec.error();
    }
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
        return Error::fromErrno("cannot create the supervisor's parent link", errno);
    }
    UniqueFd ours(pair[0]);
    UniqueFd theirs(pair[1]);

    // The child's fds 0..6 (6: the secrets, when the session has any),
    // first copied above 10 so that placing them cannot overwrite one not
    // yet placed.
    const std::array<int, 7> sources = {stdio.in, stdio.out, stdio.err, spec->get(), keys.get(), theirs.get(),
                                        secrets.get()};
    const size_t placed = secrets ? 7 : 6;
    std::array<UniqueFd, 7> high;
    for (size_t i = 0; i < placed; ++i) {
        high[i].reset(::fcntl(sources[i], F_DUPFD_CLOEXEC, 10));
        if (!high[i]) {
            return Error::fromErrno("cannot pass the session's descriptors to moat-supervisor", errno);
        }
    }
    std::vector<std::string> args = {binary, "--spec-fd", "3", "--keys-fd", "4", "--parent-fd", "5"};
    if (secrets) {
        args.insert(args.end(), {"--secrets-fd", "6"});
    }
    std::vector<char*> argv;
    for (auto& arg : args) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    std::array<int, 7> highFds{};
    const int placedFds = static_cast<int>(placed);
    for (size_t i = 0; i < placed; ++i) {
        highFds[i] = high[i].get();
    }

    const pid_t pid = ::fork();
    if (pid < 0) {
        return Error::fromErrno("cannot start moat-supervisor (fork)", errno);
    }
    if (pid == 0) {
        // Only async-signal-safe calls from here: moatd has threads (QtDBus).
        // A session of its own: the supervisor outlives moatd (a restart
        // re-attaches) and no signal meant for moatd's group reaches it.
        ::setsid();
        sigset_t none;
        ::sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        ::signal(SIGPIPE, SIG_DFL);
        for (int i = 0; i < placedFds; ++i) {
            if (::dup2(highFds[static_cast<size_t>(i)], i) != i) {
                ::_exit(125);
            }
        }
        ::syscall(SYS_close_range, static_cast<unsigned>(placedFds), ~0U, 0U);
        ::execv(argv[0], argv.data());
        ::_exit(125);
    }
    UniqueFd pidfd(pidfdOpen(pid));  // our unreaped child: the pid cannot have been reused
    if (!pidfd) {
        const int err = errno;
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        return Error::fromErrno("cannot watch moat-supervisor (pidfd_open)", err);
    }
    std::unique_ptr<SupervisorHandle> handle(new SupervisorHandle(sessionId, pid, std::move(pidfd), false));
    handle->attachChannel(
        std::make_unique<JsonChannel>(std::move(ours), JsonChannel::Framing::Datagrams, kMaxSupervisorMessage));
    return handle;
}

Result<std::unique_ptr<SupervisorHandle>> SupervisorHandle::reattach(const QString& sessionId, pid_t pid,
                                                                     const std::string& socketPath)
{
    UniqueFd pidfd(pidfdOpen(pid));
    if (!pidfd) {
        return Error::fromErrno("moat-supervisor " + std::to_string(pid) + " is gone", errno);
    }
    UniqueFd socket(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (socketPath.size() >= sizeof address.sun_path) {
        return Error{"the supervisor socket path is too long: " + socketPath};
    }
    std::memcpy(address.sun_path, socketPath.c_str(), socketPath.size() + 1);
    if (!socket || ::connect(socket.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        return Error::fromErrno("cannot connect to " + socketPath, errno);
    }
    // The socket's path is in moatd's own runtime directory, but a path is
    // not an identity: the peer must be the supervisor status.json names,
    // running as moatd's own uid.
    ucred peer{};
    socklen_t length = sizeof peer;
    if (::getsockopt(socket.get(), SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0) {
        return Error::fromErrno("cannot learn who listens on " + socketPath, errno);
    }
    if (peer.uid != ::getuid() || peer.pid != pid) {
        return Error{"the process listening on " + socketPath + " (pid " + std::to_string(peer.pid) + ", uid " +
                     std::to_string(peer.uid) + ") is not the session's supervisor (pid " + std::to_string(pid) + ")"};
    }
    std::unique_ptr<SupervisorHandle> handle(new SupervisorHandle(sessionId, pid, std::move(pidfd), true));
    handle->attachChannel(
        std::make_unique<JsonChannel>(std::move(socket), JsonChannel::Framing::Lines, kMaxSupervisorMessage));
    return handle;
}

void SupervisorHandle::attachChannel(std::unique_ptr<JsonChannel> channel)
{
    channel_ = std::move(channel);
    connect(channel_.get(), &JsonChannel::received, this, &SupervisorHandle::onMessage);
    connect(channel_.get(), &JsonChannel::protocolError, this, [this](const QString& what) {
        qWarning("moatd: session %s: supervisor link: %s", qPrintable(sessionId_), qPrintable(what));
    });
    // The link closing says nothing on its own: the pidfd says when the
    // supervisor is gone.
}

bool SupervisorHandle::send(const QJsonObject& message)
{
    return channel_ && channel_->send(message);
}

void SupervisorHandle::stop(const QJsonObject& by)
{
    if (!send(QJsonObject{{QStringLiteral("t"), QStringLiteral("stop")}, {QStringLiteral("by"), by}})) {
        // No link (it broke): the supervisor's own SIGTERM handling stops the
        // session, recorded without who asked.
        pidfdSendSignal(pidfd_.get(), SIGTERM);
    }
    if (!killTimer_.isActive()) {
        killTimer_.start(kStopDeadlineMs);
    }
}

void SupervisorHandle::onMessage(const QJsonObject& message)
{
    const QString type = message.value(QStringLiteral("t")).toString();
    if (!helloSeen_) {
        if (type != QLatin1String("hello") || message.value(QStringLiteral("session")).toString() != sessionId_) {
            qWarning("moatd: session %s: the supervisor's first message is not its hello; ignored",
                     qPrintable(sessionId_));
            return;
        }
        helloSeen_ = true;
        return;
    }
    if (type == QLatin1String("ended")) {
        static const QStringList kStates = {QStringLiteral("exited"), QStringLiteral("expired"),
                                            QStringLiteral("stopped"), QStringLiteral("failed")};
        const QString state = message.value(QStringLiteral("state")).toString();
        ended_ = true;
        endState_ = kStates.contains(state) ? state : QStringLiteral("failed");
        endCode_ = message.value(QStringLiteral("exit_code")).toInt(125);
        return;
    }
    emit received(message);
}

void SupervisorHandle::onExited()
{
    if (finished_) {
        return;
    }
    finished_ = true;
    exitNotifier_.reset();
    killTimer_.stop();
    if (channel_) {
        channel_->drain();  // its last words ("ended") may still wait in the socket
        channel_->close();
    }
    siginfo_t info{};
    const bool reaped =
        ::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(pidfd_.get()), &info, WEXITED | WNOHANG) == 0 &&
        info.si_pid != 0;
    if (ended_) {
        emit finished(endState_, endCode_, {});
        return;
    }
    const QString why =
        reaped ? describeWait(info) : QStringLiteral("moat-supervisor (pid %1) ended without saying how").arg(pid_);
    emit finished(QStringLiteral("failed"), 125, why);
}

}  // namespace moat::helper
