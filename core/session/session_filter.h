// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "egress/tls/http_exchange_filter.h"
#include "session/http_ask_desk.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>

namespace moat {

class HttpRuleSet;
class SecretSwap;

// The filter every intercepted request of a session goes through, on the
// proxy's thread (egress/tls/http_exchange_filter.h): first the session's
// HTTP rules (docs/rules.md: allow, deny, or hold the request and ask a
// person through the HttpAskDesk; a git push is judged by the refs its body
// updates), then its secrets (docs/secrets.md: a placeholder becomes the
// value only in a bound header of a request to a bound host; anywhere else
// the request is refused as a leak attempt). What is recorded names rules
// and secrets, never a header value.
class SessionRequestFilter : public HttpExchangeFilter {
public:
    using Record = std::function<void(const std::string& type, nlohmann::json data)>;

    // rules and secrets may be null (none given); the desk must outlive the filter.
    SessionRequestFilter(std::shared_ptr<const HttpRuleSet> rules, std::shared_ptr<const SecretSwap> secrets,
                         HttpAskDesk* desk, Record record);

    boost::asio::awaitable<FilterVerdict> onRequest(RequestView& request) override;

private:
    boost::asio::awaitable<FilterVerdict> judgeByRules(RequestView& request);
    boost::asio::awaitable<FilterVerdict> swapSecrets(RequestView& request, bool bodyRead);

    std::shared_ptr<const HttpRuleSet> rules_;
    std::shared_ptr<const SecretSwap> secrets_;
    HttpAskDesk* desk_;
    Record record_;
};

// Waits, without blocking the thread, for the desk's answer to a question.
boost::asio::awaitable<HttpAskDesk::Decision> askAndWait(HttpAskDesk& desk, HttpAskDesk::Question question);

}  // namespace moat
