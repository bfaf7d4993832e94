// SPDX-License-Identifier: Apache-2.0
#include "session/parent_link.h"

#include "session/parent_connection.h"

#include <unistd.h>

#include <spdlog/spdlog.h>

namespace moat {

namespace {
constexpr std::chrono::milliseconds kFinalWrite{2000};
}

ParentLink::ParentLink(boost::asio::io_context& io, std::string sessionId, bool embedded, Handlers handlers)
    : io_(io), sessionId_(std::move(sessionId)), embedded_(embedded), handlers_(std::move(handlers)), listener_(io)
{
}

ParentLink::~ParentLink()
{
    close();
}

void ParentLink::attachParentFd(UniqueFd fd)
{
    adopt(std::move(fd), false);
}

Status ParentLink::listen(const std::string& path)
{
    return listener_.listen(path, [this](UniqueFd connection) { onConnection(std::move(connection)); });
}

bool ParentLink::attached() const
{
    return current_ && current_->isOpen();
}

void ParentLink::onConnection(UniqueFd fd)
{
    if (attached()) {
        const int pid = current_->peerPid();
        ReattachListener::refuse(std::move(fd), "another parent is attached to this session" +
                                                    (pid > 0 ? " (pid " + std::to_string(pid) + ")" : std::string()) +
                                                    "; try again once it is gone");
        return;
    }
    adopt(std::move(fd), true);
}

void ParentLink::adopt(UniqueFd fd, bool reattach)
{
    const auto framing = reattach ? ParentConnection::Framing::Lines : ParentConnection::Framing::Datagrams;
    auto connection = std::make_shared<ParentConnection>(io_, std::move(fd), framing);
    current_ = connection;
    std::weak_ptr<ParentConnection> weak = connection;
    connection->start(
        [this](const nlohmann::json& message) {
            if (handlers_.onMessage) {
                handlers_.onMessage(message);
            }
        },
        [this, weak] {
            // The session runs on: moatd may come back through the socket.
            spdlog::debug("the parent link closed");
            if (current_ == weak.lock()) {
                current_.reset();
            }
        });
    connection->send({{"t", "hello"},
                      {"session", sessionId_},
                      {"pid", ::getpid()},
                      {"reattach", reattach},
                      {"embedded", embedded_}});
    if (handlers_.onAttached && attached()) {
        handlers_.onAttached(reattach);
    }
}

bool ParentLink::send(const nlohmann::json& message)
{
    // Held here: a failed send drops the link, which releases current_.
    const auto connection = current_;
    return attached() && connection->send(message);
}

void ParentLink::sendFinal(const nlohmann::json& message)
{
    const auto connection = current_;
    if (attached()) {
        connection->sendFinal(message, kFinalWrite);
    }
}

void ParentLink::close()
{
    listener_.close();
    if (current_) {
        current_->close();
        current_.reset();
    }
}

}  // namespace moat
