// SPDX-License-Identifier: Apache-2.0
#include "audit/event_line.h"

#include <charconv>

namespace moat {

namespace {

class Scanner {
public:
    explicit Scanner(std::string_view text) : text_(text) {}

    bool atEnd()
    {
        skipSpace();
        return at_ == text_.size();
    }

    bool consume(char expected)
    {
        skipSpace();
        if (at_ < text_.size() && text_[at_] == expected) {
            ++at_;
            return true;
        }
        return false;
    }

    // A string's contents as written, escapes included.
    bool string(std::string_view* out)
    {
        skipSpace();
        if (at_ >= text_.size() || text_[at_] != '"') {
            return false;
        }
        const size_t start = ++at_;
        while (at_ < text_.size()) {
            const char c = text_[at_];
            if (c == '\\') {
                at_ += 2;
            } else if (c == '"') {
                *out = text_.substr(start, at_ - start);
                ++at_;
                return true;
            } else if (static_cast<unsigned char>(c) < 0x20) {
                return false;
            } else {
                ++at_;
            }
        }
        return false;
    }

    // Any value; a string's contents, or the raw text of anything else.
    bool value(std::string_view* out, bool* isString)
    {
        skipSpace();
        if (at_ >= text_.size()) {
            return false;
        }
        const char c = text_[at_];
        *isString = c == '"';
        if (*isString) {
            return string(out);
        }
        const size_t start = at_;
        if (c == '{' || c == '[') {
            if (!nested()) {
                return false;
            }
        } else {
            while (at_ < text_.size() && !isDelimiter(text_[at_])) {
                ++at_;
            }
        }
        *out = text_.substr(start, at_ - start);
        return at_ > start;
    }

private:
    static bool isDelimiter(char c)
    {
        return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    void skipSpace()
    {
        while (at_ < text_.size() &&
               (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) {
            ++at_;
        }
    }

    // An object or array, to its matching close, strings taken whole.
    bool nested()
    {
        size_t depth = 0;
        while (at_ < text_.size()) {
            const char c = text_[at_];
            if (c == '"') {
                std::string_view ignored;
                if (!string(&ignored)) {
                    return false;
                }
                continue;
            }
            ++at_;
            if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (--depth == 0) {
                    return true;
                }
            }
        }
        return false;
    }

    std::string_view text_;
    size_t at_ = 0;
};

}  // namespace

std::optional<EventLine> EventLine::scan(std::string_view line)
{
    Scanner scanner(line);
    if (!scanner.consume('{')) {
        return std::nullopt;
    }
    EventLine fields;
    if (scanner.consume('}')) {
        return scanner.atEnd() ? std::optional<EventLine>(fields) : std::nullopt;
    }
    do {
        std::string_view name;
        std::string_view value;
        bool isString = false;
        if (!scanner.string(&name) || !scanner.consume(':') || !scanner.value(&value, &isString)) {
            return std::nullopt;
        }
        if (name == "seq" && !isString) {
            uint64_t number = 0;
            const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
            fields.seq = error == std::errc() && end == value.data() + value.size() ? std::optional<uint64_t>(number)
                                                                                    : std::nullopt;
        } else if (!isString) {
            continue;  // the members below are strings, or missing
        } else if (name == "session") {
            fields.session = value;
            fields.hasSession = true;
        } else if (name == "prev") {
            fields.prev = value;
            fields.hasPrev = true;
        } else if (name == "key") {
            fields.key = value;
            fields.hasKey = true;
        }
    } while (scanner.consume(','));
    if (!scanner.consume('}') || !scanner.atEnd()) {
        return std::nullopt;
    }
    return fields;
}

}  // namespace moat
