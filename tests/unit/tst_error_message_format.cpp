// SPDX-License-Identifier: Apache-2.0
// Error::message is what a person reads on stderr: "what: strerror. hint",
// with each part left out when there is nothing to say.
#include "base/error.h"

#include <QTest>

#include <cerrno>
#include <cstring>

using moat::Error;

class ErrorMessageFormat : public QObject {
    Q_OBJECT

private slots:
    void messageJoinsWhatErrnoAndHint_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<int>("errnum");
        QTest::addColumn<QString>("hint");
        QTest::addColumn<QString>("expected");

        const QString enoent = QString::fromLocal8Bit(std::strerror(ENOENT));
        const QString eacces = QString::fromLocal8Bit(std::strerror(EACCES));
        QTest::newRow("what, errno and hint")
            << "cannot open /x" << ENOENT << "Check the path" << "cannot open /x: " + enoent + ". Check the path";
        QTest::newRow("what and errno") << "cannot open /x" << EACCES << "" << "cannot open /x: " + eacces;
        QTest::newRow("what and hint") << "--net: 'x' is not a network mode" << 0 << "Use proxy, none or open"
                                       << "--net: 'x' is not a network mode. Use proxy, none or open";
        QTest::newRow("what alone") << "no command given" << 0 << "" << "no command given";
    }

    void messageJoinsWhatErrnoAndHint()
    {
        QFETCH(QString, what);
        QFETCH(int, errnum);
        QFETCH(QString, hint);
        QFETCH(QString, expected);

        const Error error{what.toStdString(), errnum, hint.toStdString()};
        QCOMPARE(QString::fromStdString(error.message()), expected);
    }

    void fromErrnoKeepsEveryPart()
    {
        const Error error = Error::fromErrno("cannot write an event", EIO, "Check the disk");
        QCOMPARE(error.what, std::string("cannot write an event"));
        QCOMPARE(error.errnum, EIO);
        QCOMPARE(error.hint, std::string("Check the disk"));
        QCOMPARE(error.message(), "cannot write an event: " + std::string(std::strerror(EIO)) + ". Check the disk");
    }

    void resultCarriesEitherValueOrError()
    {
        moat::Result<int> good(42);
        QVERIFY(good.ok());
        QCOMPARE(*good, 42);

        moat::Result<int> bad(Error{"failed", EPERM, "do something"});
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().errnum, EPERM);

        moat::Status fine;
        QVERIFY(fine.ok());
        moat::Status failed(Error{"failed"});
        QVERIFY(!failed);
        QCOMPARE(failed.error().what, std::string("failed"));
    }
};

QTEST_GUILESS_MAIN(ErrorMessageFormat)
#include "tst_error_message_format.moc"
