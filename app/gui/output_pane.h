// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "ansi_text.h"

#include <QByteArray>
#include <QWidget>

class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace moat::gui {

// The agent's output: terminal bytes rendered with their colours
// (AnsiDecoder; every other escape sequence dropped), a bounded scrollback,
// and an input line whose text (with a newline) goes to the session's
// terminal through inputEntered(). The output is the sandbox's and is shown
// as plain text only: no links, no title changes, no clipboard writes.
class OutputPane : public QWidget
{
    Q_OBJECT
public:
    explicit OutputPane(QWidget* parent = nullptr);

    // Lines kept; older ones are dropped from the top.
    void setScrollbackLines(int lines);
    int scrollbackLines() const;
    // Whether the input line accepts text (false once the session ended).
    void setInputEnabled(bool enabled);

    QString plainText() const;
    QPlainTextEdit* view() const { return view_; }
    QLineEdit* inputLine() const { return input_; }

public slots:
    void appendOutput(const QByteArray& bytes);
    void clear();

signals:
    // What the user typed, UTF-8, ending in "\n"; or "\x03" for Interrupt.
    void inputEntered(const QByteArray& bytes);

private:
    void submit();

    AnsiDecoder decoder_;
    QPlainTextEdit* view_;
    QLineEdit* input_;
    QPushButton* send_;
    QPushButton* interrupt_;
};

}  // namespace moat::gui
