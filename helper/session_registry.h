// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <deque>
#include <functional>
#include <memory>
#include <optional>

#include "audit/record_keys.h"
#include "base/error.h"
#include "base/unique_fd.h"
#include "policy/escalation_request.h"
#include "policy/sandbox_spec.h"
#include "session_records.h"

namespace moat::keychain {
class RecordKeyStore;
}

namespace moat::helper {

class ClientLink;
class EventBatcher;
class SupervisorHandle;

// The sessions moatd runs (started here, or found running after a restart)
// and their lifecycle: start, stop, renew, signals, the end, and the
// successor an approved request asked for. One supervisor per session; one
// client link and one set of stdio fds per chain of sessions (a session and
// its successors), so that `moat run` stays attached to the last one.
class SessionRegistry : public QObject {
    Q_OBJECT

public:
    SessionRegistry(MoatPaths paths, keychain::RecordKeyStore& keys, QObject* parent = nullptr);
    ~SessionRegistry() override;

    struct Stdio {
        UniqueFd in, out, err;
    };
    // Validates the spec (spec_json.h shape, a fresh 16-hex session id) and
    // starts its supervisor; done() gets the session id, or what went wrong.
    // done() may run before start() returns, or later: the first start waits
    // for the keychain (the record keys), and calls arriving meanwhile (the
    // keychain's answer is awaited in a nested event loop) queue behind it.
    using Started = std::function<void(const Result<QString>& started)>;
    void start(const std::string& specJson, Stdio stdio, UniqueFd client, Started done);

    // Finds supervisors that outlived a previous moatd (status.json says
    // running, the pid is a live moat-supervisor) and re-attaches to each.
    void reattachAll();

    // A running session by id, unique id prefix or name; nullopt and *error.
    std::optional<QString> resolve(const QString& idPrefixOrName, QString* error) const;
    bool isRunning(const QString& id) const { return sessions_.contains(id); }
    bool hasClient(const QString& id) const;

    void stop(const QString& id, const QJsonObject& by);
    // ttl empty: the session's own. done(expires) with an empty expires on
    // failure (with why).
    void renew(const QString& id, const QString& ttl, const QJsonObject& by,
               std::function<void(const QString& expires, const QString& why)> done);
    bool sendToSupervisor(const QString& id, const QJsonObject& message);
    // Tells the `moat run` attached to session `id` (if any) that a request
    // of it waits for a person.
    void tellClientOfApproval(const QString& id, const QJsonObject& request);
    // On "approved" with a successor: started when `id` ends.
    void setSuccessor(const QString& id, const QString& requestId, const EscalationRequest& request);

    // moat ps --json: running sessions; with `all`, past ones too.
    QJsonArray list(bool all) const;
    const SessionRecords& records() const { return records_; }

signals:
    void sessionStarted(const QString& id, const QString& sessionJson);
    void sessionEnded(const QString& id, const QString& state, int exitCode);
    void eventsAppended(const QString& id, quint64 lastSeq, uint count);
    // A "request" message from a session's supervisor (validated by the broker).
    void requestReceived(const QString& id, const QJsonObject& message);

private:
    struct Chain;
    struct Session;

    struct Queued;
    Result<SandboxSpec> checkSpec(const std::string& specJson) const;
    std::shared_ptr<Chain> makeChain(Stdio stdio, UniqueFd client);
    void drainQueue();
    Result<QString> launch(const SandboxSpec& spec, const std::shared_ptr<Chain>& chain);
    void adopt(std::unique_ptr<SupervisorHandle> handle, SandboxSpec spec, std::shared_ptr<Chain> chain);
    void onMessage(const QString& id, const QJsonObject& message);
    void onFinished(const QString& id, const QString& state, int exitCode, const QString& why);
    bool startSuccessor(Session& ended, const std::shared_ptr<Chain>& chain);

    SessionRecords records_;
    keychain::RecordKeyStore& keys_;
    std::unique_ptr<EventBatcher> events_;
    QHash<QString, std::shared_ptr<Session>> sessions_;
    // The keys new sessions record under, read once from the keychain (or
    // the key file): RecordKeyStore is not re-entrant, and the keychain may
    // take a while (an unlock prompt).
    std::optional<RecordKeys> sessionKeys_;
    bool readingKeys_ = false;
    std::deque<std::unique_ptr<Queued>> queue_;
};

}  // namespace moat::helper
