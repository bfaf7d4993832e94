// SPDX-License-Identifier: Apache-2.0
#include "session/session_filter.h"

#include "egress/secret_events.h"
#include "egress/secret_swap.h"
#include "policy/git_push.h"
#include "policy/http_rules.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <boost/beast/core/string.hpp>

#include <algorithm>
#include <optional>

namespace moat {

namespace {

namespace asio = boost::asio;

HttpAskDesk::Question questionFor(const RequestView& request, const RuleDecision& decision,
                                  std::vector<std::string> refs = {})
{
    return {std::string(request.method()), request.host(), request.port(), std::string(request.target()),
            decision.rule, std::move(refs)};
}

}  // namespace

asio::awaitable<HttpAskDesk::Decision> askAndWait(HttpAskDesk& desk, HttpAskDesk::Question question)
{
    auto executor = co_await asio::this_coro::executor;
    // A timer that never fires by itself: the desk's answer cancels it.
    auto wake = std::make_shared<asio::steady_timer>(executor, asio::steady_timer::time_point::max());
    auto answer = std::make_shared<std::optional<HttpAskDesk::Decision>>();
    desk.ask(std::move(question), [wake, answer](const HttpAskDesk::Decision& decision) {
        *answer = decision;
        wake->cancel();
    });
    while (!answer->has_value()) {
        boost::system::error_code ignored;
        co_await wake->async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    }
    co_return **answer;
}

SessionRequestFilter::SessionRequestFilter(std::shared_ptr<const HttpRuleSet> rules,
                                           std::shared_ptr<const SecretSwap> secrets, HttpAskDesk* desk, Record record)
    : rules_(std::move(rules)), secrets_(std::move(secrets)), desk_(desk), record_(std::move(record))
{
}

asio::awaitable<FilterVerdict> SessionRequestFilter::onRequest(RequestView& request)
{
    FilterVerdict verdict = FilterVerdict::forward();
    bool bodyRead = false;
    if (rules_ && rules_->hasRulesFor(request.host(), request.port())) {
        bodyRead = rules_->pushRepository(request.host(), request.port(), request.target()).has_value();
        verdict = co_await judgeByRules(request);
        if (verdict.kind == FilterVerdict::Kind::Refuse) {
            co_return verdict;
        }
    }
    if (secrets_) {
        FilterVerdict swapped = co_await swapSecrets(request, bodyRead);
        if (swapped.kind == FilterVerdict::Kind::Refuse) {
            co_return swapped;
        }
    }
    co_return verdict;
}

asio::awaitable<FilterVerdict> SessionRequestFilter::judgeByRules(RequestView& request)
{
    RuleDecision decision;
    std::vector<std::string> refs;
    if (auto repository = rules_->pushRepository(request.host(), request.port(), request.target())) {
        // A push is judged by the refs it updates, read from its body
        // before any of it reaches the upstream.
        const auto encoding = request.headers()[boost::beast::http::field::content_encoding];
        if (auto plain = checkReceivePackEncoding(std::string_view(encoding.data(), encoding.size())); !plain) {
            co_return FilterVerdict::refuse(plain.error().message());
        }
        // Only the start of the body, up to the end of its ref updates, is
        // read: the pack that follows streams on unread, of any size.
        auto body = co_await request.bodyStart([](std::string_view start) {
            auto commands = parseReceivePackCommands(start, false);
            return !commands || commands->complete;
        });
        if (body && isReceivePackProbe(body.value())) {
            body = co_await request.body();  // the probe is a whole body, or it is no probe
        }
        if (!body) {
            co_return FilterVerdict::refuse("the push cannot be judged: " + body.error().message(), 413);
        }
        if (isReceivePackProbe(body.value())) {
            co_return FilterVerdict::forward("git's probe before a large push: it updates no ref");
        }
        auto commands = parseReceivePackCommands(body.value(), true);
        if (!commands) {
            co_return FilterVerdict::refuse("the push cannot be judged: " + commands.error().message(), 400);
        }
        if (!commands->complete) {
            co_return FilterVerdict::refuse("the push cannot be judged: its ref updates are incomplete", 400);
        }
        for (const auto& update : commands->commands.updates) {
            refs.push_back(update.refName);
        }
        decision = rules_->decidePush(request.host(), request.port(), *repository, commands->commands.updates);
    } else {
        decision = rules_->decide(request.method(), request.host(), request.port(), request.target());
    }
    if (decision.action == RuleAction::Allow) {
        co_return FilterVerdict::forward(decision.rule);
    }
    if (decision.action == RuleAction::Deny) {
        co_return FilterVerdict::refuse(decision.reason);
    }
    if (!desk_) {
        co_return FilterVerdict::refuse("nobody can answer an ask rule in this session, so it is a deny: " +
                                        decision.rule);
    }
    const std::string what = refs.empty() ? "the request" : "the push";  // before refs are moved away
    const auto answer = co_await askAndWait(*desk_, questionFor(request, decision, std::move(refs)));
    if (answer.allowed) {
        co_return FilterVerdict::forward(decision.rule + " (approved, " + answer.rid + ")");
    }
    co_return FilterVerdict::refuse(what + " was not approved (" + answer.decision + ", " + answer.rid + ")" +
                                    (answer.reason.empty() ? std::string() : ": " + answer.reason));
}

asio::awaitable<FilterVerdict> SessionRequestFilter::swapSecrets(RequestView& request, bool bodyRead)
{
    std::vector<HeaderField> headers;
    for (const auto& field : request.headers()) {
        headers.push_back({std::string(field.name_string()), std::string(field.value())});
    }
    const std::vector<HeaderField> original = headers;
    std::string_view body;
    if (bodyRead) {
        // The same bytes the rules read, and no more (a push's start, up to
        // its ref updates): a placeholder in them is a leak too.
        if (auto read = co_await request.bodyStart([](std::string_view) { return true; }); read) {
            body = read.value();
        }
    }
    SwapRequest swap{request.host(), request.port(), true, request.target(), &headers, body};
    const SwapVerdict verdict = secrets_->apply(swap);
    if (verdict.refused) {
        record_(kSecretLeakAttemptEvent, secretLeakAttemptData(verdict, request.host(), request.port()));
        co_return FilterVerdict::refuse(verdict.reason);
    }
    if (!verdict.used.empty()) {
        // Put back the fields whose value changed (every field of such a
        // name, in order), leaving the relay's own (Host, lengths) untouched.
        std::vector<std::string> changed;
        for (size_t i = 0; i < headers.size() && i < original.size(); ++i) {
            const bool seen = std::any_of(changed.begin(), changed.end(), [&](const std::string& name) {
                return boost::beast::iequals(name, headers[i].name);
            });
            if (headers[i].value != original[i].value && !seen) {
                changed.push_back(headers[i].name);
            }
        }
        auto& fields = request.headers();
        for (const auto& name : changed) {
            fields.erase(name);
            for (const auto& header : headers) {
                if (boost::beast::iequals(header.name, name)) {
                    fields.insert(header.name, header.value);
                }
            }
        }
        for (const auto& use : verdict.used) {
            record_(kSecretUseEvent, secretUseData(use, request.host(), request.port()));
        }
    }
    co_return FilterVerdict::forward();
}

}  // namespace moat
