// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <memory>

namespace moat {

// One timer for a long transfer instead of one per read and write. Beast's
// per-operation timeouts arm a timer (a timerfd update) for every read and
// write, two per TLS record of a large body: a measurable share of the
// relay's CPU. The watchdog wakes only when `idle` may have passed since the
// last progress(), and calls onIdle (which cancels the streams' pending
// operations) if it has; progress() only notes the time.
//
// For the proxy's single-threaded io_context. onIdle is never called once
// the watchdog is destroyed.
class IdleWatchdog {
public:
    IdleWatchdog(const boost::asio::any_io_executor& executor, std::chrono::steady_clock::duration idle,
                 std::function<void()> onIdle)
        : state_(std::make_shared<State>(State{boost::asio::steady_timer(executor), idle, std::move(onIdle)}))
    {
        arm(state_);
    }
    ~IdleWatchdog()
    {
        // The pending wait completes later, holding the state: it must find
        // it stopped and touch nothing else (the streams may be gone by then).
        state_->stopped = true;
        state_->timer.cancel();
    }
    IdleWatchdog(const IdleWatchdog&) = delete;
    IdleWatchdog& operator=(const IdleWatchdog&) = delete;

    void progress() { state_->last = std::chrono::steady_clock::now(); }
    // Whether onIdle was called: the transfer stalled for `idle`.
    bool fired() const { return state_->fired; }

private:
    struct State {
        boost::asio::steady_timer timer;
        std::chrono::steady_clock::duration idle;
        std::function<void()> onIdle;
        std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
        bool stopped = false;
        bool fired = false;
    };
    static void arm(const std::shared_ptr<State>& state)
    {
        state->timer.expires_at(state->last + state->idle);
        state->timer.async_wait([state](const boost::system::error_code&) {
            if (state->stopped) {
                return;
            }
            if (std::chrono::steady_clock::now() - state->last >= state->idle) {
                state->fired = true;
                state->onIdle();
                return;
            }
            arm(state);
        });
    }

    std::shared_ptr<State> state_;
};

}  // namespace moat
