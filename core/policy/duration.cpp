// SPDX-License-Identifier: Apache-2.0
#include "policy/duration.h"

#include <cctype>

namespace moat {

namespace {

long long unitSeconds(char unit)
{
    switch (unit) {
    case 's': return 1;
    case 'm': return 60;
    case 'h': return 3600;
    case 'd': return 86400;
    default: return 0;
    }
}

Error badDuration(std::string_view text, std::string_view why)
{
    return Error{"invalid duration '" + std::string(text) + "': " + std::string(why), 0,
                 "Write a number with a unit, such as 90s, 30m, 8h, 1h30m or 2d"};
}

}  // namespace

Result<Duration> Duration::parse(std::string_view text)
{
    if (text.empty()) {
        return badDuration(text, "it is empty");
    }
    long long total = 0;
    size_t i = 0;
    while (i < text.size()) {
        if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
            return badDuration(text, "expected a digit");
        }
        long long number = 0;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
            number = number * 10 + (text[i] - '0');
            if (number > kMaximum.count()) {
                return badDuration(text, "it is longer than 30 days");
            }
            ++i;
        }
        if (i == text.size()) {
            return badDuration(text, "the unit is missing");
        }
        const long long unit = unitSeconds(text[i]);
        if (unit == 0) {
            return badDuration(text, std::string("unknown unit '") + text[i] + "'");
        }
        ++i;
        total += number * unit;
        if (total > kMaximum.count()) {
            return badDuration(text, "it is longer than 30 days");
        }
    }
    if (total == 0) {
        return badDuration(text, "it must be longer than zero");
    }
    return Duration(std::chrono::seconds(total));
}

std::string Duration::toString() const
{
    long long rest = seconds_.count();
    std::string text;
    for (const auto& [unit, size] : {std::pair{'d', 86400LL}, {'h', 3600LL}, {'m', 60LL}, {'s', 1LL}}) {
        if (rest >= size) {
            text += std::to_string(rest / size);
            text += unit;
            rest %= size;
        }
    }
    return text.empty() ? "0s" : text;
}

}  // namespace moat
