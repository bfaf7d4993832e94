// SPDX-License-Identifier: Apache-2.0
// Exec records without a sandbox: a forked child loads moat's seccomp filter
// with the exec listener (SeccompPolicy::apply, notifyExec) and hands the
// listener to the test, which serves it with ExecNotifier. Every exec is
// answered and then runs as asked; what is recorded stays within the read
// limits whatever the caller passes; a caller that execs in a tight loop is
// answered every time; with the listener closed, an exec fails with ENOSYS.
#include "runtime/init_channel.h"
#include "runtime/seccomp_policy.h"
#include "session/exec_notifier.h"

#include <QTest>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using moat::ExecEvent;
using moat::ExecNotifier;
using moat::ExecReadLimits;
using moat::UniqueFd;

namespace {

// How many "seccomp notify" listeners the calling process holds.
int listenersHeld()
{
    int count = 0;
    DIR* dir = ::opendir("/proc/self/fd");
    if (!dir) {
        return -1;
    }
    while (dirent* entry = ::readdir(dir)) {
        char target[128] = {};
        if (::readlinkat(::dirfd(dir), entry->d_name, target, sizeof target - 1) > 0 &&
            std::strstr(target, "seccomp notify")) {
            ++count;
        }
    }
    ::closedir(dir);
    return count;
}

// What the child's body returns: its exit status (an errno when an exec
// failed; 0 when /bin/true ran).
using ChildBody = std::function<int()>;

constexpr int kNoFilter = 200;
constexpr int kTwoListeners = 201;

struct Run {
    std::vector<ExecEvent> events;
    int exitStatus = -1;
    std::uint64_t answered = 0;
    pid_t child = -1;
    std::chrono::nanoseconds elapsed{};
    bool heldUntilRelease = false;
};

struct Serving {
    ExecReadLimits limits;
    ExecNotifier::Admission admit;
    bool closeListener = false;  // close it instead of serving it
    bool lateStart = false;      // let the child exec first, then start serving
    bool hold = false;           // hold the reports until the child is gone
};

// Forks a child that loads the filter, sends its listener and, once told to
// go, runs `body`; serves the listener until the child is gone.
Run runNotified(const ChildBody& body, const Serving& serving = {})
{
    Run run;
    // The channel sandbox init hands its listeners over, here between the
    // test and its child.
    auto channels = moat::InitChannel::makePair();
    if (!channels) {
        return run;
    }
    auto& [parentEnd, childEnd] = channels.value();
    const pid_t pid = ::fork();
    if (pid == 0) {
        parentEnd.close();
        moat::SeccompOptions options;
        options.notifyExec = true;
        auto listener = moat::SeccompPolicy::apply(options);
        if (!listener || !listener->valid()) {
            ::_exit(kNoFilter);
        }
        // The filter's listener is the only copy: libseccomp keeps none.
        if (listenersHeld() != 1) {
            ::_exit(kTwoListeners);
        }
        (void)childEnd.send({{"t", "listener"}}, listener->get());
        listener->reset();
        if (!serving.lateStart && !childEnd.receive()) {
            ::_exit(kNoFilter);
        }
        ::_exit(body());
    }
    run.child = pid;
    childEnd.close();
    auto handed = parentEnd.receive();
    UniqueFd listener = handed ? std::move(handed->fd) : UniqueFd();
    if (serving.closeListener) {
        listener.reset();
    }
    if (serving.lateStart) {
        // The child's exec waits already when the notifier starts.
        const moat::SeccompListener waiting(listener.get());
        for (int i = 0; i < 1000 && waiting.wait(0) != moat::SeccompListener::State::Waiting; ++i) {
            ::usleep(1000);
        }
    }

    boost::asio::io_context io;
    ExecNotifier notifier(io, std::move(listener), [&run](const ExecEvent& event) { run.events.push_back(event); },
                          serving.admit, serving.limits);
    if (serving.hold) {
        notifier.hold();
    }
    notifier.start();
    const auto start = std::chrono::steady_clock::now();
    (void)parentEnd.send({{"t", "go"}});
    int status = 0;
    for (;;) {
        io.run_for(std::chrono::milliseconds(5));
        if (::waitpid(pid, &status, WNOHANG) == pid) {
            break;
        }
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(30)) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            break;
        }
    }
    run.elapsed = std::chrono::steady_clock::now() - start;
    run.answered = notifier.answered();
    if (serving.hold) {
        run.heldUntilRelease = run.events.empty();
        notifier.release();
    }
    run.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return run;
}

// An execve whose failure is the child's exit status.
int execOrErrno(const char* path, char* const* argv)
{
    char* const env[] = {nullptr};
    ::syscall(SYS_execve, path, argv, env);
    return errno;
}

std::vector<char*> pointers(std::vector<std::string>& strings)
{
    std::vector<char*> out;
    for (auto& s : strings) {
        out.push_back(s.data());
    }
    out.push_back(nullptr);
    return out;
}

std::size_t bytes(const std::vector<std::string>& strings)
{
    std::size_t total = 0;
    for (const auto& s : strings) {
        total += s.size();
    }
    return total;
}

}  // namespace

class ExecRecordsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!moat::SeccompPolicy::kernelSupportsExecNotify()) {
            QSKIP("this kernel has no seccomp user notification with SECCOMP_USER_NOTIF_FLAG_CONTINUE (Linux 5.7)");
        }
    }

    void recordsPathAndArgvThenLetsTheExecRun()
    {
        std::vector<std::string> args = {"true", "one", "two words", ""};
        auto argv = pointers(args);
        const Run run = runNotified([&] { return execOrErrno("/bin/true", argv.data()); });
        QCOMPARE(run.exitStatus, 0);  // /bin/true ran: the answer was "continue"
        QCOMPARE(run.events.size(), std::size_t(1));
        const ExecEvent& event = run.events.front();
        QCOMPARE(event.hostPid, run.child);
        QCOMPARE(event.pid, run.child);  // no pid namespace of its own: the same number
        QVERIFY(!event.execveat);
        QCOMPARE(event.arguments.error, 0);
        QCOMPARE(event.arguments.path, std::string("/bin/true"));
        QCOMPARE(event.arguments.argv, args);
        QVERIFY(!event.arguments.pathTruncated);
        QVERIFY(!event.arguments.argvTruncated);
        QCOMPARE(run.answered, std::uint64_t(1));
    }

    void readsStayWithinTheLimits_data()
    {
        QTest::addColumn<std::string>("path");
        QTest::addColumn<std::vector<std::string>>("args");
        QTest::addColumn<std::size_t>("pathLength");
        QTest::addColumn<bool>("pathTruncated");
        QTest::addColumn<std::size_t>("argCount");
        QTest::addColumn<bool>("argvTruncated");

        const ExecReadLimits limits;
        const std::string longPath = "/" + std::string(limits.maxPath + 900, 'p');
        QTest::addRow("a path longer than %zu bytes", limits.maxPath)
            << longPath << std::vector<std::string>{"x"} << limits.maxPath << true << std::size_t(1) << false;

        std::vector<std::string> many;
        for (std::size_t i = 0; i < limits.maxArgs + 40; ++i) {
            many.push_back("arg" + std::to_string(i));
        }
        QTest::addRow("more than %zu arguments", limits.maxArgs)
            << std::string("/nonexistent/many") << many << std::string("/nonexistent/many").size() << false
            << limits.maxArgs << true;

        // Ten arguments of 3000 bytes: the total (path included) is cut.
        const std::vector<std::string> large(10, std::string(3000, 'a'));
        const std::string path = "/nonexistent/large";
        QTest::addRow("more than %zu bytes in all", limits.maxTotal)
            << path << large << path.size() << false
            << (limits.maxTotal - path.size() + 2999) / 3000 << true;

        const std::vector<std::string> one(1, std::string(limits.maxTotal, 'b'));
        QTest::addRow("one argument larger than everything allowed")
            << path << one << path.size() << false << std::size_t(1) << true;
    }

    void readsStayWithinTheLimits()
    {
        QFETCH(std::string, path);
        QFETCH(std::vector<std::string>, args);
        QFETCH(std::size_t, pathLength);
        QFETCH(bool, pathTruncated);
        QFETCH(std::size_t, argCount);
        QFETCH(bool, argvTruncated);

        auto argv = pointers(args);
        const Run run = runNotified([&] { return execOrErrno(path.c_str(), argv.data()); });
        QVERIFY(run.exitStatus == ENOENT || run.exitStatus == ENAMETOOLONG);  // answered, then failed for real
        QCOMPARE(run.events.size(), std::size_t(1));
        const auto& got = run.events.front().arguments;
        QCOMPARE(got.error, 0);
        QCOMPARE(got.path.size(), pathLength);
        QCOMPARE(got.pathTruncated, pathTruncated);
        QCOMPARE(got.argv.size(), argCount);
        QCOMPARE(got.argvTruncated, argvTruncated);
        const ExecReadLimits limits;
        QVERIFY(got.path.size() + bytes(got.argv) <= limits.maxTotal);
        for (std::size_t i = 0; i < got.argv.size(); ++i) {
            QVERIFY(args[i].starts_with(got.argv[i]));
        }
    }

    void unreadableArgumentsAreStillAnswered_data()
    {
        QTest::addColumn<int>("pathKind");  // 0: readable, 1: a pointer to nothing
        QTest::addColumn<int>("argvKind");  // 0: readable, 1: null, 2: a pointer to nothing, 3: a bad entry
        QTest::addColumn<int>("expectedError");
        QTest::addColumn<int>("expectedArgs");

        QTest::addRow("a path pointer to nothing") << 1 << 0 << EFAULT << 0;
        QTest::addRow("a null argv is an empty one") << 0 << 1 << 0 << 0;
        QTest::addRow("an argv pointer to nothing") << 0 << 2 << EFAULT << 0;
        QTest::addRow("an argv entry pointing to nothing") << 0 << 3 << 0 << 2;
    }

    void unreadableArgumentsAreStillAnswered()
    {
        QFETCH(int, pathKind);
        QFETCH(int, argvKind);
        QFETCH(int, expectedError);
        QFETCH(int, expectedArgs);

        // An address in the first page, which nothing maps.
        char* const nowhere = reinterpret_cast<char*>(std::uintptr_t(64));
        std::string name = "false", readable = "readable";
        char* const plain[] = {name.data(), nullptr};
        char* const badEntry[] = {name.data(), readable.data(), nowhere, name.data(), nullptr};
        const char* path = pathKind == 1 ? nowhere : "/bin/false";
        char* const* vector = argvKind == 0   ? plain
                              : argvKind == 1 ? nullptr
                              : argvKind == 2 ? reinterpret_cast<char* const*>(nowhere)
                                              : badEntry;
        const Run run = runNotified([&] { return execOrErrno(path, vector); });
        QCOMPARE(run.events.size(), std::size_t(1));
        QCOMPARE(run.answered, std::uint64_t(1));
        const auto& got = run.events.front().arguments;
        QCOMPARE(got.error, expectedError);
        QCOMPARE(int(got.argv.size()), expectedArgs);
        if (pathKind == 1 || argvKind >= 2) {
            QCOMPARE(run.exitStatus, EFAULT);  // the kernel refused the same pointers
        } else {
            QCOMPARE(run.exitStatus, 1);  // /bin/false ran
        }
    }

    void execveatWithAnEmptyPathIsRecorded()
    {
        std::vector<std::string> args = {"true", "via-fd"};
        auto argv = pointers(args);
        const Run run = runNotified([&] {
            const int fd = ::open("/bin/true", O_PATH | O_CLOEXEC);
            char* const env[] = {nullptr};
            ::syscall(SYS_execveat, fd, "", argv.data(), env, AT_EMPTY_PATH);
            return errno;
        });
        QCOMPARE(run.exitStatus, 0);
        QCOMPARE(run.events.size(), std::size_t(1));
        const ExecEvent& event = run.events.front();
        QVERIFY(event.execveat);
        QVERIFY(event.dirfd >= 0);
        QCOMPARE(event.flags, AT_EMPTY_PATH);
        QCOMPARE(event.arguments.path, std::string());
        QCOMPARE(event.arguments.argv, args);
    }

    void aTightExecLoopIsAnsweredEveryTime()
    {
        constexpr int kExecs = 2000;
        constexpr int kAdmitted = 10;
        std::vector<std::string> args = {"missing", "--flag"};
        auto argv = pointers(args);
        int admitted = 0;
        Serving serving;
        serving.admit = [&admitted] { return admitted++ < kAdmitted; };
        const Run run = runNotified(
            [&] {
                for (int i = 0; i < kExecs; ++i) {
                    if (execOrErrno("/nonexistent/missing", argv.data()) != ENOENT) {
                        return 1;
                    }
                }
                return 0;
            },
            serving);
        QCOMPARE(run.exitStatus, 0);
        QCOMPARE(run.answered, std::uint64_t(kExecs));
        // Over the budget the arguments are not even read.
        QCOMPARE(run.events.size(), std::size_t(kAdmitted));
        qInfo("%d execs answered in %.1f ms (%.1f us each, %d of them read)", kExecs,
              double(run.elapsed.count()) / 1e6, double(run.elapsed.count()) / 1e3 / kExecs, kAdmitted);
    }

    void aTightExecLoopReadEveryTime()
    {
        constexpr int kExecs = 2000;
        std::vector<std::string> args = {"missing", "--flag", "some/argument"};
        auto argv = pointers(args);
        const Run run = runNotified([&] {
            for (int i = 0; i < kExecs; ++i) {
                if (execOrErrno("/nonexistent/missing", argv.data()) != ENOENT) {
                    return 1;
                }
            }
            return 0;
        });
        QCOMPARE(run.exitStatus, 0);
        QCOMPARE(run.answered, std::uint64_t(kExecs));
        QCOMPARE(run.events.size(), std::size_t(kExecs));
        QCOMPARE(run.events.back().arguments.argv, args);
        qInfo("%d execs read and answered in %.1f ms (%.1f us each)", kExecs, double(run.elapsed.count()) / 1e6,
              double(run.elapsed.count()) / 1e3 / kExecs);
    }

    void anExecWaitingBeforeTheStartIsAnswered()
    {
        std::vector<std::string> args = {"true", "early"};
        auto argv = pointers(args);
        Serving serving;
        serving.lateStart = true;
        const Run run = runNotified([&] { return execOrErrno("/bin/true", argv.data()); }, serving);
        QCOMPARE(run.exitStatus, 0);
        QCOMPARE(run.events.size(), std::size_t(1));
        QCOMPARE(run.events.front().arguments.argv, args);
    }

    void heldReportsComeOnReleaseInOrder()
    {
        // The execs are answered at once (the child runs through all of
        // them); only their reports wait.
        std::vector<std::string> first = {"first"}, second = {"second"}, third = {"true", "third"};
        auto a = pointers(first), b = pointers(second), c = pointers(third);
        Serving serving;
        serving.hold = true;
        const Run run = runNotified(
            [&] {
                execOrErrno("/nonexistent/first", a.data());
                execOrErrno("/nonexistent/second", b.data());
                return execOrErrno("/bin/true", c.data());
            },
            serving);
        QCOMPARE(run.exitStatus, 0);
        QCOMPARE(run.answered, std::uint64_t(3));
        QVERIFY(run.heldUntilRelease);
        QCOMPARE(run.events.size(), std::size_t(3));
        QCOMPARE(run.events[0].arguments.argv, first);
        QCOMPARE(run.events[1].arguments.argv, second);
        QCOMPARE(run.events[2].arguments.argv, third);
    }

    void withTheListenerClosedAnExecFailsWithEnosys()
    {
        // What the sandbox sees once its supervisor is gone.
        std::vector<std::string> args = {"true"};
        auto argv = pointers(args);
        Serving serving;
        serving.closeListener = true;
        const Run run = runNotified([&] { return execOrErrno("/bin/true", argv.data()); }, serving);
        QCOMPARE(run.exitStatus, ENOSYS);
        QVERIFY(run.events.empty());
    }
};

QTEST_GUILESS_MAIN(ExecRecordsTest)
#include "tst_exec_records.moc"
