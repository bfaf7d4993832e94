// SPDX-License-Identifier: Apache-2.0
#pragma once

// Boost 1.74's awaitable.hpp uses std::exchange without including <utility>:
// every file of the proxy that uses coroutines includes Asio through here.
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace moat {

// co_await op(..., untilDone(ec)): the error lands in ec instead of an exception.
inline auto untilDone(boost::system::error_code& ec)
{
    return boost::asio::redirect_error(boost::asio::use_awaitable, ec);
}

}  // namespace moat
