// SPDX-License-Identifier: Apache-2.0
// The TLS the proxy speaks to an intercepted upstream checks the server as a
// careful client would: the certificate chains to a trusted CA and carries
// the CONNECT name. A real TLS server (python3) on loopback, a test CA of
// its own given as the extra CA file.

#include "egress/tls/upstream_tls.h"
#include "tls_test_upstream.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>

#include <QtTest>

using tls_rig::Certificates;
using tls_rig::Upstream;

namespace {

// A handshake with the upstream on 127.0.0.1, verifying it as `host`:
// empty when it verified, the proxy's reason otherwise.
std::string handshakeAs(moat::UpstreamTls& tls, std::uint16_t port, const std::string& host)
{
    boost::asio::io_context io;
    boost::asio::ssl::stream<boost::asio::ip::tcp::socket> stream(io, tls.context());
    stream.next_layer().connect({boost::asio::ip::make_address("127.0.0.1"), port});
    if (auto prepared = tls.prepare(stream.native_handle(), host); !prepared) {
        return prepared.error().what;
    }
    boost::system::error_code ec;
    stream.handshake(boost::asio::ssl::stream_base::client, ec);
    return ec ? moat::UpstreamTls::failureReason(stream.native_handle(), host, port, ec) : std::string();
}

}  // namespace

class TlsUpstreamVerification : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(certificates_.ok(), "the openssl command could not make the test certificates"); }

    void theCertificateMustNameTheConnectHost()
    {
        Upstream upstream(certificates_.certificate("named"), certificates_.key("named"));
        QVERIFY(upstream.port() != 0);
        auto tls = moat::UpstreamTls::create(certificates_.caFile().toStdString());
        QVERIFY(tls.ok());
        QCOMPARE(handshakeAs(*tls.value(), upstream.port(), "upstream.test"), std::string());
        QCOMPARE(handshakeAs(*tls.value(), upstream.port(), "other.test"),
                 "upstream certificate for other.test:" + std::to_string(upstream.port()) +
                     " did not verify: hostname mismatch");
        // A wildcard-free name does not match a parent or a child.
        QVERIFY(!handshakeAs(*tls.value(), upstream.port(), "a.upstream.test").empty());
    }

    void onlyTheHostsTrustWithoutTheExtraCa()
    {
        Upstream upstream(certificates_.certificate("named"), certificates_.key("named"));
        auto tls = moat::UpstreamTls::create();
        QVERIFY(tls.ok());
        QCOMPARE(handshakeAs(*tls.value(), upstream.port(), "upstream.test"),
                 "upstream certificate for upstream.test:" + std::to_string(upstream.port()) +
                     " did not verify: unable to get local issuer certificate");
    }

    void anUnreadableExtraCaFileIsAnError()
    {
        auto tls = moat::UpstreamTls::create(certificates_.path("missing.pem").toStdString());
        QVERIFY(!tls.ok());
        QVERIFY(tls.error().what.starts_with("cannot load the extra CA file "));
        const QString notPem = certificates_.write("not-pem.txt", "hello\n");
        QVERIFY(!moat::UpstreamTls::create(notPem.toStdString()).ok());
    }

private:
    Certificates certificates_;
};

QTEST_GUILESS_MAIN(TlsUpstreamVerification)
#include "tst_tls_upstream_verification.moc"
