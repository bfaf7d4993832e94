// SPDX-License-Identifier: Apache-2.0
#include "session_registry.h"
#include "json_key.h"

#include <unistd.h>

#include <QFileInfo>
#include <QJsonDocument>
#include <QTimer>
#include <deque>
#include <nlohmann/json.hpp>

#include "caller_check.h"
#include "client_link.h"
#include "event_batcher.h"
#include "policy/duration.h"
#include "policy/spec_builder.h"
#include "policy/spec_json.h"
#include "policy/successor_spec.h"
#include "record_key_store.h"
#include "session_secrets.h"
#include "supervisor_handle.h"

namespace moat::helper {

namespace {

constexpr int kRenewAnswerMs = 5000;

bool isSessionId(const std::string& id)
{
    return id.size() == 16 && id.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

// What a chain of sessions shares: the client that started the first one
// and the fds its successors get too. None for a re-attached session.
struct SessionRegistry::Chain {
    std::unique_ptr<ClientLink> client;
    Stdio stdio;
    QString current;  // the chain's running session
    bool hungUp = false;
};

struct SessionRegistry::Session {
    SandboxSpec spec;
    std::unique_ptr<SupervisorHandle> supervisor;
    std::shared_ptr<Chain> chain;
    bool started = false;
    std::optional<std::pair<QString, EscalationRequest>> successor;
    std::deque<std::pair<quint64, std::function<void(const QString&, const QString&)>>> renewals;
    quint64 renewSerial = 0;
};

SessionRegistry::SessionRegistry(MoatPaths paths, keychain::RecordKeyStore& keys, QObject* parent)
    : QObject(parent), records_(std::move(paths)), keys_(keys), events_(std::make_unique<EventBatcher>())
{
    connect(events_.get(), &EventBatcher::eventsAppended, this, &SessionRegistry::eventsAppended);
}

SessionRegistry::~SessionRegistry() = default;

struct SessionRegistry::Queued {
    SandboxSpec spec;
    std::shared_ptr<Chain> chain;
    Started done;
};

void SessionRegistry::start(const std::string& specJson, Stdio stdio, UniqueFd client, Started done)
{
    auto checked = checkSpec(specJson);
    if (!checked) {
        done(checked.error());
        return;
    }
    auto queued = std::make_unique<Queued>();
    queued->spec = std::move(checked.value());
    queued->chain = makeChain(std::move(stdio), std::move(client));
    queued->done = std::move(done);
    queue_.push_back(std::move(queued));
    if (!readingKeys_) {
        drainQueue();  // else the call reading the keys drains it when they are there
    }
}

void SessionRegistry::drainQueue()
{
    while (!queue_.empty()) {
        if (!sessionKeys_) {
            readingKeys_ = true;
            auto keys = keys_.keysForNewSession();  // may run a nested event loop
            readingKeys_ = false;
            if (!keys) {
                const Error error{"cannot get the record keys: " + keys.error().message()};
                while (!queue_.empty()) {
                    auto failed = std::move(queue_.front());
                    queue_.pop_front();
                    failed->done(error);
                }
                return;
            }
            if (!keys->notice.empty()) {
                qInfo("moatd: %s", keys->notice.c_str());
            }
            sessionKeys_ = std::move(keys->keys);
        }
        auto next = std::move(queue_.front());
        queue_.pop_front();
        if (next->chain->hungUp) {
            next->done(Error{"the client closed its link before the session started"});
            continue;
        }
        next->done(launch(next->spec, next->chain));
    }
}

Result<SandboxSpec> SessionRegistry::checkSpec(const std::string& specJson) const
{
    auto json = nlohmann::json::parse(specJson, nullptr, false);
    if (json.is_discarded()) {
        return Error{"the session spec is not JSON", 0, "Pass the spec moat's SpecBuilder makes (spec_json.h)"};
    }
    auto spec = specFromJson(json);
    if (!spec) {
        return spec.error();
    }
    if (!isSessionId(spec->sessionId)) {
        return Error{"the session id '" + spec->sessionId + "' is not 16 lower-case hex digits"};
    }
    if (sessions_.contains(QString::fromStdString(spec->sessionId)) ||
        QFileInfo::exists(records_.directory(QString::fromStdString(spec->sessionId)))) {
        return Error{"session " + spec->sessionId + " exists already", 0, "Start it with a new session id"};
    }
    if (spec->command.empty()) {
        return Error{"the session spec has no command"};
    }
    return spec;
}

std::shared_ptr<SessionRegistry::Chain> SessionRegistry::makeChain(Stdio stdio, UniqueFd client)
{
    auto chain = std::make_shared<Chain>();
    chain->stdio = std::move(stdio);
    chain->client = std::make_unique<ClientLink>(std::move(client));
    ClientLink* link = chain->client.get();
    std::weak_ptr<Chain> weak = chain;
    connect(link, &ClientLink::signalRequested, this, [this, weak](int signal) {
        if (auto c = weak.lock()) {
            sendToSupervisor(c->current, {{key("t"), key("signal")}, {key("signal"), signal}});
        }
    });
    connect(link, &ClientLink::hungUp, this, [this, weak] {
        if (auto c = weak.lock()) {
            c->hungUp = true;
            qInfo("moatd: session %s: its client closed its link without detaching; stopping it",
                  qPrintable(c->current));
            const uid_t uid = ::getuid();
            stop(c->current, {{key("uid"), static_cast<qint64>(uid)},
                              {key("user"), userName(uid)},
                              {key("client"), key("cli")},
                              {key("why"), key("the moat run that started the session is gone")}});
        }
    });
    return chain;
}

Result<QString> SessionRegistry::launch(const SandboxSpec& spec, const std::shared_ptr<Chain>& chain)
{
    const QString id = QString::fromStdString(spec.sessionId);
    auto keysFd = sessionKeys_->toSealedMemfd();
    if (!keysFd) {
        return keysFd.error();
    }
    // The secrets' values, fetched by moatd itself from the keychain: no
    // D-Bus call ever carries one.
    UniqueFd secretsFd;
    if (!spec.secrets.empty()) {
        std::vector<std::string> names;
        for (const auto& secret : spec.secrets) {
            names.push_back(secret.name);
        }
        auto handed = keychain::handOffSessionSecrets(records_.paths(), names);
        if (!handed) {
            return handed.error();
        }
        secretsFd = std::move(handed.value());
    }
    SupervisorHandle::Stdio stdio{chain->stdio.in.get(), chain->stdio.out.get(), chain->stdio.err.get()};
    auto handle = SupervisorHandle::spawn(id, specToJson(spec).dump(), std::move(keysFd.value()), stdio,
                                          std::move(secretsFd));
    if (!handle) {
        return handle.error();
    }
    chain->current = id;
    adopt(std::move(handle.value()), spec, chain);
    return id;
}

void SessionRegistry::adopt(std::unique_ptr<SupervisorHandle> handle, SandboxSpec spec, std::shared_ptr<Chain> chain)
{
    const QString id = handle->sessionId();
    auto session = std::make_shared<Session>();
    session->spec = std::move(spec);
    session->chain = std::move(chain);
    session->supervisor = std::move(handle);
    session->started = session->supervisor->reattached();
    connect(session->supervisor.get(), &SupervisorHandle::received, this,
            [this, id](const QJsonObject& message) { onMessage(id, message); });
    connect(
        session->supervisor.get(), &SupervisorHandle::finished, this,
        [this, id](const QString& state, int exitCode, const QString& why) { onFinished(id, state, exitCode, why); });
    sessions_.insert(id, session);
}

void SessionRegistry::reattachAll()
{
    for (const QString& id : records_.sessionIds()) {
        const QJsonObject status = records_.status(id);
        if (status.value(key("state")).toString() != QLatin1String("running")) {
            continue;
        }
        const auto pid = static_cast<pid_t>(status.value(key("supervisor_pid")).toInt());
        if (!SessionRecords::supervisorAlive(pid)) {
            // Its supervisor died while nobody watched (moatd was down, or it
            // ran embedded and crashed): the session is over.
            records_.settleAfterDeath(id, QStringLiteral("moat-supervisor (pid %1) is gone").arg(pid));
            continue;
        }
        const std::string socket = records_.paths().supervisorSocket(id.toStdString());
        auto handle = SupervisorHandle::reattach(id, pid, socket);
        if (!handle) {
            // An embedded session (no socket) runs on without moatd.
            qInfo("moatd: session %s runs without moatd: %s", qPrintable(id), handle.error().message().c_str());
            continue;
        }
        auto spec = specFromJson(nlohmann::json::parse(
            QJsonDocument(records_.spec(id)).toJson(QJsonDocument::Compact).toStdString(), nullptr, false));
        SandboxSpec known = spec ? spec.value() : SandboxSpec{};
        known.sessionId = id.toStdString();
        qInfo("moatd: re-attached to session %s (moat-supervisor %d)", qPrintable(id), pid);
        adopt(std::move(handle.value()), std::move(known), nullptr);
    }
}

std::optional<QString> SessionRegistry::resolve(const QString& idPrefixOrName, QString* error) const
{
    if (idPrefixOrName.isEmpty()) {
        *error = QStringLiteral("no session named");
        return std::nullopt;
    }
    if (sessions_.contains(idPrefixOrName)) {
        return idPrefixOrName;
    }
    QStringList matches;
    for (auto it = sessions_.cbegin(); it != sessions_.cend(); ++it) {
        if (it.key().startsWith(idPrefixOrName) || QString::fromStdString(it.value()->spec.name) == idPrefixOrName) {
            matches.append(it.key());
        }
    }
    if (matches.size() == 1) {
        return matches.front();
    }
    *error = matches.isEmpty()
                 ? QStringLiteral("no running session has the id, id prefix or name '%1'; moat ps lists them")
                       .arg(idPrefixOrName)
                 : QStringLiteral("'%1' names %2 running sessions (%3); give more of the id")
                       .arg(idPrefixOrName)
                       .arg(matches.size())
                       .arg(matches.join(QStringLiteral(", ")));
    return std::nullopt;
}

bool SessionRegistry::hasClient(const QString& id) const
{
    const auto session = sessions_.value(id);
    return session && session->chain && session->chain->client && !session->chain->hungUp &&
           !session->chain->client->isDetached();
}

void SessionRegistry::tellClientOfApproval(const QString& id, const QJsonObject& request)
{
    if (hasClient(id)) {
        sessions_.value(id)->chain->client->sendApproval(request);
    }
}

void SessionRegistry::stop(const QString& id, const QJsonObject& by)
{
    if (const auto session = sessions_.value(id)) {
        session->successor.reset();  // a stopped session has no successor
        session->supervisor->stop(by);
    }
}

void SessionRegistry::renew(const QString& id, const QString& ttl, const QJsonObject& by,
                            std::function<void(const QString&, const QString&)> done)
{
    const auto session = sessions_.value(id);
    if (!session || !session->supervisor->send({{key("t"), key("renew")}, {key("ttl"), ttl}, {key("by"), by}})) {
        done({}, QStringLiteral("session %1 is not reachable").arg(id));
        return;
    }
    const quint64 serial = ++session->renewSerial;
    session->renewals.emplace_back(serial, std::move(done));
    // The supervisor answers in order; a renewal still unanswered after
    // kRenewAnswerMs fails on its own.
    QTimer::singleShot(kRenewAnswerMs, this, [this, id, serial] {
        const auto s = sessions_.value(id);
        if (!s) {
            return;
        }
        for (auto it = s->renewals.begin(); it != s->renewals.end(); ++it) {
            if (it->first == serial) {
                auto waiting = std::move(it->second);
                s->renewals.erase(it);
                waiting({}, QStringLiteral("moat-supervisor did not confirm the renewal within 5 s"));
                return;
            }
        }
    });
}

bool SessionRegistry::sendToSupervisor(const QString& id, const QJsonObject& message)
{
    const auto session = sessions_.value(id);
    return session && session->supervisor->send(message);
}

void SessionRegistry::setSuccessor(const QString& id, const QString& requestId, const EscalationRequest& request)
{
    if (const auto session = sessions_.value(id)) {
        session->successor = std::make_pair(requestId, request);
    }
}

QJsonArray SessionRegistry::list(bool all) const
{
    QJsonArray entries;
    for (const QString& id : records_.sessionIds()) {
        QJsonObject entry = records_.psEntry(id);
        if (sessions_.contains(id) && !sessions_.value(id)->started) {
            entry.insert(key("state"), key("starting"));
        }
        const QString state = entry.value(key("state")).toString();
        if (all || state == QLatin1String("running") || state == QLatin1String("starting")) {
            entries.append(entry);
        }
    }
    return entries;
}

void SessionRegistry::onMessage(const QString& id, const QJsonObject& message)
{
    const auto session = sessions_.value(id);
    if (!session) {
        return;
    }
    const QString type = message.value(key("t")).toString();
    if (type == QLatin1String("started")) {
        session->started = true;
        if (session->chain && session->chain->client) {
            session->chain->client->sendStarted(id);
        }
        emit sessionStarted(id, QString::fromUtf8(QJsonDocument(records_.psEntry(id)).toJson(QJsonDocument::Compact)));
    } else if (type == QLatin1String("events")) {
        const auto lastSeq = message.value(key("last_seq")).toInteger(-1);
        const auto count = message.value(key("count")).toInteger(-1);
        if (lastSeq >= 0 && count > 0 && count <= 0xffffffffLL) {
            events_->add(id, static_cast<quint64>(lastSeq), static_cast<uint>(count));
        }
    } else if (type == QLatin1String("renewed")) {
        if (!session->renewals.empty()) {
            auto waiting = std::move(session->renewals.front().second);
            session->renewals.pop_front();
            waiting(message.value(key("expires")).toString(), {});
        }
    } else if (type == QLatin1String("request")) {
        emit requestReceived(id, message);
    }
}

void SessionRegistry::onFinished(const QString& id, const QString& reportedState, int reportedCode, const QString& why)
{
    const auto session = sessions_.take(id);
    if (!session) {
        return;
    }
    QString state = reportedState;
    int exitCode = reportedCode;
    if (!why.isEmpty()) {
        // Died without "ended": the sandbox died with it (PDEATHSIG); the
        // record says so unless the supervisor wrote its end already.
        qWarning("moatd: session %s: %s", qPrintable(id), qPrintable(why));
        const auto end = records_.settleAfterDeath(id, why);
        state = end.state;
        exitCode = end.exitCode;
    }
    events_->flush(id);
    for (auto& [serial, waiting] : session->renewals) {
        waiting({}, QStringLiteral("the session ended"));
    }
    session->renewals.clear();
    // The supervisor is reaped; its handle goes once this call returns.
    session->supervisor.release()->deleteLater();
    emit sessionEnded(id, state, exitCode);

    const auto chain = session->chain;
    if (!chain) {
        return;
    }
    // Only a command that exited hands over to its successor: a session
    // stopped, expired or failed ends its chain.
    if (session->successor && state == QLatin1String("exited") && !chain->hungUp && startSuccessor(*session, chain)) {
        return;
    }
    if (chain->client) {
        chain->client->sendEnded(id, state, exitCode);
        chain->client.release()->deleteLater();  // this may run inside one of its signals
    }
    chain->stdio = {};
}

bool SessionRegistry::startSuccessor(Session& ended, const std::shared_ptr<Chain>& chain)
{
    const auto& [requestId, request] = *ended.successor;
    auto spec = successorSpec(ended.spec, request, requestId.toStdString(), generateSessionId());
    Result<QString> started = spec ? launch(spec.value(), chain) : Result<QString>(spec.error());
    if (!started) {
        qWarning("moatd: session %s: cannot start the successor request %s asked for: %s", ended.spec.sessionId.c_str(),
                 qPrintable(requestId), started.error().message().c_str());
        return false;
    }
    qInfo("moatd: session %s follows %s (request %s)", qPrintable(started.value()), ended.spec.sessionId.c_str(),
          qPrintable(requestId));
    if (chain->client) {
        chain->client->sendSuccessor(started.value(), QString::fromStdString(ended.spec.sessionId), requestId);
    }
    return true;
}

}  // namespace moat::helper
