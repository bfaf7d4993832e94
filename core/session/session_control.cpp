// SPDX-License-Identifier: Apache-2.0
#include "session/session_control.h"

#include <unistd.h>

#include <spdlog/spdlog.h>

namespace moat {

namespace {
constexpr std::chrono::milliseconds kEventsInterval{250};

// The HTTP desk's way to the person at the terminal, in embedded mode only:
// with a parent (moatd), moatd asks, and a client re-attached to an
// embedded session (moat stop) is no one to ask.
HttpAskDesk::AskTerminal terminalFor(bool embedded, SessionControl::AskTerminal ask, std::chrono::seconds timeout)
{
    if (!embedded || !ask) {
        return {};
    }
    return [ask = std::move(ask), timeout](const std::string&, const std::string& text,
                                           std::function<void(bool)> reply) {
        return ask(text, std::chrono::steady_clock::now() + timeout, std::move(reply));
    };
}

}  // namespace

SessionControl::SessionControl(boost::asio::io_context& io, std::string sessionId, UniqueFd parentFd, Actions actions,
                               HttpAskDesk::Options httpAsks)
    : io_(io),
      sessionId_(sessionId),
      actions_(std::move(actions)),
      parentFd_(std::move(parentFd)),
      link_(io, sessionId, !parentFd_.valid(),
            ParentLink::Handlers{[this](const nlohmann::json& message) { onMessage(message); },
                                 [this](bool) { onAttached(); }}),
      desk_(io, sessionId, EscalationDesk::Options{.parentDecides = parentFd_.valid()}, actions_.record,
            [this](const nlohmann::json& message) { return link_.send(message); }),
      httpDesk_(io, sessionId, httpAsks, actions_.record,
                parentFd_.valid() ? HttpAskDesk::SendToParent(
                                        [this](const nlohmann::json& message) { return link_.send(message); })
                                  : HttpAskDesk::SendToParent(),
                terminalFor(!parentFd_.valid(), actions_.askTerminal, httpAsks.timeout)),
      eventsTimer_(io)
{
}

SessionControl::~SessionControl() = default;

void SessionControl::attach()
{
    if (parentFd_) {
        link_.attachParentFd(std::move(parentFd_));
    }
}

Status SessionControl::listen(const std::string& path)
{
    return link_.listen(path);
}

void SessionControl::sandboxStarted(const std::string& expires)
{
    started_ = true;
    expires_ = expires;
    link_.send({{"t", "started"}, {"session", sessionId_}, {"expires", expires_}, {"supervisor_pid", ::getpid()}});
}

void SessionControl::onAttached()
{
    // A parent attached later learns the state it missed.
    if (started_) {
        link_.send({{"t", "started"}, {"session", sessionId_}, {"expires", expires_}, {"supervisor_pid", ::getpid()}});
    }
    desk_.resendPending();
    httpDesk_.resendPending();
    if (lastSeq_ > 0) {
        notifiedSeq_ = 0;
        sendEventsNotice();
    }
}

void SessionControl::eventsAppended(uint64_t lastSeq)
{
    lastSeq_ = lastSeq;
    if (noticeDue_ || !link_.attached()) {
        return;
    }
    const auto now = std::chrono::steady_clock::now();
    if (now - lastNotice_ >= kEventsInterval) {
        sendEventsNotice();
        return;
    }
    noticeDue_ = true;
    eventsTimer_.expires_at(lastNotice_ + kEventsInterval);
    eventsTimer_.async_wait([this](const boost::system::error_code& ec) {
        noticeDue_ = false;
        if (!ec) {
            sendEventsNotice();
        }
    });
}

void SessionControl::sendEventsNotice()
{
    if (lastSeq_ <= notifiedSeq_) {
        return;
    }
    lastNotice_ = std::chrono::steady_clock::now();
    if (link_.send({{"t", "events"}, {"last_seq", lastSeq_}, {"count", lastSeq_ - notifiedSeq_}})) {
        notifiedSeq_ = lastSeq_;
    }
}

EscalationHandler SessionControl::escalationHandler()
{
    return [this](std::string_view query, std::string body, ControlAnswer answer) {
        desk_.submit(query, body, std::move(answer));
    };
}

void SessionControl::refuse(const std::string& what, const std::string& message)
{
    spdlog::warn("the parent's {}: {}", what, message);
    link_.send({{"t", "error"}, {"for", what}, {"message", message}});
}

void SessionControl::onMessage(const nlohmann::json& message)
{
    // The parent is moatd or a moat client of the same uid (ParentLink and
    // ReattachListener checked): trusted to decide, but its messages are
    // still checked for shape, and what is recorded of them is bounded.
    const std::string type = message["t"].get<std::string>();
    if (type == "stop") {
        actions_.stop(boundedActor(message.value("by", nlohmann::json())));
    } else if (type == "renew") {
        const auto& ttl = message.value("ttl", nlohmann::json(""));
        if (!ttl.is_string()) {
            refuse("renew", "ttl must be a string such as \"30m\"");
            return;
        }
        auto renewed = actions_.renew(ttl.get<std::string>(), boundedActor(message.value("by", nlohmann::json())));
        if (!renewed) {
            refuse("renew", renewed.error().message());
            return;
        }
        expires_ = renewed.value();
        link_.send({{"t", "renewed"}, {"expires", expires_}});
    } else if (type == "signal") {
        const auto& sig = message.value("signal", nlohmann::json());
        if (!sig.is_number_integer() || sig.get<int>() < 1 || sig.get<int>() > 64) {
            refuse("signal", "signal must be a signal number from 1 to 64");
            return;
        }
        actions_.signal(sig.get<int>());
    } else if (type == "decision") {
        // The request id says which desk holds it; a rid neither holds
        // (answered already, timed out) is ignored.
        const auto& rid = message.value("rid", nlohmann::json());
        if (rid.is_string() && HttpAskDesk::isHttpRequestId(rid.get<std::string>())) {
            (void)httpDesk_.decide(message);
        } else {
            (void)desk_.decide(message);
        }
    } else {
        refuse(type.substr(0, 40), "unknown message type");
    }
}

void SessionControl::closeRequests()
{
    desk_.closeAll();
    httpDesk_.closeAll();
}

void SessionControl::end(const std::string& state, int exitCode)
{
    eventsTimer_.cancel();
    closeRequests();
    sendEventsNotice();
    link_.sendFinal({{"t", "ended"}, {"state", state}, {"exit_code", exitCode}});
    link_.close();
}

}  // namespace moat
