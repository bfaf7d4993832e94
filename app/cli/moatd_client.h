// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <memory>
#include <string>
#include <vector>

namespace moat::cli {

// One answer from moatd: a value, or the D-Bus error's name and message
// (org.moat.Error.NoSuchSession, org.freedesktop.DBus.Error.AccessDenied...).
struct MoatdReply {
    bool ok = false;
    std::string value;
    std::string errorName;
    std::string errorMessage;

    static MoatdReply success(std::string value) { return {true, std::move(value), {}, {}}; }
    static MoatdReply failure(std::string name, std::string message)
    {
        return {false, {}, std::move(name), std::move(message)};
    }
    // moatd is not there to answer (no owner, activation impossible, the
    // bus gone): the caller may run without it.
    bool absent() const;
};

// The calls of helper/org.moat.Manager1.xml that moat makes, blocking. The
// implementation (QtDBus, a proxy generated from that XML) lives in the
// module moat-dbus.so, loaded only when a session bus is there: Qt costs
// `moat run` about 5 ms to load, which the embedded path should not pay.
class MoatdClient {
public:
    virtual ~MoatdClient() = default;

    // The fds are duplicated into the message; the caller keeps its own.
    virtual MoatdReply startSession(const std::string& specJson, int stdinFd, int stdoutFd, int stderrFd,
                                    int clientFd) = 0;
    virtual MoatdReply listSessions(bool all) = 0;
    virtual MoatdReply stopSession(const std::string& id) = 0;
    virtual MoatdReply renewSession(const std::string& id, const std::string& ttl) = 0;
    virtual MoatdReply listApprovals() = 0;
    virtual MoatdReply answerApproval(const std::string& requestId, bool approve, const std::string& client) = 0;
    // `moat secret`: the value goes in once and never comes back.
    virtual MoatdReply setSecret(const std::string& name, const std::string& value,
                                 const std::vector<std::string>& hosts, const std::vector<std::string>& headers) = 0;
    virtual MoatdReply listSecrets() = 0;
    virtual MoatdReply removeSecret(const std::string& name) = 0;
};

// The module's one entry point, by this name (C linkage). Connects to the
// bus at `address`; nullptr with *problem empty: moatd is neither running
// nor activatable there; nullptr with *problem set: the bus refused us.
using ConnectMoatd = MoatdClient* (*)(const std::string& address, std::string* problem);
inline constexpr const char* kConnectMoatdSymbol = "moat_connect_moatd_v2";
inline constexpr const char* kMoatdClientModule = "moat-dbus.so";

// The session bus's address (DBUS_SESSION_BUS_ADDRESS, else the socket
// $XDG_RUNTIME_DIR/bus); empty when there is none. Never autolaunches one.
std::string sessionBusAddress();

// A client of moatd when a session bus is there and org.moat.Manager1 has
// an owner or can be activated on it; nullptr (not an error) when it is
// not: then moat runs without moatd. An error when the bus is there but
// refuses us, or the module cannot be loaded.
Result<std::unique_ptr<MoatdClient>> connectToMoatd();

}  // namespace moat::cli
