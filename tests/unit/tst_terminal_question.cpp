// SPDX-License-Identifier: Apache-2.0
// Embedded mode's question to the person at the terminal (an `ask` rule held
// a request), on a real pty pair with the real relay between the "user's
// terminal" (the pty's slave, raw like moat run leaves it) and pipes that
// stand for the sandbox: the question is shown on a line of its own with the
// agent's control bytes neutralised, "y" allows and anything else denies, the
// answer's keystrokes never reach the sandbox, the agent's output waits, a
// second question waits for the first, and no answer by the deadline denies.
#include "session/stdio_relay.h"
#include "session/terminal_question.h"

#include <QTest>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

using moat::StdioRelay;
using moat::TerminalQuestion;
using moat::UniqueFd;
using namespace std::chrono_literals;

namespace {

// The user's side of the terminal (the pty master) and the sandbox's side
// (the far ends of the relay's pipes).
class TerminalRig {
public:
    TerminalRig()
    {
        int master = -1;
        int slave = -1;
        if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) {
            return;
        }
        master_ = UniqueFd(master);
        slave_ = UniqueFd(slave);
        termios raw{};
        ::tcgetattr(slave, &raw);
        ::cfmakeraw(&raw);
        ::tcsetattr(slave, TCSANOW, &raw);
        ::fcntl(master, F_SETFL, ::fcntl(master, F_GETFL) | O_NONBLOCK);
        int toSandbox[2];
        int fromSandbox[2];
        if (::pipe2(toSandbox, O_CLOEXEC) != 0 || ::pipe2(fromSandbox, O_CLOEXEC) != 0) {
            return;
        }
        sandboxStdin_ = UniqueFd(toSandbox[0]);
        ::fcntl(toSandbox[0], F_SETFL, O_NONBLOCK);
        agentOutput_ = UniqueFd(fromSandbox[1]);
        question = std::make_unique<TerminalQuestion>(slave, slave);
        relay = std::make_unique<StdioRelay>();
        relay->add({slave, UniqueFd(toSandbox[1]), true, true});
        relay->add({slave, UniqueFd(fromSandbox[0]), false, true});
        question->attach(relay.get());
        relay->intercept(question.get());
        relay->start();
    }
    ~TerminalRig()
    {
        agentOutput_.reset();  // the sandbox's output ends: the relay stops
        if (relay) {
            relay->finish(2000);
        }
    }

    bool ready() const { return relay != nullptr; }

    // The user types.
    void type(const std::string& keys) { QCOMPARE(::write(master_.get(), keys.data(), keys.size()), ssize_t(keys.size())); }
    void agentWrites(const std::string& text) { (void)::write(agentOutput_.get(), text.data(), text.size()); }

    // What the terminal showed, until `marker` appears (or the time is up).
    bool shows(const std::string& marker, std::chrono::milliseconds within = 5s)
    {
        const auto until = std::chrono::steady_clock::now() + within;
        while (screen.find(marker) == std::string::npos && std::chrono::steady_clock::now() < until) {
            pollfd fd{master_.get(), POLLIN, 0};
            if (::poll(&fd, 1, 50) > 0) {
                char buffer[4096];
                const ssize_t n = ::read(master_.get(), buffer, sizeof buffer);
                if (n > 0) {
                    screen.append(buffer, static_cast<size_t>(n));
                }
            }
        }
        return screen.find(marker) != std::string::npos;
    }

    // What reached the sandbox's stdin so far.
    std::string sandboxGot(std::chrono::milliseconds wait = 300ms)
    {
        std::this_thread::sleep_for(wait);
        std::string got;
        char buffer[4096];
        ssize_t n;
        while ((n = ::read(sandboxStdin_.get(), buffer, sizeof buffer)) > 0) {
            got.append(buffer, static_cast<size_t>(n));
        }
        return got;
    }

    std::unique_ptr<TerminalQuestion> question;
    std::unique_ptr<StdioRelay> relay;
    std::string screen;

private:
    UniqueFd master_;
    UniqueFd slave_;
    UniqueFd sandboxStdin_;
    UniqueFd agentOutput_;
};

// A reply as the desk would take it: -1 until answered.
struct Answer {
    std::shared_ptr<std::atomic<int>> value = std::make_shared<std::atomic<int>>(-1);
    TerminalQuestion::Reply reply()
    {
        return [value = value](bool allowed) { value->store(allowed ? 1 : 0); };
    }
    bool waitFor(int expected, std::chrono::milliseconds within = 5s) const
    {
        const auto until = std::chrono::steady_clock::now() + within;
        while (value->load() != expected && std::chrono::steady_clock::now() < until) {
            std::this_thread::sleep_for(10ms);
        }
        return value->load() == expected;
    }
};

auto soon(std::chrono::seconds seconds = 30s)
{
    return std::chrono::steady_clock::now() + seconds;
}

// Asks, and waits until the terminal shows the question.
bool askShown(TerminalRig& rig, Answer& answer, const std::string& text = "GET h/p",
              std::chrono::steady_clock::time_point deadline = soon())
{
    return rig.question->ask(text, deadline, answer.reply()) && rig.shows("[y/N]");
}

}  // namespace

class TerminalQuestionTest : public QObject {
    Q_OBJECT

private slots:
    void yesAllowsAndTheAnswerNeverReachesTheSandbox()
    {
        TerminalRig rig;
        QVERIFY(rig.ready());
        rig.type("ls\r");  // before the question: the agent's input
        QCOMPARE(rig.sandboxGot(), std::string("ls\r"));
        Answer answer;
        QVERIFY(rig.question->ask("POST api.example.com/x\x1b]0;pwned\x07, held by the rule 'POST api.example.com /** ask'",
                                  soon(), answer.reply()));
        QVERIFY2(rig.shows("[y/N]"), rig.screen.c_str());
        // On a line of its own, the agent's bytes shown as '?'.
        QVERIFY2(rig.screen.rfind("\r\nmoat: the agent's request POST api.example.com/x?]0;pwned?, held by the rule "
                                  "'POST api.example.com /** ask'",
                                  0) == 0,
                 rig.screen.c_str());
        QVERIFY(rig.screen.find('\x1b') == std::string::npos);
        QVERIFY(rig.screen.find('\x07') == std::string::npos);
        QVERIFY2(rig.screen.find("no answer within") != std::string::npos, rig.screen.c_str());
        rig.type("y");
        QVERIFY2(rig.shows("meanwhile) y"), rig.screen.c_str());  // echoed: the terminal is raw
        QCOMPARE(answer.value->load(), -1);
        rig.type("\r");
        QVERIFY(answer.waitFor(1));
        QVERIFY2(rig.shows("moat: allowed"), rig.screen.c_str());
        QCOMPARE(rig.sandboxGot(), std::string());
        // Forwarding resumes.
        rig.type("pwd\r");
        QCOMPARE(rig.sandboxGot(), std::string("pwd\r"));
    }

    void anythingElseDenies()
    {
        TerminalRig rig;
        QVERIFY(rig.ready());
        for (const char* keys : {"n\r", "\r", "yy\n", "sure\r", "\x03\r"}) {
            Answer answer;
            QVERIFY(askShown(rig, answer, "GET h/p, held by the rule 'GET h /** ask'"));
            rig.screen.clear();
            rig.type(keys);
            QVERIFY2(answer.waitFor(0), keys);
            QVERIFY2(rig.shows("moat: denied"), rig.screen.c_str());
            rig.screen.clear();
        }
        QCOMPARE(rig.sandboxGot(), std::string());
        // "YES" and "y" after a corrected typo allow.
        Answer answer;
        QVERIFY(askShown(rig, answer));
        rig.type("x\x7fYES\r");
        QVERIFY(answer.waitFor(1));
        QCOMPARE(rig.sandboxGot(), std::string());
    }

    void aSecondQuestionWaitsForTheFirst()
    {
        TerminalRig rig;
        QVERIFY(rig.ready());
        Answer first;
        Answer second;
        QVERIFY(rig.question->ask("GET first.example/one", soon(), first.reply()));
        QVERIFY(rig.question->ask("GET second.example/two", soon(), second.reply()));
        QVERIFY(rig.shows("first.example/one"));
        QVERIFY(!rig.shows("second.example", 300ms));
        rig.type("n\r");
        QVERIFY(first.waitFor(0));
        QVERIFY2(rig.shows("second.example/two"), rig.screen.c_str());
        QCOMPARE(second.value->load(), -1);
        rig.type("y\r");
        QVERIFY(second.waitFor(1));
        QCOMPARE(rig.sandboxGot(), std::string());
    }

    void theAgentsOutputWaitsForTheAnswer()
    {
        TerminalRig rig;
        QVERIFY(rig.ready());
        Answer answer;
        QVERIFY(askShown(rig, answer));
        rig.agentWrites("AGENT-OUTPUT");
        QVERIFY(!rig.shows("AGENT-OUTPUT", 300ms));
        rig.type("n\r");
        QVERIFY(answer.waitFor(0));
        QVERIFY2(rig.shows("AGENT-OUTPUT"), rig.screen.c_str());
    }

    void noAnswerByTheDeadlineDenies()
    {
        TerminalRig rig;
        QVERIFY(rig.ready());
        Answer answer;
        QVERIFY(askShown(rig, answer, "GET h/p", std::chrono::steady_clock::now() + 400ms));
        rig.type("y");  // typed, never confirmed
        QVERIFY(answer.waitFor(0, 3s));
        QVERIFY2(rig.shows("no answer in time: denied"), rig.screen.c_str());
        rig.type("ok\r");  // the terminal is the agent's again
        QCOMPARE(rig.sandboxGot(), std::string("ok\r"));
    }

    void withoutATerminalNobodyIsAsked()
    {
        int fds[2];
        QCOMPARE(::pipe2(fds, O_CLOEXEC), 0);
        UniqueFd in(fds[0]);
        UniqueFd out(fds[1]);
        TerminalQuestion question(in.get(), out.get());
        QVERIFY(!question.available());
        bool called = false;
        QVERIFY(!question.ask("GET h/p", soon(), [&called](bool) { called = true; }));
        QVERIFY(!called);
        // A terminal but no relay reading it yet: nobody to ask either.
        int master = -1;
        int slave = -1;
        QCOMPARE(::openpty(&master, &slave, nullptr, nullptr, nullptr), 0);
        UniqueFd masterFd(master);
        UniqueFd slaveFd(slave);
        TerminalQuestion unattached(slave, slave);
        QVERIFY(unattached.available());
        QVERIFY(!unattached.ask("GET h/p", soon(), [&called](bool) { called = true; }));
    }
};

QTEST_GUILESS_MAIN(TerminalQuestionTest)
#include "tst_terminal_question.moc"
