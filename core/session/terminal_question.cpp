// SPDX-License-Identifier: Apache-2.0
#include "session/terminal_question.h"

#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>

namespace moat {

namespace {

constexpr std::size_t kMaxShown = 600;
constexpr std::size_t kMaxTyped = 16;

std::string lowered(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

}  // namespace

TerminalQuestion::TerminalQuestion(int inFd, int outFd)
    : inFd_(inFd), outFd_(outFd), available_(inFd >= 0 && outFd >= 0 && ::isatty(inFd) && ::isatty(outFd))
{
}

void TerminalQuestion::attach(StdioRelay* relay)
{
    std::lock_guard lock(mutex_);
    relay_ = relay;
}

std::string TerminalQuestion::printable(const std::string& text)
{
    std::string shown;
    for (const char c : text.substr(0, kMaxShown)) {
        const auto byte = static_cast<unsigned char>(c);
        shown += byte >= 0x20 && byte < 0x7f ? c : '?';
    }
    return text.size() > kMaxShown ? shown + "..." : shown;
}

bool TerminalQuestion::ask(const std::string& text, std::chrono::steady_clock::time_point deadline, Reply reply)
{
    if (!available_) {
        return false;
    }
    StdioRelay* relay = nullptr;
    {
        std::lock_guard lock(mutex_);
        if (!relay_) {
            return false;  // nothing reads the terminal (the relay has not started)
        }
        queue_.push_back({printable(text), deadline, std::move(reply)});
        relay = relay_;
    }
    relay->wake();  // the relay thread shows it (hold())
    return true;
}

void TerminalQuestion::write(const std::string& text) const
{
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(outFd_, text.data() + done, text.size() - done);
        if (n <= 0) {
            return;  // the terminal went away: the deadline still answers
        }
        done += static_cast<std::size_t>(n);
    }
}

StdioRelay::Interceptor::Hold TerminalQuestion::hold()
{
    std::unique_lock lock(mutex_);
    while (!queue_.empty()) {
        const auto now = std::chrono::steady_clock::now();
        Question& front = queue_.front();
        if (now >= front.deadline) {
            Reply reply = std::move(front.reply);
            queue_.pop_front();
            const bool wasShown = shown_;
            shown_ = false;
            typed_.clear();
            lock.unlock();
            write(wasShown ? "\r\nmoat: no answer in time: denied\r\n"
                           : "\r\nmoat: a held request was denied: its time ran out while another question waited\r\n");
            reply(false);
            lock.lock();
            continue;
        }
        if (!shown_) {
            shown_ = true;
            typed_.clear();
            const auto left = std::chrono::ceil<std::chrono::seconds>(front.deadline - now).count();
            write("\r\nmoat: the agent's request " + front.text +
                  ".\r\nmoat: it waits for you: allow it? [y/N] (no answer within " + std::to_string(left) +
                  " s is a deny; the agent's output waits meanwhile) ");
        }
        const auto wait = std::chrono::ceil<std::chrono::milliseconds>(front.deadline - now).count();
        return {true, static_cast<int>(std::min<long long>(wait, 60000))};
    }
    return {};
}

void TerminalQuestion::input(const char* data, std::size_t size)
{
    // The terminal echoes by itself unless it is raw (ECHO off).
    termios mode{};
    const bool echo = ::tcgetattr(inFd_, &mode) != 0 || (mode.c_lflag & ECHO) == 0;
    std::string echoed;
    for (std::size_t i = 0; i < size; ++i) {
        const auto c = static_cast<unsigned char>(data[i]);
        if (c == '\r' || c == '\n') {
            if (echo && !echoed.empty()) {
                write(echoed);
            }
            std::string said;
            {
                std::lock_guard lock(mutex_);
                said = typed_;
            }
            const std::string word = lowered(said);
            answer(word == "y" || word == "yes", said);
            return;  // what follows Enter in the same read is dropped, never the agent's
        }
        std::lock_guard lock(mutex_);
        if ((c == 0x7f || c == 0x08) && !typed_.empty()) {
            typed_.pop_back();
            echoed += "\b \b";
        } else if (c >= 0x20 && c < 0x7f && typed_.size() < kMaxTyped) {
            typed_ += static_cast<char>(c);
            echoed += static_cast<char>(c);
        }
    }
    if (echo && !echoed.empty()) {
        write(echoed);
    }
}

void TerminalQuestion::answer(bool allowed, const std::string& said)
{
    Reply reply;
    {
        std::lock_guard lock(mutex_);
        if (queue_.empty() || !shown_) {
            return;
        }
        reply = std::move(queue_.front().reply);
        queue_.pop_front();
        shown_ = false;
        typed_.clear();
    }
    write(allowed ? "\r\nmoat: allowed\r\n"
                  : said.empty() ? "\r\nmoat: denied\r\n" : "\r\nmoat: denied (only y or yes allows)\r\n");
    reply(allowed);
}

}  // namespace moat
