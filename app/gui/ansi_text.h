// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QColor>
#include <QString>
#include <QStringDecoder>

#include <vector>

namespace moat::gui {

// How a run of terminal text looks: colours (invalid: the palette's own),
// bold, italic, underline, inverse.
struct AnsiStyle {
    QColor foreground;
    QColor background;
    bool bold = false;
    bool italic = false;
    bool underline = false;
    bool inverse = false;

    friend bool operator==(const AnsiStyle&, const AnsiStyle&) = default;
};

struct AnsiRun {
    QString text;
    AnsiStyle style;
};

// Turns an agent's terminal output (bytes, in chunks as they come) into
// runs of styled text. Only SGR (ESC [ ... m: 16, 256 and 24-bit colours,
// bold, italic, underline, inverse, reset) changes anything; every other
// escape sequence is consumed and dropped, whole:
//  - OSC (ESC ]): titles, OSC 8 hyperlinks, OSC 52 clipboard writes: never
//    acted on, their text never shown;
//  - DCS, SOS, PM, APC strings; other CSI (cursor moves, erases, modes);
//    two- and three-byte escapes (charsets, keypad modes);
//  - C0 controls but newline and tab; C1 controls (U+0080..U+009F);
//    bidirectional overrides.
// Trust: the bytes are the sandbox's; a sequence split across chunks is
// resumed with the next one, an over-long parameter list is cut, and an
// unterminated string ends after 4 KiB so that it cannot hide the rest of
// the output.
class AnsiDecoder
{
public:
    // Runs for `bytes`; adjacent runs of the same style are merged.
    std::vector<AnsiRun> feed(const QByteArray& bytes);
    const AnsiStyle& style() const { return style_; }
    void reset();

    // The colour of a 256-colour palette index (0..15: the basic ones).
    static QColor paletteColor(int index);

private:
    enum class State { Ground, Escape, EscapeIntermediate, Csi, String, StringEscape };
    void text(QByteArrayView bytes, std::vector<AnsiRun>* out);
    void flushText(std::vector<AnsiRun>* out);
    void applySgr();

    State state_ = State::Ground;
    QByteArray params_;
    bool paramsOverflow_ = false;
    qsizetype stringBytes_ = 0;
    AnsiStyle style_;
    QStringDecoder utf8_{QStringDecoder::Utf8};
    QString pending_;
};

}  // namespace moat::gui
