// SPDX-License-Identifier: Apache-2.0
// The secrets' way into moat-supervisor: a sealed memfd that round-trips
// names, bindings and values (the values into locked memory), and refuses
// anything malformed without a word of the value in its error.
#include "base/sealed_memfd.h"
#include "session/secret_handoff.h"

#include <QTest>

using moat::SecretForHandoff;

class SecretHandoff : public QObject {
    Q_OBJECT

private slots:
    void roundTrip()
    {
        const std::string value = "ghp_example-value\nwith a newline and \x01 bytes";
        auto fd = moat::writeSecretHandoff({{"GITHUB_TOKEN", {"api.github.com", "*.githubusercontent.com"}, {}, value},
                                            {"NPM", {"registry.npmjs.org:443"}, {"Authorization", "X-Token"}, "n"}});
        QVERIFY(fd.ok());
        auto read = moat::readSecretHandoff(fd->get());
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().message().c_str());
        QCOMPARE(read->size(), size_t(2));
        QCOMPARE((*read)[0].name, std::string("GITHUB_TOKEN"));
        QCOMPARE((*read)[0].hosts, (std::vector<std::string>{"api.github.com", "*.githubusercontent.com"}));
        QVERIFY((*read)[0].headers.empty());
        QCOMPARE(std::string((*read)[0].value.view()), value);
        QVERIFY((*read)[0].value.lockedBytes() >= value.size());
        QCOMPARE((*read)[1].headers, (std::vector<std::string>{"Authorization", "X-Token"}));
        QCOMPARE(std::string((*read)[1].value.view()), std::string("n"));
    }

    void noSecretsIsAnEmptyList()
    {
        auto fd = moat::writeSecretHandoff({});
        QVERIFY(fd.ok());
        auto read = moat::readSecretHandoff(fd->get());
        QVERIFY(read.ok());
        QVERIFY(read->empty());
    }

    void malformedHandoffsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        const QByteArray good = [] {
            auto fd = moat::writeSecretHandoff({{"TOKEN", {"h.example"}, {}, "s3cret-value"}});
            QByteArray all(4096, '\0');
            const auto n = ::pread(fd->get(), all.data(), all.size(), 0);
            all.resize(n > 0 ? n : 0);
            return all;
        }();
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("wrong magic") << QByteArray("MOATSEC2").append(good.mid(8));
        QTest::newRow("truncated") << good.left(good.size() - 3);
        QTest::newRow("trailing bytes") << QByteArray(good).append("x");
        QTest::newRow("huge count") << QByteArray("MOATSEC1\xff\xff\xff\x7f", 12);
        QTest::newRow("a length past the end") << QByteArray("MOATSEC1\x01\x00\x00\x00\xff\xff\x00\x00", 16);
    }

    void malformedHandoffsAreRefused()
    {
        QFETCH(QByteArray, bytes);
        auto fd = moat::sealedMemfd("test", std::string_view(bytes.constData(), size_t(bytes.size())));
        QVERIFY(fd.ok());
        auto read = moat::readSecretHandoff(fd->get());
        QVERIFY(!read.ok());
        QVERIFY(read.error().message().find("s3cret") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(SecretHandoff)
#include "tst_secret_handoff.moc"
