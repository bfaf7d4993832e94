// SPDX-License-Identifier: Apache-2.0
#include "http_approval.h"
#include "json_key.h"

#include <QJsonArray>

#include <algorithm>

namespace moat::helper {

namespace {

constexpr int kMaxMethod = 16;
constexpr int kMaxHost = 253;
constexpr int kMaxPath = 2048;
constexpr int kMaxRule = 512;
constexpr int kMaxRefs = 32;
constexpr int kMaxRef = 256;

// A string field, present and at most `limit` characters, without NUL.
Result<QString> boundedString(const QJsonObject& object, const char* name, int limit, bool required = true)
{
    const QJsonValue value = object.value(key(name));
    if (value.isUndefined() && !required) {
        return QString();
    }
    if (!value.isString()) {
        return Error{std::string("http.") + name + " is missing or not a string"};
    }
    const QString text = value.toString();
    if (text.size() > limit || text.contains(QChar(0))) {
        return Error{std::string("http.") + name + " is longer than " + std::to_string(limit) +
                     " characters or holds a NUL"};
    }
    return text;
}

}  // namespace

Result<HttpApproval> httpApprovalFrom(const QJsonObject& message, const QDateTime& now, int maxSeconds)
{
    const QJsonObject http = message.value(key("http")).toObject();
    auto method = boundedString(http, "method", kMaxMethod);
    auto host = boundedString(http, "host", kMaxHost);
    auto path = boundedString(http, "path", kMaxPath);
    auto rule = boundedString(http, "rule", kMaxRule);
    for (const auto* field : {&method, &host, &path, &rule}) {
        if (!*field) {
            return field->error();
        }
    }
    const int port = http.value(key("port")).toInt(-1);
    if (port < 1 || port > 65535) {
        return Error{"http.port is not a port number (1 to 65535)"};
    }
    HttpApproval approval;
    approval.http = QJsonObject{{key("method"), method.value()},
                                {key("host"), host.value()},
                                {key("port"), port},
                                {key("path"), path.value()},
                                {key("rule"), rule.value()}};
    if (http.contains(key("refs"))) {
        const QJsonValue refs = http.value(key("refs"));
        if (!refs.isArray() || refs.toArray().size() > kMaxRefs) {
            return Error{"http.refs is not an array of at most " + std::to_string(kMaxRefs) + " refs"};
        }
        QJsonArray checked;
        for (const auto& ref : refs.toArray()) {
            if (!ref.isString() || ref.toString().size() > kMaxRef || ref.toString().contains(QChar(0))) {
                return Error{"http.refs holds something other than a ref name"};
            }
            checked.append(ref);
        }
        approval.http.insert(key("refs"), checked);
    }
    // The supervisor answers at its own deadline: moatd's is the same, or
    // sooner if the message asks for more than moatd waits.
    const QDateTime latest = now.addSecs(maxSeconds);
    const int asked = message.value(key("timeout_seconds")).toInt(-1);
    approval.expires = asked > 0 && asked < maxSeconds ? now.addSecs(asked) : latest;
    const QDateTime deadline = QDateTime::fromString(message.value(key("deadline")).toString(), Qt::ISODate);
    if (deadline.isValid() && deadline < approval.expires) {
        approval.expires = std::max(deadline, now);
    }
    return approval;
}

}  // namespace moat::helper
