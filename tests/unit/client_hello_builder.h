// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QList>

#include <cstdint>

// Builds TLS ClientHello records for tests: what a client sends first into
// a tunnel, with the extensions a test wants (or breaks on purpose).
namespace client_hello {

inline QByteArray u8(unsigned value) { return QByteArray(1, char(value & 0xff)); }
inline QByteArray u16(unsigned value) { return u8(value >> 8) + u8(value); }
inline QByteArray u24(unsigned value) { return u8(value >> 16) + u16(value); }

inline QByteArray extension(unsigned type, const QByteArray& body) { return u16(type) + u16(body.size()) + body; }

// server_name with one host_name entry per name.
inline QByteArray serverNameExtension(const QList<QByteArray>& names)
{
    QByteArray list;
    for (const QByteArray& name : names) {
        list += u8(0) + u16(name.size()) + name;
    }
    return extension(0, u16(list.size()) + list);
}

// The ClientHello handshake message body (TLS 1.2 layout, which 1.3 keeps).
inline QByteArray helloBody(const QList<QByteArray>& extensions, bool withExtensionBlock = true)
{
    QByteArray body = u16(0x0303) + QByteArray(32, '\x11');  // version, random
    body += u8(0);                                          // session id
    body += u16(2) + u16(0x1301);                           // one cipher suite
    body += u8(1) + u8(0);                                  // null compression
    if (withExtensionBlock) {
        QByteArray block;
        for (const QByteArray& ext : extensions) {
            block += ext;
        }
        body += u16(block.size()) + block;
    }
    return body;
}

inline QByteArray handshake(const QByteArray& body) { return u8(1) + u24(body.size()) + body; }

inline QByteArray record(const QByteArray& fragment) { return u8(0x16) + u16(0x0301) + u16(fragment.size()) + fragment; }

inline QByteArray withServerName(const QByteArray& name)
{
    return record(handshake(helloBody({extension(0x000a, u16(2) + u16(0x001d)), serverNameExtension({name})})));
}

}  // namespace client_hello
