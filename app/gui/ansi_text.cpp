// SPDX-License-Identifier: Apache-2.0
#include "ansi_text.h"

#include <QList>

#include <array>

namespace moat::gui {

namespace {

constexpr qsizetype kMaxParams = 128;        // bytes of one CSI's parameters
constexpr qsizetype kMaxStringBytes = 4096;  // of an OSC/DCS/... string
constexpr char kEsc = 0x1b;

bool shownChar(char16_t c)
{
    if (c == u'\n' || c == u'\t') {
        return true;
    }
    if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
        return false;
    }
    // Bidirectional overrides and isolates: they would reorder what follows.
    return !((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069));
}

}  // namespace

QColor AnsiDecoder::paletteColor(int index)
{
    static const std::array<QColor, 16> basic{
        QColor(0x00, 0x00, 0x00), QColor(0xcd, 0x31, 0x31), QColor(0x0d, 0xbc, 0x79), QColor(0xe5, 0xe5, 0x10),
        QColor(0x24, 0x72, 0xc8), QColor(0xbc, 0x3f, 0xbc), QColor(0x11, 0xa8, 0xcd), QColor(0xe5, 0xe5, 0xe5),
        QColor(0x66, 0x66, 0x66), QColor(0xf1, 0x4c, 0x4c), QColor(0x23, 0xd1, 0x8b), QColor(0xf5, 0xf5, 0x43),
        QColor(0x3b, 0x8e, 0xea), QColor(0xd6, 0x70, 0xd6), QColor(0x29, 0xb8, 0xdb), QColor(0xff, 0xff, 0xff),
    };
    if (index < 0 || index > 255) {
        return {};
    }
    if (index < 16) {
        return basic[static_cast<size_t>(index)];
    }
    if (index < 232) {
        const int cube = index - 16;
        auto level = [](int v) { return v == 0 ? 0 : 55 + v * 40; };
        return QColor(level(cube / 36), level((cube / 6) % 6), level(cube % 6));
    }
    const int grey = 8 + (index - 232) * 10;
    return QColor(grey, grey, grey);
}

void AnsiDecoder::reset()
{
    state_ = State::Ground;
    params_.clear();
    paramsOverflow_ = false;
    stringBytes_ = 0;
    style_ = {};
    utf8_.resetState();
    pending_.clear();
}

void AnsiDecoder::text(QByteArrayView bytes, std::vector<AnsiRun>* out)
{
    (void)out;
    const QString decoded = utf8_.decode(bytes);
    pending_.reserve(pending_.size() + decoded.size());
    for (QChar c : decoded) {
        if (shownChar(c.unicode())) {
            pending_.append(c);
        }
    }
}

void AnsiDecoder::flushText(std::vector<AnsiRun>* out)
{
    if (pending_.isEmpty()) {
        return;
    }
    if (!out->empty() && out->back().style == style_) {
        out->back().text += pending_;
    } else {
        out->push_back({pending_, style_});
    }
    pending_.clear();
}

std::vector<AnsiRun> AnsiDecoder::feed(const QByteArray& bytes)
{
    std::vector<AnsiRun> out;
    qsizetype textStart = -1;
    auto endText = [&](qsizetype at) {
        if (textStart >= 0) {
            text(QByteArrayView(bytes).sliced(textStart, at - textStart), &out);
            textStart = -1;
        }
    };
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        // CAN and SUB abort any sequence; ESC starts a new one anywhere
        // but inside a string, where it may be the start of ST (ESC \).
        if (state_ != State::Ground && (c == 0x18 || c == 0x1a)) {
            state_ = State::Ground;
            continue;
        }
        switch (state_) {
        case State::Ground:
            if (c == kEsc) {
                endText(i);
                state_ = State::Escape;
            } else if (textStart < 0) {
                textStart = i;
            }
            break;
        case State::Escape:
            if (c == '[') {
                params_.clear();
                paramsOverflow_ = false;
                state_ = State::Csi;
            } else if (c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_') {
                stringBytes_ = 0;
                state_ = State::String;  // OSC, DCS, SOS, PM, APC: dropped whole
            } else if (c >= 0x20 && c <= 0x2f) {
                state_ = State::EscapeIntermediate;  // e.g. ESC ( B
            } else if (c == kEsc) {
                state_ = State::Escape;
            } else {
                state_ = State::Ground;  // a two-byte escape: dropped
            }
            break;
        case State::EscapeIntermediate:
            if (c >= 0x30 && c <= 0x7e) {
                state_ = State::Ground;
            } else if (c == kEsc) {
                state_ = State::Escape;
            } else if (c < 0x20 || c > 0x2f) {
                state_ = State::Ground;
            }
            break;
        case State::Csi:
            if (c >= 0x40 && c <= 0x7e) {
                if (c == 'm' && !paramsOverflow_) {
                    flushText(&out);
                    applySgr();
                }
                state_ = State::Ground;
            } else if (c >= 0x20 && c <= 0x3f) {
                if (params_.size() < kMaxParams) {
                    params_.append(static_cast<char>(c));
                } else {
                    paramsOverflow_ = true;  // too long to be honest: ignored
                }
            } else if (c == kEsc) {
                state_ = State::Escape;
            } else {
                state_ = State::Ground;  // not a CSI byte: the sequence is broken
            }
            break;
        case State::String:
            if (c == kEsc) {
                state_ = State::StringEscape;
            } else if (c == 0x07 || ++stringBytes_ > kMaxStringBytes) {
                state_ = State::Ground;  // BEL ends an OSC; a string never ending stops here
            }
            break;
        case State::StringEscape:
            state_ = c == '\\' ? State::Ground : (c == kEsc ? State::StringEscape : State::String);
            break;
        }
    }
    endText(bytes.size());
    flushText(&out);
    return out;
}

void AnsiDecoder::applySgr()
{
    // Groups split by ';', each with ':' sub-parameters (ITU T.416 form).
    QList<QList<int>> groups;
    for (const QByteArray& group : params_.split(';')) {
        QList<int> values;
        for (const QByteArray& part : group.split(':')) {
            bool ok = false;
            const int value = part.toInt(&ok);
            values.append(ok && value >= 0 ? std::min(value, 0xffff) : (part.isEmpty() ? -1 : -2));
        }
        groups.append(values);
    }
    if (params_.startsWith('?') || params_.startsWith('>') || params_.startsWith('<') || params_.startsWith('=')) {
        return;  // private SGR-like modes: not colours
    }
    auto extended = [&](qsizetype* i, QColor* color) {
        const QList<int>& group = groups[*i];
        QList<int> args;
        if (group.size() > 1) {
            args = group.mid(1);  // 38:5:n or 38:2:[cs]:r:g:b
            if (args.value(0) == 2 && args.size() >= 5) {
                args.remove(1);  // the colour space id
            }
        } else {
            for (qsizetype j = *i + 1; j < groups.size() && args.size() < 4; ++j) {
                args.append(groups[j].value(0));
                if (args.size() == 2 && args[0] == 5) {
                    break;
                }
            }
            *i += args.size();
        }
        auto channel = [](int v) { return v >= 0 && v <= 255; };
        if (args.value(0) == 5 && args.size() >= 2 && channel(args[1])) {
            *color = paletteColor(args[1]);
        } else if (args.value(0) == 2 && args.size() >= 4 && channel(args[1]) && channel(args[2]) &&
                   channel(args[3])) {
            *color = QColor(args[1], args[2], args[3]);
        }
    };
    for (qsizetype i = 0; i < groups.size(); ++i) {
        const int code = groups[i].value(0) == -1 ? 0 : groups[i].value(0);
        if (code == 0) {
            style_ = {};
        } else if (code == 1) {
            style_.bold = true;
        } else if (code == 3) {
            style_.italic = true;
        } else if (code == 4) {
            style_.underline = true;
        } else if (code == 7) {
            style_.inverse = true;
        } else if (code == 22) {
            style_.bold = false;
        } else if (code == 23) {
            style_.italic = false;
        } else if (code == 24) {
            style_.underline = false;
        } else if (code == 27) {
            style_.inverse = false;
        } else if (code >= 30 && code <= 37) {
            style_.foreground = paletteColor(code - 30);
        } else if (code >= 90 && code <= 97) {
            style_.foreground = paletteColor(code - 90 + 8);
        } else if (code == 39) {
            style_.foreground = QColor();
        } else if (code >= 40 && code <= 47) {
            style_.background = paletteColor(code - 40);
        } else if (code >= 100 && code <= 107) {
            style_.background = paletteColor(code - 100 + 8);
        } else if (code == 49) {
            style_.background = QColor();
        } else if (code == 38) {
            extended(&i, &style_.foreground);
        } else if (code == 48) {
            extended(&i, &style_.background);
        }
        // Anything else (blink, fonts, 58 underline colour...) is ignored.
    }
}

}  // namespace moat::gui
