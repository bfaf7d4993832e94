// SPDX-License-Identifier: Apache-2.0
// The supervisor's parent link: hello first on every link, one JSON object a
// datagram on the socketpair and a line on the re-attach socket, one parent
// at a time, a lost parent leaving the session attachable again, and the
// socket's directory kept private (0700, never a symlink, the socket 0600,
// removed on close).
#include "session/parent_link.h"

#include <QTemporaryDir>
#include <QTest>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <deque>

using nlohmann::json;

namespace {

moat::UniqueFd connectTo(const std::string& path)
{
    moat::UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        return {};
    }
    return fd;
}

class LinkRig {
public:
    explicit LinkRig(bool withParentFd)
    {
        int pair[2] = {-1, -1};
        if (withParentFd) {
            ::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair);
            parent_.reset(pair[0]);
        }
        link_ = std::make_unique<moat::ParentLink>(
            io_, "sess1", !withParentFd,
            moat::ParentLink::Handlers{[this](const json& message) { received_.push_back(message); },
                                       [this](bool reattach) { attaches_.push_back(reattach); }});
        if (withParentFd) {
            link_->attachParentFd(moat::UniqueFd(pair[1]));
        }
    }

    void spin(int ms = 50) { io_.run_for(std::chrono::milliseconds(ms)); }

    // The next datagram on the parent's end, or null.
    json datagram()
    {
        spin();
        char buffer[65536];
        const ssize_t n = ::recv(parent_.get(), buffer, sizeof buffer, MSG_DONTWAIT);
        return n > 0 ? json::parse(std::string(buffer, static_cast<size_t>(n)), nullptr, false) : json();
    }
    // The next line on a stream connection, or null.
    json line(int fd)
    {
        std::string text;
        for (int i = 0; i < 40; ++i) {
            spin(25);
            char c;
            while (::recv(fd, &c, 1, MSG_DONTWAIT) == 1) {
                if (c == '\n') {
                    return json::parse(text, nullptr, false);
                }
                text += c;
            }
        }
        return {};
    }

    boost::asio::io_context io_;
    moat::UniqueFd parent_;
    std::unique_ptr<moat::ParentLink> link_;
    std::deque<json> received_;
    std::vector<bool> attaches_;
};

}  // namespace

class ParentLinkFraming : public QObject {
    Q_OBJECT

private slots:
    void helloThenDatagramsBothWays();
    void secondParentIsRefusedAndALostOneCanBeReplaced();
    void socketIsPrivateAndRemoved();
    void aSymlinkedDirectoryIsRefused();
    void oversizedLineDropsTheLink();
};

void ParentLinkFraming::helloThenDatagramsBothWays()
{
    LinkRig rig(true);
    const json hello = rig.datagram();
    QCOMPARE(hello.value("t", ""), std::string("hello"));
    QCOMPARE(hello.value("session", ""), std::string("sess1"));
    QCOMPARE(hello.value("pid", 0), static_cast<int>(::getpid()));
    QVERIFY(hello["reattach"] == json(false));
    QVERIFY(hello["embedded"] == json(false));
    QVERIFY(rig.link_->attached());

    QVERIFY(rig.link_->send({{"t", "events"}, {"last_seq", 3}, {"count", 3}}));
    QCOMPARE(rig.datagram().value("t", ""), std::string("events"));

    for (const std::string& text : {std::string(R"({"t":"stop","by":{"uid":1}})"), std::string("not json"),
                                    std::string(R"({"no":"type"})"), std::string(R"({"t":"renew"})")}) {
        QVERIFY(::send(rig.parent_.get(), text.data(), text.size(), 0) > 0);
    }
    rig.spin();
    // What is not an object with a "t" is ignored, the rest arrives in order.
    QCOMPARE(rig.received_.size(), size_t(2));
    QCOMPARE(rig.received_[0].value("t", ""), std::string("stop"));
    QCOMPARE(rig.received_[1].value("t", ""), std::string("renew"));
}

void ParentLinkFraming::secondParentIsRefusedAndALostOneCanBeReplaced()
{
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/run/supervisors/sess1.sock";
    LinkRig rig(true);
    QVERIFY(rig.link_->listen(path).ok());
    (void)rig.datagram();  // hello

    auto second = connectTo(path);
    QVERIFY(second);
    const json refused = rig.line(second.get());
    QCOMPARE(refused.value("t", ""), std::string("refused"));
    QVERIFY(refused.value("reason", "").find("another parent") != std::string::npos);

    // The parent goes away: the link is free, and the next one gets hello.
    rig.parent_.reset();
    rig.spin();
    QVERIFY(!rig.link_->attached());
    QVERIFY(!rig.link_->send({{"t", "events"}}));
    auto next = connectTo(path);
    QVERIFY(next);
    const json hello = rig.line(next.get());
    QCOMPARE(hello.value("t", ""), std::string("hello"));
    QVERIFY(hello["reattach"] == json(true));
    QCOMPARE(rig.attaches_, (std::vector<bool>{false, true}));

    const std::string stop = "{\"t\":\"stop\"}\n{\"t\":\"sig";
    ::send(next.get(), stop.data(), stop.size(), 0);
    const std::string rest = "nal\",\"signal\":2}\n";
    rig.spin();
    ::send(next.get(), rest.data(), rest.size(), 0);
    rig.spin();
    QCOMPARE(rig.received_.size(), size_t(2));
    QCOMPARE(rig.received_[1].value("signal", 0), 2);
}

void ParentLinkFraming::socketIsPrivateAndRemoved()
{
    QTemporaryDir dir;
    const std::string runtime = dir.path().toStdString() + "/run";
    QVERIFY(::mkdir(runtime.c_str(), 0755) == 0);
    const std::string supervisors = runtime + "/supervisors";
    QVERIFY(::mkdir(supervisors.c_str(), 0777) == 0);
    const std::string path = supervisors + "/sess1.sock";
    // A socket left by a killed supervisor of the same session is replaced.
    {
        moat::UniqueFd stale(::socket(AF_UNIX, SOCK_STREAM, 0));
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
        QVERIFY(::bind(stale.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    }
    {
        LinkRig rig(false);
        QVERIFY(rig.link_->listen(path).ok());
        struct stat info {};
        QVERIFY(::stat(supervisors.c_str(), &info) == 0);
        QCOMPARE(info.st_mode & 0777, 0700u);
        QVERIFY(::stat(path.c_str(), &info) == 0);
        QVERIFY(S_ISSOCK(info.st_mode));
        QCOMPARE(info.st_mode & 0777, 0600u);
        auto client = connectTo(path);
        QVERIFY(client);
        const json hello = rig.line(client.get());
        QVERIFY(hello["embedded"] == json(true));
    }
    QVERIFY(::access(path.c_str(), F_OK) != 0);
}

void ParentLinkFraming::aSymlinkedDirectoryIsRefused()
{
    QTemporaryDir dir;
    const std::string elsewhere = dir.path().toStdString() + "/elsewhere";
    QVERIFY(::mkdir(elsewhere.c_str(), 0700) == 0);
    const std::string runtime = dir.path().toStdString() + "/run";
    QVERIFY(::mkdir(runtime.c_str(), 0700) == 0);
    QVERIFY(::symlink(elsewhere.c_str(), (runtime + "/supervisors").c_str()) == 0);
    LinkRig rig(false);
    const auto listening = rig.link_->listen(runtime + "/supervisors/sess1.sock");
    QVERIFY(!listening.ok());
    QVERIFY2(listening.error().message().find("symlink") != std::string::npos, listening.error().message().c_str());
    QVERIFY(::access((elsewhere + "/sess1.sock").c_str(), F_OK) != 0);
}

void ParentLinkFraming::oversizedLineDropsTheLink()
{
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/sess1.sock";
    LinkRig rig(false);
    QVERIFY(rig.link_->listen(path).ok());
    auto client = connectTo(path);
    QVERIFY(client);
    (void)rig.line(client.get());  // hello
    const std::string huge(200 * 1024, 'x');
    (void)::send(client.get(), huge.data(), huge.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    rig.spin(200);
    QVERIFY(!rig.link_->attached());
    QVERIFY(rig.received_.empty());
}

QTEST_GUILESS_MAIN(ParentLinkFraming)
#include "tst_parent_link.moc"
