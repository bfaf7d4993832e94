// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "egress/asio_coroutines.h"

#include <boost/beast/http/fields.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace moat {

// What a filter decides about one request of an intercepted connection.
struct FilterVerdict {
    enum class Kind {
        Forward,  // send it upstream, with whatever the filter changed in its headers
        Refuse,   // answer it inside TLS with `status` and `reason`; the upstream never sees it
    };

    Kind kind = Kind::Refuse;
    unsigned status = 403;
    // One printable line. Refuse: the agent reads it ("moat: <reason>") and
    // the event records it. Forward: recorded as why it passed (the rule).
    // Never a header value or a secret.
    std::string reason;

    static FilterVerdict forward(std::string why = {}) { return {Kind::Forward, 0, std::move(why)}; }
    static FilterVerdict refuse(std::string why, unsigned status = 403) { return {Kind::Refuse, status, std::move(why)}; }
};

// One request of an intercepted connection, as the filter sees it. Valid
// only during HttpExchangeFilter::onRequest.
//
// The relay has already checked that the request is origin-form HTTP/1.1 and
// that its Host names the CONNECT destination; host() and port() are that
// destination, never the agent's headers.
class RequestView {
public:
    // Reads the body until stopWhen(bytes so far) is true (null: the whole
    // body); returns the bytes read so far.
    using BodyReader = std::function<boost::asio::awaitable<Result<std::string_view>>(
        std::function<bool(std::string_view)> stopWhen)>;

    RequestView(std::string_view method, std::string_view target, const std::string& host, std::uint16_t port,
                boost::beast::http::fields& headers, bool hasBody, BodyReader readBody)
        : method_(method),
          target_(target),
          host_(host),
          port_(port),
          headers_(headers),
          hasBody_(hasBody),
          readBody_(std::move(readBody))
    {
    }

    std::string_view method() const { return method_; }  // "GET", as sent
    std::string_view target() const { return target_; }  // path and query, as sent ("/repos/o/r/issues?x=1")
    const std::string& host() const { return host_; }    // the CONNECT destination, normalised
    std::uint16_t port() const { return port_; }

    // The request's header fields. A filter may read, replace, add or erase
    // them (a secret's placeholder swapped for its value is one such change);
    // what it leaves is what the upstream receives. Host, Content-Length and
    // Transfer-Encoding belong to the relay: changing them fails the request.
    // Header values are never to be logged or put in an event.
    boost::beast::http::fields& headers() { return headers_; }
    const boost::beast::http::fields& headers() const { return headers_; }

    // Whether the request has a body (a Content-Length above 0, or chunked).
    bool hasBody() const { return hasBody_; }

    // The whole body, read from the agent on the first call (later calls
    // return the same bytes), bounded by TlsInterception::maxInspectedBody.
    // The relay then forwards these bytes. A body larger than the bound, or
    // one that does not arrive, is an Error; the request can then only be
    // refused (a Forward verdict becomes a 413 or a 400). A filter that
    // never calls body() lets the body stream to the upstream unread, of any
    // size.
    boost::asio::awaitable<Result<std::string_view>> body() { return readBody_(nullptr); }

    // The start of the body: read until enough(bytes so far) says it holds
    // what the filter needs (a push's list of ref updates), or the body
    // ends; the same bound applies to the start as to a whole body. The
    // relay then forwards these bytes and streams the rest of the body
    // unread, of any size. Later calls to body() or bodyStart() continue
    // from what was read.
    boost::asio::awaitable<Result<std::string_view>> bodyStart(std::function<bool(std::string_view)> enough)
    {
        return readBody_(std::move(enough));
    }

private:
    std::string_view method_;
    std::string_view target_;
    const std::string& host_;
    std::uint16_t port_;
    boost::beast::http::fields& headers_;
    bool hasBody_;
    BodyReader readBody_;
};

// Decides each request of an intercepted connection before it reaches the
// upstream: the HTTP rules (allow / deny / ask, git push refs) and secret
// substitution are filters. One filter serves one connection (the
// TlsInterception::intercept hook makes it per CONNECT), and its requests
// come one at a time, in order.
//
// onRequest runs on the proxy's single thread. It may take as long as it
// needs (an "ask" waits for a person) by co_awaiting asynchronous work (a
// timer, a channel, an answer posted to the proxy's executor): other
// connections go on meanwhile. It must never block the thread. An exception
// out of it refuses the request (500), never forwards it.
class HttpExchangeFilter {
public:
    virtual ~HttpExchangeFilter() = default;
    virtual boost::asio::awaitable<FilterVerdict> onRequest(RequestView& request) = 0;
};

}  // namespace moat
