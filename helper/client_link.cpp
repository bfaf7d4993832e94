// SPDX-License-Identifier: Apache-2.0
#include "client_link.h"
#include "json_key.h"

#include <QJsonObject>
#include <csignal>

#include "json_channel.h"

namespace moat::helper {

namespace {

constexpr qsizetype kMaxClientMessage = 4096;  // the client only sends tiny messages

}  // namespace

ClientLink::ClientLink(UniqueFd fd, QObject* parent)
    : QObject(parent),
      channel_(std::make_unique<JsonChannel>(std::move(fd), JsonChannel::Framing::Lines, kMaxClientMessage))
{
    connect(channel_.get(), &JsonChannel::received, this, [this](const QJsonObject& message) {
        const QString type = message.value(key("t")).toString();
        if (type == QLatin1String("detach")) {
            detached_ = true;
        } else if (type == QLatin1String("signal")) {
            const int number = message.value(key("signal")).toInt(0);
            if (number > 0 && number < SIGRTMAX) {
                emit signalRequested(number);
            }
        }
    });
    connect(channel_.get(), &JsonChannel::protocolError, this,
            [](const QString& what) { qWarning("moatd: client link: %s", qPrintable(what)); });
    connect(channel_.get(), &JsonChannel::closed, this, [this] {
        if (!detached_ && !ended_) {
            emit hungUp();
        }
    });
}

ClientLink::~ClientLink() = default;

void ClientLink::sendStarted(const QString& session)
{
    channel_->send({{key("t"), key("started")}, {key("session"), session}});
}

void ClientLink::sendSuccessor(const QString& session, const QString& parent, const QString& request)
{
    channel_->send(
        {{key("t"), key("successor")}, {key("session"), session}, {key("parent"), parent}, {key("request"), request}});
}

void ClientLink::sendApproval(const QJsonObject& request)
{
    channel_->send({{key("t"), key("approval")}, {key("request"), request}});
}

void ClientLink::sendEnded(const QString& session, const QString& state, int exitCode)
{
    ended_ = true;
    channel_->send(
        {{key("t"), key("ended")}, {key("session"), session}, {key("state"), state}, {key("exit_code"), exitCode}});
    // One short line into an empty socket buffer: it is out at once.
    channel_->close();
}

}  // namespace moat::helper
