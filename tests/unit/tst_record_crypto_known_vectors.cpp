// SPDX-License-Identifier: Apache-2.0
// The primitives under moat's records give the published answers: HMAC-SHA-256
// (RFC 4231) with one context reused across inputs, Ed25519 (RFC 8032) signing
// and verifying, and the hex the records spell them in.
#include "audit/ed25519.h"
#include "audit/hex.h"
#include "audit/hmac_sha256.h"
#include "audit/sha256.h"

#include <QTest>

using namespace moat;

namespace {

QByteArray fromHex(const char* text)
{
    return QByteArray::fromHex(text);
}

std::string_view view(const QByteArray& bytes)
{
    return {bytes.constData(), static_cast<size_t>(bytes.size())};
}

}  // namespace

class RecordCryptoKnownVectors : public QObject {
    Q_OBJECT

private slots:
    void hmacSha256MatchesRfc4231_data()
    {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("mac");
        QTest::newRow("case 1") << QByteArray(20, '\x0b') << QByteArray("Hi There")
                                << "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7";
        QTest::newRow("case 2") << QByteArray("Jefe") << QByteArray("what do ya want for nothing?")
                                << "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
        QTest::newRow("case 3") << QByteArray(20, '\xaa') << QByteArray(50, '\xdd')
                                << "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe";
    }

    void hmacSha256MatchesRfc4231()
    {
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, data);
        QFETCH(QString, mac);
        auto hmac = HmacSha256::create(reinterpret_cast<const unsigned char*>(key.constData()),
                                       static_cast<size_t>(key.size()));
        QVERIFY(hmac.ok());
        // The same context, three times: each starts afresh under the key.
        for (int round = 0; round < 3; ++round) {
            QCOMPARE(QString::fromStdString(hmac->hex(view(data))), mac);
        }
    }

    void hmacOfTwoPiecesIsHmacOfTheirConcatenation()
    {
        const QByteArray key(32, '\x42');
        auto hmac = HmacSha256::create(reinterpret_cast<const unsigned char*>(key.constData()), 32);
        QVERIFY(hmac.ok());
        QCOMPARE(hmac->hex("{\"a\":1", "}"), hmac->hex("{\"a\":1}"));
        QVERIFY(hmac->hex("{\"a\":1}") != hmac->hex("{\"a\":2}"));
    }

    void sha256ContextIsReusable()
    {
        Sha256 sha;
        QCOMPARE(QString::fromStdString(sha.hex("abc")),
                 QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(QString::fromStdString(sha.hex("")),
                 QStringLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        QCOMPARE(QString::fromStdString(sha.hex("abc")),
                 QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    }

    void ed25519MatchesRfc8032_data()
    {
        QTest::addColumn<QByteArray>("seed");
        QTest::addColumn<QByteArray>("publicKey");
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<QByteArray>("signature");
        QTest::newRow("test 1") << fromHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
                                << fromHex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
                                << QByteArray()
                                << fromHex(
                                       "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
                                       "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b");
        QTest::newRow("test 2") << fromHex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb")
                                << fromHex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
                                << fromHex("72")
                                << fromHex(
                                       "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
                                       "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00");
    }

    void ed25519MatchesRfc8032()
    {
        QFETCH(QByteArray, seed);
        QFETCH(QByteArray, publicKey);
        QFETCH(QByteArray, message);
        QFETCH(QByteArray, signature);
        const auto* seedBytes = reinterpret_cast<const unsigned char*>(seed.constData());

        auto derived = ed25519::publicKey(seedBytes);
        QVERIFY(derived.ok());
        QCOMPARE(QByteArray(reinterpret_cast<const char*>(derived->data()), 32), publicKey);

        auto signed_ = ed25519::sign(seedBytes, view(message));
        QVERIFY(signed_.ok());
        QCOMPARE(QByteArray(reinterpret_cast<const char*>(signed_->data()), 64), signature);
        QVERIFY(ed25519::verify(derived.value(), view(message), signed_.value()));

        // One bit off anywhere, and it does not verify.
        ed25519::Signature flipped = signed_.value();
        flipped[10] ^= 0x01;
        QVERIFY(!ed25519::verify(derived.value(), view(message), flipped));
        QVERIFY(!ed25519::verify(derived.value(), "another message", signed_.value()));
        ed25519::PublicKey otherKey = derived.value();
        otherKey[0] ^= 0x80;
        QVERIFY(!ed25519::verify(otherKey, view(message), signed_.value()));
    }

    void hexRoundTripsAndRefusesWhatIsNotHex()
    {
        const unsigned char bytes[] = {0x00, 0x7f, 0x80, 0xff, 0x1a};
        const std::string text = hex::encode(bytes, sizeof bytes);
        QCOMPARE(QString::fromStdString(text), QStringLiteral("007f80ff1a"));
        unsigned char back[5] = {};
        QVERIFY(hex::decode(text, back, sizeof back));
        QCOMPARE(QByteArray(reinterpret_cast<const char*>(back), 5),
                 QByteArray(reinterpret_cast<const char*>(bytes), 5));
        QVERIFY(!hex::decode("007F80ff1a", back, sizeof back));  // upper case is not how moat writes it
        QVERIFY(!hex::decode("007f80ff1", back, sizeof back));
        QVERIFY(!hex::decode("007f80ff1g", back, sizeof back));
    }
};

QTEST_GUILESS_MAIN(RecordCryptoKnownVectors)
#include "tst_record_crypto_known_vectors.moc"
